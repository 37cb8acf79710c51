package dev.portcullis.token;

import dev.portcullis.crypto.Secrets;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.time.Instant;
import java.util.Optional;

/**
 * The server-side record of an issued JWT access token, by its {@code jti}: what makes a self-contained token
 * revocable and introspectable. The token itself is never stored, only its hash.
 */
@Entity
@Table(name = "access_tokens")
public class AccessTokenRecord {

    @Id
    private String jti;

    @Column(name = "grant_id")
    private String grantId;

    private String scope;

    @Column(name = "created_at")
    private long createdAt;

    @Column(name = "expires_at")
    private long expiresAt;

    @Column(name = "revoked_at")
    private Long revokedAt;

    @Column(name = "token_hash")
    private String tokenHash;

    protected AccessTokenRecord() {
    }

    AccessTokenRecord(String jti, String grantId, String scope, Instant now, Instant expiresAt, String token) {
        this.jti = jti;
        this.tokenHash = Secrets.hash(token);
        this.grantId = grantId;
        this.scope = scope;
        this.createdAt = now.getEpochSecond();
        this.expiresAt = expiresAt.getEpochSecond();
    }

    /** A row read back by {@link TokenGrants}. */
    AccessTokenRecord(String jti, String grantId, String scope, long createdAt, long expiresAt, Long revokedAt,
                      String tokenHash) {
        this.jti = jti;
        this.grantId = grantId;
        this.scope = scope;
        this.createdAt = createdAt;
        this.expiresAt = expiresAt;
        this.revokedAt = revokedAt;
        this.tokenHash = tokenHash;
    }

    /** The stored SHA-256 of the token (null for tokens recorded before V2). */
    String tokenHash() {
        return tokenHash;
    }

    public String jti() {
        return jti;
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

    /**
     * Whether {@code token} is exactly the token this record was written for (constant-time hash comparison);
     * empty for records written before hashes were kept.
     */
    public Optional<Boolean> isExactly(String token) {
        return tokenHash == null ? Optional.empty() : Optional.of(Secrets.matchesHash(token, tokenHash));
    }

    public boolean isRevoked() {
        return revokedAt != null;
    }
}
