package dev.portcullis.account;

import dev.portcullis.audit.AuditEvent;
import dev.portcullis.audit.AuditLog;
import dev.portcullis.directory.Directory;
import dev.portcullis.directory.DirectoryEntry;
import dev.portcullis.directory.DirectoryUnavailableException;
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
 * authenticates gets (or updates) their row through {@link UserService#syncDirectoryUser}, so the rest of the
 * system sees them as any user. The throttle applies before anything is sent to the directory.
 */
@ApplicationScoped
public class SignInService {

    @Inject
    SignInThrottle throttle;

    @Inject
    UserService users;

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
            return new Result(byAddress == ThrottlePolicy.Verdict.LOCKED ? Outcome.LOCKED : Outcome.WAIT,
                    Optional.empty());
        }
        SignInThrottle.Reservation attempt = throttle.reserve(name);
        if (!attempt.allowed()) {
            audit.failure(AuditEvent.Type.SIGN_IN_LOCKED, clientId, accountName(name), ip,
                    attempt.verdict().name().toLowerCase());
            return new Result(attempt.verdict() == ThrottlePolicy.Verdict.LOCKED ? Outcome.LOCKED : Outcome.WAIT,
                    Optional.empty());
        }
        Result checked;
        try {
            checked = name.isEmpty() ? new Result(Outcome.INVALID, Optional.empty()) : check(name, password);
        } catch (PasswordHasher.BusyException busy) {
            throttle.giveBack(attempt);
            return new Result(Outcome.BUSY, Optional.empty());
        } catch (DirectoryUnavailableException down) {
            throttle.giveBack(attempt);
            return new Result(Outcome.UNAVAILABLE, Optional.empty());
        }
        Optional<User> user = checked.user();
        if (checked.outcome() != Outcome.SIGNED_IN && checked.outcome() != Outcome.INVALID) {
            audit.failure(AuditEvent.Type.SIGN_IN_FAILURE, clientId, accountName(name), ip,
                    "directory: " + checked.outcome().name().toLowerCase());
            return checked;
        }
        if (user.isEmpty()) {
            throttle.recordAddressFailure(ip);
            String account = accountName(name);
            audit.failure(AuditEvent.Type.SIGN_IN_FAILURE, clientId, account, ip,
                    account == null ? "no such account" : null);
            if (attempt.locks()) {
                audit.failure(AuditEvent.Type.SIGN_IN_LOCKED, clientId, account, ip, "lock started");
            }
            return new Result(Outcome.INVALID, Optional.empty());
        }
        if (!user.get().enabled()) {
            // the same answer as a wrong password (no enumeration); the address is not penalised for a right one
            audit.failure(AuditEvent.Type.SIGN_IN_FAILURE, clientId, user.get().username(), ip, "account disabled");
            return new Result(Outcome.INVALID, Optional.empty());
        }
        throttle.recordSuccess(name);
        String stored = user.get().passwordHash();
        if (!user.get().fromDirectory() && hasher.needsRehash(stored)) {
            users.replaceOutdatedHash(user.get().username(), stored, hasher.hash(password));
        }
        audit.success(AuditEvent.Type.SIGN_IN_SUCCESS, clientId, user.get().userId(), ip, null);
        return new Result(Outcome.SIGNED_IN, user);
    }

    /**
     * Whether the user of a refresh may still get tokens: false only for a directory user whose entry the directory
     * says is gone or disabled. The directory is asked at most once per {@code portcullis.ldap.recheck-interval}
     * (the row's last-checked time, compared with the clock); in between, and for local users, nothing is sent to it.
     * When the directory does not answer, the refresh goes ahead (tokens keep working through an outage) and the
     * next refresh asks again.
     */
    public boolean stillAllowed(String userId) {
        if (!directory.configured()) {
            return true;
        }
        Optional<User> user = userRows.findById(userId); // read-only, no transaction: the token path
        if (user.isEmpty() || !user.get().fromDirectory()) {
            return true;
        }
        Long checked = user.get().directoryCheckedAt();
        if (checked != null && clock.instant().getEpochSecond() - checked < directory.recheckIntervalSeconds()) {
            return true;
        }
        try {
            return directory.findEnabled(userId).flatMap(users::syncDirectoryUser).isPresent();
        } catch (DirectoryUnavailableException down) {
            return true;
        }
    }

    /** The password check: locally for a local user's name, else in the directory when there is one. */
    private Result check(String name, String password) {
        if (!directory.configured() || (directory.localUsersAllowed()
                && users.findByUsername(name).filter(u -> !u.fromDirectory()).isPresent())) {
            return users.checkCredentials(name, password).map(u -> new Result(Outcome.SIGNED_IN, Optional.of(u)))
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
            return users.syncDirectoryUser(entry);
        } catch (PersistenceException raced) {
            return users.syncDirectoryUser(entry);
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
