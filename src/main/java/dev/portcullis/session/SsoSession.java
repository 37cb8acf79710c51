package dev.portcullis.session;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.time.Duration;
import java.time.Instant;

/** A browser's single sign-on session. The cookie holds a random id; this row only its hash. */
@Entity
@Table(name = "sso_sessions")
public class SsoSession {

    @Id
    @Column(name = "session_hash")
    private String sessionHash;

    @Column(name = "user_id")
    private String userId;

    @Column(name = "auth_time")
    private long authTime;

    @Column(name = "created_at")
    private long createdAt;

    @Column(name = "last_seen_at")
    private long lastSeenAt;

    @Column(name = "expires_at")
    private long expiresAt;

    @Column(name = "sign_in_request")
    private String signInRequest;

    protected SsoSession() {
    }

    SsoSession(String sessionHash, String userId, Instant now, Instant expiresAt, String signInRequest) {
        this.sessionHash = sessionHash;
        this.userId = userId;
        this.signInRequest = signInRequest;
        this.authTime = now.getEpochSecond();
        this.createdAt = authTime;
        this.lastSeenAt = authTime;
        this.expiresAt = expiresAt.getEpochSecond();
    }

    /** A row read back by {@link SsoSessions}. */
    SsoSession(String sessionHash, String userId, long authTime, long createdAt, long lastSeenAt, long expiresAt,
               String signInRequest) {
        this.sessionHash = sessionHash;
        this.signInRequest = signInRequest;
        this.userId = userId;
        this.authTime = authTime;
        this.createdAt = createdAt;
        this.lastSeenAt = lastSeenAt;
        this.expiresAt = expiresAt;
    }

    long lastSeenAt() {
        return lastSeenAt;
    }

    long expiresAt() {
        return expiresAt;
    }

    public String sessionHash() {
        return sessionHash;
    }

    public String userId() {
        return userId;
    }

    /** When the user last entered their password (OIDC auth_time). */
    public Instant authTime() {
        return Instant.ofEpochSecond(authTime);
    }

    /**
     * Whether the sign-in that started this session was made for the request with this fingerprint and is not
     * older than {@code notBefore} (and no consent step has used it yet).
     */
    public boolean signedInFor(String requestFingerprint, Instant notBefore) {
        return signInRequest != null && signInRequest.equals(requestFingerprint)
                && authTime >= notBefore.getEpochSecond();
    }

    /** Live = before the absolute end and used within the idle timeout. */
    boolean isLive(Instant now, Duration idleTtl) {
        long t = now.getEpochSecond();
        return t < expiresAt && t < lastSeenAt + idleTtl.getSeconds();
    }

    /** Records use; written at most once a minute so busy browsers do not turn every request into an UPDATE. */
    boolean touch(Instant now) {
        if (now.getEpochSecond() - lastSeenAt < 60) {
            return false;
        }
        lastSeenAt = now.getEpochSecond();
        return true;
    }
}
