package dev.portcullis.account;

import dev.portcullis.admin.Refusal;
import dev.portcullis.audit.Actor;
import dev.portcullis.audit.AuditEvent;
import dev.portcullis.audit.AuditLog;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Event;
import jakarta.inject.Inject;
import jakarta.transaction.Transactional;
import java.security.SecureRandom;
import java.time.Clock;
import java.util.Base64;
import java.util.Locale;
import java.util.Optional;

/**
 * Local users' passwords: the check of sign-in, an administrator's setting or reset, the user's own change, and the
 * re-hash of an outdated hash. Every change ends the user's SSO sessions and token families in its transaction
 * ({@link PasswordChanged}); a directory user's password is the directory's and is refused.
 */
@ApplicationScoped
@Transactional
public class CredentialService {

    private static final SecureRandom RANDOM = new SecureRandom();
    public static final int MIN_PASSWORD = 8;
    /** Upper bound so a megabyte "password" cannot make the slow hash slower (NIST 800-63B allows a cap). */
    public static final int MAX_PASSWORD = 1024;

    @Inject
    UserRepository users;

    @Inject
    PasswordHasher hasher;

    @Inject
    Clock clock;

    @Inject
    Event<PasswordChanged> passwordChanged;

    @Inject
    AuditLog audit;

    /**
     * An administrator's setting of a user's password, as {@code actor}'s change audited as
     * {@code USER_PASSWORD_CHANGED}: it ends the user's SSO sessions and token families ({@link #changePassword}).
     * False when there is no such user.
     *
     * @throws Refusal when the password is refused (length, or a directory user's)
     */
    public boolean setPassword(String username, String password, Actor actor) {
        return changePassword(username, password).map(changed -> {
            audit.change(AuditEvent.Type.USER_PASSWORD_CHANGED, actor, null, username.toLowerCase(Locale.ROOT),
                    changed.consequences());
            return changed;
        }).isPresent();
    }

    /**
     * An administrator's reset to a generated password (120 random bits), shown once to the administrator and never
     * stored in clear or logged; otherwise as {@link #setPassword}. Empty when there is no such user.
     *
     * @throws Refusal for a directory user
     */
    public Optional<String> resetPassword(String username, Actor actor) {
        String password = generatedPassword();
        return changePassword(username, password).map(changed -> {
            audit.change(AuditEvent.Type.USER_PASSWORD_CHANGED, actor, null, username.toLowerCase(Locale.ROOT),
                    "generated" + (actor.where() == null ? "" : " " + actor.where()) + "; " + changed.consequences());
            return password;
        });
    }

    /**
     * A user's change of their own password, once {@link SignInService#changeOwnPassword} has checked the current
     * one: audited as {@code USER_PASSWORD_CHANGED} of the user at {@code clientId} (the account page). Package-private
     * so that nothing reaches it without that check.
     */
    Optional<PasswordChanged> changeOwnPassword(String username, String password, String clientId, Actor actor) {
        Optional<PasswordChanged> changed = changePassword(username, password);
        changed.ifPresent(c -> audit.success(AuditEvent.Type.USER_PASSWORD_CHANGED, clientId, c.userId(), actor.ip(),
                "by the user" + (actor.where() == null ? "" : " " + actor.where()) + "; " + c.consequences()));
        return changed;
    }

    /**
     * Sets a user's password and, in the same transaction, ends their SSO sessions and revokes their token families
     * ({@link PasswordChanged}). Empty when there is no such user; otherwise what was ended, for the audit trail.
     */
    private Optional<PasswordChanged> changePassword(String username, String password) {
        checkPassword(password);
        Optional<User> user = users.findForChange(username);
        if (user.isPresent() && user.get().fromDirectory()) {
            throw new Refusal(new Refusal.PasswordRefused(Refusal.PasswordProblem.DIRECTORY_USER,
                    username + " is a directory user; the password is changed in the directory"));
        }
        return user.map(u -> {
            u.changePasswordHash(hasher.hash(password), clock.instant());
            PasswordChanged changed = new PasswordChanged(u.userId());
            passwordChanged.fire(changed);
            return changed;
        });
    }

    /**
     * The credential check of sign-in: the user (read-only) when the password is right, else empty. Unknown usernames
     * cost the same hash as known ones, so timing does not reveal which exist. Outside any transaction, so no
     * database connection waits while the hash is computed; the caller replaces a hash made with other parameters
     * ({@link #replaceOutdatedHash}).
     *
     * @throws PasswordHasher.BusyException when no hash could start in time (nothing was checked)
     */
    @Transactional(Transactional.TxType.NOT_SUPPORTED)
    public Optional<User> checkCredentials(String username, String password) {
        if (password == null || password.length() > MAX_PASSWORD) {
            hasher.verifyAgainstDummy("");
            return Optional.empty();
        }
        Optional<User> user = users.findByUsername(username).filter(u -> !u.fromDirectory());
        if (user.isEmpty()) {
            hasher.verifyAgainstDummy(password);
            return Optional.empty();
        }
        return hasher.verify(password, user.get().passwordHash()) ? user : Optional.empty();
    }

    /** Stores {@code fresh} (the same password, hashed as configured) unless the password changed meanwhile. */
    public void replaceOutdatedHash(String username, String outdated, String fresh) {
        users.findForChange(username).filter(u -> outdated.equals(u.passwordHash()))
                .ifPresent(u -> u.changePasswordHash(fresh, clock.instant()));
    }

    /** The stored form of a new user's password, which {@link #checkPassword} has accepted. */
    String hashOfNew(String password) {
        return hasher.hash(password);
    }

    static String generatedPassword() {
        byte[] bytes = new byte[15];
        RANDOM.nextBytes(bytes);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }

    static void checkPassword(String password) {
        if (password == null || password.length() < MIN_PASSWORD || password.length() > MAX_PASSWORD) {
            throw new Refusal(new Refusal.PasswordRefused(Refusal.PasswordProblem.LENGTH,
                    "must be " + MIN_PASSWORD + " to " + MAX_PASSWORD + " characters"));
        }
    }
}
