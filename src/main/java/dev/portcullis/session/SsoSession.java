package dev.portcullis.session;

import java.time.Duration;
import java.time.Instant;
import java.util.Set;

/**
 * A browser's single sign-on session (a row of sso_sessions, owned by {@link SsoSessionRepository}). The cookie holds a
 * random id; the row only its hash. {@code authTime} is when the user last entered their password (OIDC auth_time);
 * {@code signInRequest} is the fingerprint of the authorization request that sign-in was made for, until a consent
 * step uses it up (null then). {@code sessionId} names the session to administrators (never the cookie or its hash);
 * {@code ip} is the sign-in's client address; {@code clients} the ids of the clients it has been used for, the
 * sign-in's first. {@code amr} are the methods used so far, in that order ({@link AuthMethods}); {@code factorEnrolled}
 * whether the user had a confirmed second factor when the session began (or has set one up since). {@code factorAt}
 * is when the session last completed a second factor and {@code passwordAt} when it last re-entered the password on
 * the account page or the sign-in's factor page (null: never); adding or removing a factor needs one of them to be
 * recent ({@link #gaveFactorSince}, {@link #gavePasswordSince}; at sign-in also {@link #signedInWithPasswordSince}).
 * {@code sid} is the session's id for relying parties (the ID tokens' and logout tokens' {@code sid}), random and
 * distinct from the cookie and {@code sessionId}; null for a session started before V18.
 */
public record SsoSession(String sessionHash, String userId, Instant authTime, Instant createdAt, Instant lastSeenAt,
                         Instant expiresAt, String signInRequest, String sessionId, String ip, Set<String> clients,
                         Set<String> amr, boolean factorEnrolled, Instant factorAt, Instant passwordAt,
                         String sid) {

    /** A session without a {@code sid} (started before V18). */
    public SsoSession(String sessionHash, String userId, Instant authTime, Instant createdAt, Instant lastSeenAt,
                      Instant expiresAt, String signInRequest, String sessionId, String ip, Set<String> clients,
                      Set<String> amr, boolean factorEnrolled, Instant factorAt, Instant passwordAt) {
        this(sessionHash, userId, authTime, createdAt, lastSeenAt, expiresAt, signInRequest, sessionId, ip, clients,
                amr, factorEnrolled, factorAt, passwordAt, null);
    }

    public boolean isMultiFactor() {
        return AuthMethods.isMultiFactor(amr);
    }

    /** Whether the session completed a second factor at or after {@code notBefore}. */
    public boolean gaveFactorSince(Instant notBefore) {
        return factorAt != null && factorAt.getEpochSecond() >= notBefore.getEpochSecond();
    }

    /** Whether the session was started by a sign-in with the password at or after {@code notBefore}. */
    public boolean signedInWithPasswordSince(Instant notBefore) {
        return amr.contains(AuthMethods.PWD) && authTime.getEpochSecond() >= notBefore.getEpochSecond();
    }

    /** Whether the session re-entered the password at or after {@code notBefore}. */
    public boolean gavePasswordSince(Instant notBefore) {
        return passwordAt != null && passwordAt.getEpochSecond() >= notBefore.getEpochSecond();
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
                expiresAt, signInRequest, sessionId, ip, clients, amr, factorEnrolled, factorAt, passwordAt, sid);
    }
}
