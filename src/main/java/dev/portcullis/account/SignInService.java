package dev.portcullis.account;

import dev.portcullis.admin.Refusal;
import dev.portcullis.audit.Actor;
import dev.portcullis.audit.AuditEvent;
import dev.portcullis.audit.AuditLog;
import dev.portcullis.directory.Directory;
import dev.portcullis.directory.DirectoryEntry;
import dev.portcullis.directory.DirectoryUnavailableException;
import dev.portcullis.metrics.Metrics;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.persistence.PersistenceException;
import java.time.Clock;
import java.util.Optional;

/**
 * One sign-in attempt: throttle, credential check (same cost for unknown users), counters and audit. The answer
 * never tells a wrong password from an unknown account.
 *
 * <p>The attempt is counted on the account <em>before</em> the password is verified ({@link SignInThrottle#reserve}),
 * so however many attempts arrive at once, at most {@code portcullis.login.max-failures} passwords are verified per
 * account and window; a success clears the count. No transaction and no database connection is held while the
 * hash is computed.
 *
 * <p>With a directory ({@code portcullis.ldap.url}), a name that belongs to a local user is checked locally (unless
 * {@code portcullis.ldap.local-users=false}); any other name is looked up in the directory, and a user it
 * authenticates gets (or updates) their row through {@link DirectorySyncService#syncDirectoryUser}, so the rest of the
 * system sees them as any user.
 *
 * <p>The account counter is the account's, not the spelling's ({@link #throttleName}): a typed name that resolves to
 * an account (a local user's name, or the directory entry the user filter finds, by account name, principal name or
 * in any case) is counted under that account's username, any other name under itself. Resolving a directory name
 * is one search with the service account, which every attempt makes, for known and unknown names alike; no password
 * reaches the directory before the attempt is reserved.
 */
@ApplicationScoped
public class SignInService {

    @Inject
    SignInThrottle throttle;

    @Inject
    Metrics metrics;

    @Inject
    UserLookupService users;

    @Inject
    CredentialService credentials;

    @Inject
    DirectorySyncService directoryUsers;

    @Inject
    UserRepository userRows;

    @Inject
    PasswordHasher hasher;

    @Inject
    AuditLog audit;

    @Inject
    Directory directory;

    @Inject
    Clock clock;

    /**
     * BUSY: too many password hashes queued, nothing was checked; the caller answers "try again" (HTTP 503).
     * UNAVAILABLE: the directory did not answer, nothing was checked (HTTP 503). ACCOUNT_DISABLED, ACCOUNT_LOCKED and
     * PASSWORD_EXPIRED: the directory refused the account for that reason.
     */
    public enum Outcome { SIGNED_IN, INVALID, WAIT, LOCKED, BUSY, UNAVAILABLE, ACCOUNT_DISABLED, ACCOUNT_LOCKED,
        PASSWORD_EXPIRED }

    public record Result(Outcome outcome, Optional<User> user) {
    }

