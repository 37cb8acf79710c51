package dev.portcullis.session;

import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * A browser's single sign-on session (a row of sso_sessions, owned by {@link SsoSessions}). The cookie holds a
 * random id; the row only its hash. {@code authTime} is when the user last entered their password (OIDC auth_time);
 * {@code signInRequest} is the fingerprint of the authorization request that sign-in was made for, until a consent
 * step uses it up (null then). {@code sessionId} names the session to administrators (never the cookie or its hash);
 * {@code ip} is the sign-in's client address; {@code clientIds} the clients it has been used for, space-separated.
 * {@code amr} are the methods used so far ({@link AuthMethods}); {@code factorEnrolled} whether the user had a
 * confirmed second factor when the session began.
 */
public record SsoSession(String sessionHash, String userId, Instant authTime, Instant createdAt, Instant lastSeenAt,
                         Instant expiresAt, String signInRequest, String sessionId, String ip, String clientIds,
                         String amr, boolean factorEnrolled) {

    /** The clients the session has been used for, the sign-in's first. */
    public Set<String> clients() {
        Set<String> out = new LinkedHashSet<>();
        for (String c : clientIds == null ? new String[0] : clientIds.split(" ")) {
            if (!c.isEmpty()) {
                out.add(c);
            }
        }
        return out;
    }

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
                expiresAt, signInRequest, sessionId, ip, clientIds, amr, factorEnrolled);
    }
}
