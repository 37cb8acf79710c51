package dev.portcullis.token;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.time.Instant;

/**
 * A token family: created when an authorization code is redeemed; every access and refresh token issued from that
 * code (and from its refresh chain) belongs to it. Revoking the grant kills all of them at once.
 */
@Entity
@Table(name = "token_grants")
public class TokenGrant {

    @Id
    @Column(name = "grant_id")
    private String grantId;

    @Column(name = "client_id")
    private String clientId;

    @Column(name = "user_id")
    private String userId;

    private String scope;

    @Column(name = "auth_time")
    private long authTime;

    @Column(name = "created_at")
    private long createdAt;

    @Column(name = "revoked_at")
    private Long revokedAt;

    protected TokenGrant() {
    }

    TokenGrant(String grantId, String clientId, String userId, String scope, Instant authTime, Instant now) {
        this.grantId = grantId;
        this.clientId = clientId;
        this.userId = userId;
        this.scope = scope;
        this.authTime = authTime.getEpochSecond();
        this.createdAt = now.getEpochSecond();
    }

    /** A row read back by {@link TokenGrants}. */
    TokenGrant(String grantId, String clientId, String userId, String scope, long authTime, long createdAt,
               Long revokedAt) {
        this.grantId = grantId;
        this.clientId = clientId;
        this.userId = userId;
        this.scope = scope;
        this.authTime = authTime;
        this.createdAt = createdAt;
        this.revokedAt = revokedAt;
    }

    public String grantId() {
        return grantId;
    }

    public String clientId() {
        return clientId;
    }

    /** The user (OIDC sub). */
    public String userId() {
        return userId;
    }

    /** The scope the user granted; refresh may narrow within it, never widen. */
    public String scope() {
        return scope;
    }

    public Instant authTime() {
        return Instant.ofEpochSecond(authTime);
    }

    public Instant createdAt() {
        return Instant.ofEpochSecond(createdAt);
    }

    public boolean isRevoked() {
        return revokedAt != null;
    }
}
