package dev.portcullis.authorize;

import java.time.Instant;
import java.util.Optional;

/**
 * An issued authorization code (a row of authorization_codes, owned by {@link AuthorizationCodes}), stored by its id
 * and the hash of its secret ({@link dev.portcullis.crypto.SplitToken}) and bound to everything the token endpoint
 * must check: client, redirect URI, user, granted scope, nonce, PKCE challenge, auth_time and the
 * sign-in's methods ({@code amr}, for the ID token). It is redeemed once by
 * {@link AuthorizationCodes#markRedeemed}, a single conditional UPDATE. {@code codeId} is the id part of the code
 * (the hash of the whole value for codes issued before V3, whose {@code secretHash} is null);
 * {@code redirectUriGiven} says whether the authorization request carried redirect_uri (then the token request must
 * repeat it, RFC 6749 4.1.3); {@code grantId} is the grant created at redemption, revoked if the code is presented
 * again.
 */
public record AuthorizationCode(String codeId, String secretHash, String clientId, String userId, String redirectUri,
                                boolean redirectUriGiven, String scope, Optional<String> nonce,
                                Optional<String> codeChallenge, Optional<String> codeChallengeMethod,
                                Instant authTime, Optional<String> sessionHash, Instant createdAt, Instant expiresAt,
                                Instant redeemedAt, Optional<String> grantId, String amr) {

    /** What a code is bound to; built by the authorization endpoint after sign-in and consent. */
    public record CodeRequest(String clientId, String userId, String redirectUri, boolean redirectUriGiven,
                              String scope, String nonce, String codeChallenge, String codeChallengeMethod,
                              Instant authTime, String sessionHash, String amr) {
    }

    public boolean isExpired(Instant now) {
        return !now.isBefore(expiresAt);
    }

    public boolean isRedeemed() {
        return redeemedAt != null;
    }

    @Override
    public String toString() {
        return "AuthorizationCode[codeId=" + codeId + ", clientId=" + clientId + "]";
    }
}
