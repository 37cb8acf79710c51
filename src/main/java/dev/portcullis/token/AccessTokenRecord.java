package dev.portcullis.token;

import dev.portcullis.crypto.Secrets;
import java.time.Instant;
import java.util.Optional;

/**
 * The server-side record of an issued JWT access token, by its {@code jti} (a row of access_tokens, owned by
 * {@link TokenGrantRepository}): what makes a self-contained token revocable and introspectable. The token itself is never
 * stored, only its SHA-256 ({@code tokenHash}, null for tokens recorded before V2).
 */
public record AccessTokenRecord(String jti, String grantId, String scope, Instant createdAt, Instant expiresAt,
                                Instant revokedAt, String tokenHash) {

    /** The record of a token just minted. */
    AccessTokenRecord(String jti, String grantId, String scope, Instant now, Instant expiresAt, String token) {
        this(jti, grantId, scope, Instant.ofEpochSecond(now.getEpochSecond()),
                Instant.ofEpochSecond(expiresAt.getEpochSecond()), null, Secrets.hash(token));
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

    @Override
    public String toString() {
        return "AccessTokenRecord[jti=" + jti + ", grantId=" + grantId + "]";
    }
}
