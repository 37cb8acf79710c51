package dev.portcullis.token;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.time.Instant;

/**
 * A refresh token, stored by its id and the hash of its 256-bit secret ({@link dev.portcullis.crypto.SplitToken}).
 * Used once: rotation sets {@code used_at} with a conditional UPDATE; presenting a used one again is reuse and
 * revokes the whole grant (RFC 9700 4.14.2).
 */
@Entity
@Table(name = "refresh_tokens")
public class RefreshToken {

    @Id
    @Column(name = "token_id")
    private String tokenId;

    @Column(name = "secret_hash")
    private String secretHash;

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

    /** A row read back by {@link TokenGrants}. */
    RefreshToken(String tokenId, String secretHash, String grantId, String scope, long createdAt, long expiresAt,
                 Long usedAt) {
        this.tokenId = tokenId;
        this.secretHash = secretHash;
        this.grantId = grantId;
        this.scope = scope;
        this.createdAt = createdAt;
        this.expiresAt = expiresAt;
        this.usedAt = usedAt;
    }

    /** The row's key: the id part of the token (the hash of the whole value for tokens issued before V3). */
    public String tokenId() {
        return tokenId;
    }

    /** The hash of the token's secret part; null for tokens issued before V3. */
    String secretHash() {
        return secretHash;
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
