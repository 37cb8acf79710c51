package dev.portcullis.account;

import dev.portcullis.audit.AuditEvent;
import dev.portcullis.audit.AuditLog;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.Optional;

/**
 * One sign-in attempt: throttle, credential check (same cost for unknown users), counters and audit. The answer
 * never tells a wrong password from an unknown account.
 *
 * <p>The attempt is counted on the account <em>before</em> the password is verified ({@link SignInThrottle#reserve}),
 * so however many attempts arrive at once, at most {@code portcullis.login.max-failures} passwords are verified per
 * account and window; a success clears the count. No transaction and no database connection is held while the
 * hash is computed.
 */
@ApplicationScoped
public class SignInService {

    @Inject
    SignInThrottle throttle;

    @Inject
    UserService users;

    @Inject
    PasswordHasher hasher;

    @Inject
    AuditLog audit;

    /** BUSY: too many password hashes queued, nothing was checked; the caller answers "try again" (HTTP 503). */
    public enum Outcome { SIGNED_IN, INVALID, WAIT, LOCKED, BUSY }

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
        Optional<User> user;
        try {
            user = name.isEmpty() ? Optional.empty() : users.checkCredentials(name, password);
        } catch (PasswordHasher.BusyException busy) {
            throttle.giveBack(attempt);
            return new Result(Outcome.BUSY, Optional.empty());
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
        if (hasher.needsRehash(stored)) {
            users.replaceOutdatedHash(user.get().username(), stored, hasher.hash(password));
        }
        audit.success(AuditEvent.Type.SIGN_IN_SUCCESS, clientId, user.get().userId(), ip, null);
        return new Result(Outcome.SIGNED_IN, user);
    }

    /**
     * The typed username as the audit trail records it: only when an account has that name. Text typed for no
     * account (often a password in the wrong field) is never written to the trail or the log.
     */
    private String accountName(String name) {
        return name.isEmpty() || name.length() > 100 || users.findByUsername(name).isEmpty() ? null : name;
    }
}
