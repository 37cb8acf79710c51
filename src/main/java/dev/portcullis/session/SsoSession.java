package dev.portcullis.session;

import java.time.Duration;
import java.time.Instant;

/**
 * A browser's single sign-on session (a row of sso_sessions, owned by {@link SsoSessions}). The cookie holds a
 * random id; the row only its hash. {@code authTime} is when the user last entered their password (OIDC auth_time);
 * {@code signInRequest} is the fingerprint of the authorization request that sign-in was made for, until a consent
 * step uses it up (null then). {@code amr} are the methods used so far ({@link AuthMethods}); {@code factorEnrolled}
 * whether the user had a confirmed second factor when the session began.
 */
public record SsoSession(String sessionHash, String userId, Instant authTime, Instant createdAt, Instant lastSeenAt,
                         Instant expiresAt, String signInRequest, String amr, boolean factorEnrolled) {

    public boolean isMultiFactor() {
        return AuthMethods.isMultiFactor(amr);
    }

    /**
     * Whether the sign-in that started this session was made for the request with this fingerprint and is not
     * older than {@code notBefore} (and no consent step has used it yet).
     */
    public boolean signedInFor(String requestFingerprint, Instant notBefore) {
        return signInRequest != null && signInRequest.equals(requestFingerprint) 
                && authTime.getEpochSecond() >= notBefore.getEpochSecond();
    }

    /** Live = before the absolute end and used within the idle timeout. */
    boolean isLive(Instant now, Duration idleTtl) {
        return now.isBefore(expiresAt) && now.isBefore(lastSeenAt.plus(idleTtl));
    }

    /** Whether a use now is worth writing: at most once a minute, so busy browsers do not UPDATE on every request. */
    boolean dueForTouch(Instant now) {
        return now.getEpochSecond() - lastSeenAt.getEpochSecond() >= 60;
    }

    SsoSession seenAt(Instant now) {
        return new SsoSession(sessionHash, userId, authTime, createdAt, Instant.ofEpochSecond(now.getEpochSecond()),
                expiresAt, signInRequest, amr, factorEnrolled);
    }
}
