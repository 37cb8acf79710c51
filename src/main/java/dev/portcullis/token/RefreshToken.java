package dev.portcullis.token;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.time.Instant;

/**
 * A refresh token, stored by the hash of its 256-bit value. Used once: rotation sets {@code used_at} with a
 * conditional UPDATE; presenting a used one again is reuse and revokes the whole grant (RFC 9700 4.14.2).
 */
@Entity
@Table(name = "refresh_tokens")
public class RefreshToken {

    @Id
    @Column(name = "token_hash")
    private String tokenHash;

    @Column(name = "grant_id")
    private String grantId;

    private String scope;

    @Column(name = "created_at")
    private long createdAt;

    @Column(name = "expires_at")
    private long expiresAt;

    @Column(name = "used_at")
    private Long usedAt;

    protected RefreshToken() {
    }

    RefreshToken(String tokenHash, String grantId, String scope, Instant now, Instant expiresAt) {
        this.tokenHash = tokenHash;
        this.grantId = grantId;
        this.scope = scope;
        this.createdAt = now.getEpochSecond();
        this.expiresAt = expiresAt.getEpochSecond();
    }

    /** A row read back by {@link TokenGrants}. */
    RefreshToken(String tokenHash, String grantId, String scope, long createdAt, long expiresAt, Long usedAt) {
        this.tokenHash = tokenHash;
        this.grantId = grantId;
        this.scope = scope;
        this.createdAt = createdAt;
        this.expiresAt = expiresAt;
        this.usedAt = usedAt;
    }

    public String tokenHash() {
        return tokenHash;
    }

    public String grantId() {
        return grantId;
    }

    public String scope() {
        return scope;
    }

    public Instant createdAt() {
        return Instant.ofEpochSecond(createdAt);
    }

    public Instant expiresAt() {
        return Instant.ofEpochSecond(expiresAt);
    }

    public boolean isExpired(Instant now) {
        return now.getEpochSecond() >= expiresAt;
    }

    public boolean isUsed() {
        return usedAt != null;
    }
}
