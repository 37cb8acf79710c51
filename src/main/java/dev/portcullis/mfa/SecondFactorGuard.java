package dev.portcullis.mfa;

import dev.portcullis.account.SecondFactorThrottle;
import dev.portcullis.account.SignInThrottle;
import dev.portcullis.account.ThrottlePolicy;
import dev.portcullis.account.User;
import dev.portcullis.audit.AuditEvent;
import dev.portcullis.audit.AuditLog;
import dev.portcullis.metrics.Metrics;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.Locale;
import java.util.Optional;

/**
 * The throttle rules of the steps that prove a second factor, shared by codes ({@link SecondFactorService}) and passkeys
 * ({@link PasskeyService}). A second factor after the password counts in the account's {@link SecondFactorThrottle} (never
 * in the password's counter, which a correct password clears); a passwordless passkey counts like a password. Either
 * is refused while the client address is slowed down, wrong passwords locked the account or wrong factors locked its
 * second factors; every refusal is audited ({@code SIGN_IN_LOCKED}).
 */
@ApplicationScoped
public class SecondFactorGuard {

    @Inject
    SignInThrottle signIn;

    @Inject
    Metrics metrics;

    @Inject
    SecondFactorThrottle factors;

    @Inject
    AuditLog audit;

    /** Counts a second-factor attempt after the password; empty when it may be checked, else why not (audited). */
    Optional<SecondFactorService.Outcome> reserve(User user, String clientId, String ip, String kind) {
        ThrottlePolicy.Verdict v = notBlocked(user, ip);
        if (v == ThrottlePolicy.Verdict.ALLOW) {
            v = factors.reserve(user.userId());
        }
        return refused(v, user, clientId, ip, kind);
    }

    /** Counts a passwordless passkey on the account like a password; empty when it may be checked. */
    Optional<SecondFactorService.Outcome> reservePasswordless(User user, String clientId, String ip) {
        ThrottlePolicy.Verdict v = notBlocked(user, ip);
        if (v == ThrottlePolicy.Verdict.ALLOW) {
            v = signIn.reserve(user.username()).verdict();
        }
        return refused(v, user, clientId, ip, "passkey, passwordless");
    }

    /** A wrong factor: the address is counted too, and the lock it may have started is audited. */
    void failed(User user, String clientId, String ip) {
        signIn.recordAddressFailure(ip);
        if (factors.locked(user.userId())) {
            audit.failure(AuditEvent.Type.SIGN_IN_LOCKED, clientId, user.userId(), ip, "second factor locked");
            metrics.throttleLockout("second_factor");
        }
    }

    /** A completed second factor: the only thing that clears the account's second-factor count. */
    void succeeded(User user) {
        factors.clear(user.userId());
    }

    /** Completed by a passwordless passkey, which is a sign-in too: both of the account's counts are cleared. */
    void signedInPasswordless(User user) {
        signIn.recordSuccess(user.username());
        factors.clear(user.userId());
    }

    /** ALLOW, or why any factor is refused now: the address slowed down, either of the account's locks. */
    private ThrottlePolicy.Verdict notBlocked(User user, String ip) {
        ThrottlePolicy.Verdict byAddress = signIn.checkAddress(ip, user.username());
        if (byAddress != ThrottlePolicy.Verdict.ALLOW) {
            return byAddress;
        }
        return signIn.locked(user.username()) || factors.locked(user.userId()) ? ThrottlePolicy.Verdict.LOCKED
                : ThrottlePolicy.Verdict.ALLOW;
    }

    private Optional<SecondFactorService.Outcome> refused(ThrottlePolicy.Verdict v, User user, String clientId, String ip,
                                                    String kind) {
        if (v == ThrottlePolicy.Verdict.ALLOW) {
            return Optional.empty();
        }
        audit.failure(AuditEvent.Type.SIGN_IN_LOCKED, clientId, user.userId(), ip,
                v.name().toLowerCase(Locale.ROOT) + " (" + kind + ")");
        return Optional.of(v == ThrottlePolicy.Verdict.LOCKED ? SecondFactorService.Outcome.LOCKED
                : SecondFactorService.Outcome.WAIT);
    }
}