    public Result signIn(String username, String password, String clientId, String ip) {
        String name = username == null ? "" : username.strip();
        ThrottlePolicy.Verdict byAddress = throttle.checkAddress(ip, name);
        if (byAddress != ThrottlePolicy.Verdict.ALLOW) {
            audit.failure(AuditEvent.Type.SIGN_IN_LOCKED, clientId, accountName(name), ip,
                    byAddress.name().toLowerCase() + " (address)");
            metrics.signIn(Metrics.Method.PWD, throttled(byAddress));
            return new Result(byAddress == ThrottlePolicy.Verdict.LOCKED ? Outcome.LOCKED : Outcome.WAIT,
                    Optional.empty());
        }
        String counted;
        try {
            counted = throttleName(name);
        } catch (DirectoryUnavailableException down) {
            metrics.signIn(Metrics.Method.PWD, Metrics.Reason.DIRECTORY_DOWN);
            return new Result(Outcome.UNAVAILABLE, Optional.empty());
        }
        SignInThrottle.Reservation attempt = throttle.reserve(counted);
        if (!attempt.allowed()) {
            audit.failure(AuditEvent.Type.SIGN_IN_LOCKED, clientId, accountName(name), ip,
                    attempt.verdict().name().toLowerCase());
            metrics.signIn(Metrics.Method.PWD, throttled(attempt.verdict()));
            return new Result(attempt.verdict() == ThrottlePolicy.Verdict.LOCKED ? Outcome.LOCKED : Outcome.WAIT,
                    Optional.empty());
        }
        Result checked;
        try {
            checked = name.isEmpty() ? new Result(Outcome.INVALID, Optional.empty()) : check(name, password);
        } catch (PasswordHasher.BusyException busy) {
            throttle.giveBack(attempt);
            metrics.signIn(Metrics.Method.PWD, Metrics.Reason.BUSY);
            return new Result(Outcome.BUSY, Optional.empty());
        } catch (DirectoryUnavailableException down) {
            throttle.giveBack(attempt);
            metrics.signIn(Metrics.Method.PWD, Metrics.Reason.DIRECTORY_DOWN);
            return new Result(Outcome.UNAVAILABLE, Optional.empty());
        }
        Optional<User> user = checked.user();
        if (checked.outcome() != Outcome.SIGNED_IN && checked.outcome() != Outcome.INVALID) {
            audit.failure(AuditEvent.Type.SIGN_IN_FAILURE, clientId, accountName(name), ip,
                    "directory: " + checked.outcome().name().toLowerCase());
            metrics.signIn(Metrics.Method.PWD, switch (checked.outcome()) {
                case ACCOUNT_DISABLED -> Metrics.Reason.DISABLED;
                case ACCOUNT_LOCKED -> Metrics.Reason.LOCKED;
                case PASSWORD_EXPIRED -> Metrics.Reason.PASSWORD_EXPIRED;
                default -> Metrics.Reason.DIRECTORY_REFUSED;
            });
            return checked;
        }
        if (user.isEmpty()) {
            throttle.recordAddressFailure(ip);
            String account = accountName(name);
            audit.failure(AuditEvent.Type.SIGN_IN_FAILURE, clientId, account, ip,
                    account == null ? "no such account" : null);
            metrics.signIn(Metrics.Method.PWD, account == null ? Metrics.Reason.UNKNOWN_USER
                    : Metrics.Reason.BAD_PASSWORD);
            if (attempt.locks()) {
                audit.failure(AuditEvent.Type.SIGN_IN_LOCKED, clientId, account, ip, "lock started");
                metrics.throttleLockout("account");
            }
            return new Result(Outcome.INVALID, Optional.empty());
        }
        if (!user.get().enabled()) {
            // the same answer as a wrong password (no enumeration); the address is not penalised for a right one
            audit.failure(AuditEvent.Type.SIGN_IN_FAILURE, clientId, user.get().username(), ip, "account disabled");
            metrics.signIn(Metrics.Method.PWD, Metrics.Reason.DISABLED);
            return new Result(Outcome.INVALID, Optional.empty());
        }
        throttle.recordSuccess(counted);
        String stored = user.get().passwordHash();
        if (!user.get().fromDirectory() && hasher.needsRehash(stored)) {
            credentials.replaceOutdatedHash(user.get().username(), stored, hasher.hash(password));
        }
        audit.success(AuditEvent.Type.SIGN_IN_SUCCESS, clientId, user.get().userId(), ip, null);
        metrics.signIn(Metrics.Method.PWD, Metrics.Reason.NONE);
        return new Result(Outcome.SIGNED_IN, user);
    }

    /** The reason of a sign-in refused by the throttle: locked out, or asked to wait. */
    static Metrics.Reason throttled(ThrottlePolicy.Verdict v) {
        return v == ThrottlePolicy.Verdict.LOCKED ? Metrics.Reason.LOCKED : Metrics.Reason.THROTTLED;
    }

    /**
     * A user's change of their own local password, as {@code actor} (the user on their account page): the new password
     * typed twice and valid, then the current one checked as a sign-in at {@code clientId} (throttled and audited like
     * one), then the change ({@link CredentialService#changeOwnPassword}: sessions and token families end, audited as
     * {@code USER_PASSWORD_CHANGED}). False when the user no longer exists.
     *
     * @throws Refusal with the {@link Refusal.PasswordProblem} when anything is refused (nothing changed)
     */
    public boolean changeOwnPassword(User user, String current, String fresh, String repeat, String clientId,
                                     Actor actor) {
        if (user.fromDirectory()) {
            throw refused(Refusal.PasswordProblem.DIRECTORY_USER,
                    user.username() + " is a directory user; the password is changed in the directory");
        }
        if (fresh == null || !fresh.equals(repeat)) {
            throw refused(Refusal.PasswordProblem.MISMATCH, "the two new passwords differ");
        }
        CredentialService.checkPassword(fresh);
        Outcome check = signIn(user.username(), current, clientId, actor.ip()).outcome();
        if (check != Outcome.SIGNED_IN) {
            throw check == Outcome.INVALID
                    ? refused(Refusal.PasswordProblem.CURRENT_WRONG, "the current password is not right")
                    : refused(Refusal.PasswordProblem.CURRENT_NOT_CHECKED,
                            "the current password cannot be checked now; try again later");
        }
        return credentials.changeOwnPassword(user.username(), fresh, clientId, actor).isPresent();
    }

    private static Refusal refused(Refusal.PasswordProblem problem, String why) {
        return new Refusal(new Refusal.PasswordRefused(problem, why));
    }

