package dev.portcullis.account;

import dev.portcullis.audit.AuditEvent;
import dev.portcullis.audit.AuditLog;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.Optional;

/**
 * One sign-in attempt: throttle check, credential check (same cost for unknown users), counters and audit. The
 * answer never tells a wrong password from an unknown account.
 */
@ApplicationScoped
public class SignInService {

    @Inject
    SignInThrottle throttle;

    @Inject
    UserService users;

    @Inject
    AuditLog audit;

    public enum Outcome { SIGNED_IN, INVALID, WAIT, LOCKED }

    public record Result(Outcome outcome, Optional<User> user) {
    }

    public Result signIn(String username, String password, String clientId, String ip) {
        String name = username == null ? "" : username.strip();
        ThrottlePolicy.Verdict verdict = throttle.check(name, ip);
        if (verdict != ThrottlePolicy.Verdict.ALLOW) {
            audit.failure(AuditEvent.Type.SIGN_IN_LOCKED, clientId, clip(name), ip, verdict.name().toLowerCase());
            return new Result(verdict == ThrottlePolicy.Verdict.LOCKED ? Outcome.LOCKED : Outcome.WAIT,
                    Optional.empty());
        }
        Optional<User> user = name.isEmpty() ? Optional.empty() : users.checkCredentials(name, password);
        if (user.isEmpty()) {
            ThrottlePolicy.Verdict after = throttle.recordFailure(name, ip);
            audit.failure(AuditEvent.Type.SIGN_IN_FAILURE, clientId, clip(name), ip, null);
            if (after == ThrottlePolicy.Verdict.LOCKED) {
                audit.failure(AuditEvent.Type.SIGN_IN_LOCKED, clientId, clip(name), ip, "lock started");
            }
            return new Result(Outcome.INVALID, Optional.empty());
        }
        throttle.recordSuccess(name);
        audit.success(AuditEvent.Type.SIGN_IN_SUCCESS, clientId, user.get().userId(), ip, null);
        return new Result(Outcome.SIGNED_IN, user);
    }

    private static String clip(String s) {
        return s.length() > 100 ? s.substring(0, 100) : s;
    }
}
