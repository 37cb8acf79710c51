package dev.portcullis.token;

import java.time.Instant;

/**
 * A refresh token (a row of refresh_tokens, owned by {@link TokenGrantRepository}), stored by its id and the hash of its
 * 256-bit secret ({@link dev.portcullis.crypto.SplitToken}). Used once: rotation sets {@code used_at} with a
 * conditional UPDATE; presenting a used one again is reuse and revokes the whole grant (RFC 9700 4.14.2).
 * {@code tokenId} is the id part of the token (the hash of the whole value for tokens issued before V3), when
 * {@code secretHash} is null.
 */
public record RefreshToken(String tokenId, String secretHash, String grantId, String scope, Instant createdAt,
                           Instant expiresAt, Instant usedAt) {

    public boolean isExpired(Instant now) {
        return !now.isBefore(expiresAt);
    }

    public boolean isUsed() {
        return usedAt != null;
    }

    @Override
    public String toString() {
        return "RefreshToken[tokenId=" + tokenId + ", grantId=" + grantId + "]";
    }
}