    /**
     * Whether the user of a refresh may still get tokens: false only for a directory user whose entry the directory
     * says is gone or disabled. The directory is asked at most once per {@code portcullis.ldap.recheck-interval}
     * (the row's last-checked time, compared with the clock); in between, and for local users, nothing is sent to it.
     * When the directory does not answer, the refresh goes ahead (tokens keep working through an outage) and the
     * next refresh asks again.
     */
    public boolean stillAllowed(String userId) {
        return directoryAllows(userId, false, true);
    }

    /**
     * Whether a user may start a session without a password (a passwordless passkey): for a directory user the
     * directory is asked now, whatever the interval, as a password sign-in asks it; when it does not answer, no
     * (a sign-in needs the directory). Always true for local users.
     */
    public boolean allowsSignInWithoutPassword(String userId) {
        return directoryAllows(userId, true, false);
    }

    /**
     * False only for a directory user whose entry the directory says is gone or disabled (or no longer matches); the
     * row takes the entry's current claims and groups. {@code always}: ask even within the interval;
     * {@code whenDown}: the answer when the directory does not answer.
     */
    private boolean directoryAllows(String userId, boolean always, boolean whenDown) {
        if (!directory.configured()) {
            return true;
        }
        Optional<User> user = userRows.findById(userId); // read-only, no transaction: the token path
        if (user.isEmpty() || !user.get().fromDirectory()) {
            return true;
        }
        Long checked = user.get().directoryCheckedAt();
        if (!always && checked != null
                && clock.instant().getEpochSecond() - checked < directory.recheckIntervalSeconds()) {
            return true;
        }
        try {
            return directory.findEnabled(userId).flatMap(directoryUsers::syncDirectoryUser).isPresent();
        } catch (DirectoryUnavailableException down) {
            return whenDown;
        }
    }

    /**
     * The re-check of a live SSO session's user, at the authorization endpoint and on the pages that use the session
     * ({@link #stillAllowed}: at most once per {@code recheck-interval}, the row's claims, groups and admin membership
     * taken from the entry, an outage lets the session go on). When the directory refuses the entry, every session,
     * code and token family of the user ends ({@link DirectorySyncService#endDirectoryAccess}, audited) and the answer is
     * false: the browser must sign in again.
     */
    public boolean sessionStillAllowed(String userId, String ip) {
        if (stillAllowed(userId)) {
            return true;
        }
        directoryUsers.endDirectoryAccess(userId, ip);
        return false;
    }

    /**
     * The name the sign-in throttle counts an attempt under: the account's username when the typed name resolves to
     * an account (checked locally, or found in the directory), else the typed name, so that every spelling of one
     * account meets one counter and a name of no account is counted all the same.
     *
     * @throws DirectoryUnavailableException when the directory did not answer (nothing was checked)
     */
    String throttleName(String name) {
        if (name.isEmpty() || checkedLocally(name)) {
            return name;
        }
        return directory.accountName(name).orElse(name);
    }

    /** Whether a typed name's password is checked here: no directory, or a local user's name that may sign in. */
    private boolean checkedLocally(String name) {
        return !directory.configured() || (directory.localUsersAllowed()
                && users.findByUsername(name).filter(u -> !u.fromDirectory()).isPresent());
    }

    /** The password check: locally for a local user's name, else in the directory when there is one. */
    private Result check(String name, String password) {
        if (checkedLocally(name)) {
            return credentials.checkCredentials(name, password).map(u -> new Result(Outcome.SIGNED_IN, Optional.of(u)))
                    .orElseGet(() -> new Result(Outcome.INVALID, Optional.empty()));
        }
        Directory.Authentication a = directory.authenticate(name, password);
        return switch (a.outcome()) {
            case AUTHENTICATED -> directoryRow(a.entry().orElseThrow())
                    .map(u -> new Result(Outcome.SIGNED_IN, Optional.of(u)))
                    .orElseGet(() -> new Result(Outcome.INVALID, Optional.empty()));
            case DISABLED -> new Result(Outcome.ACCOUNT_DISABLED, Optional.empty());
            case LOCKED -> new Result(Outcome.ACCOUNT_LOCKED, Optional.empty());
            case PASSWORD_EXPIRED -> new Result(Outcome.PASSWORD_EXPIRED, Optional.empty());
            case INVALID -> new Result(Outcome.INVALID, Optional.empty());
        };
    }

    /** The user's row; a second try finds the row that a parallel first sign-in of the same user inserted. */
    private Optional<User> directoryRow(DirectoryEntry entry) {
        try {
            return directoryUsers.syncDirectoryUser(entry);
        } catch (PersistenceException raced) {
            return directoryUsers.syncDirectoryUser(entry);
        }
    }

    /**
     * The typed username as the audit trail records it: only when an account has that name. Text typed for no
     * account (often a password in the wrong field) is never written to the trail or the log.
     */
    private String accountName(String name) {
        return name.isEmpty() || name.length() > 100 || users.findByUsername(name).isEmpty() ? null : name;
    }
}
