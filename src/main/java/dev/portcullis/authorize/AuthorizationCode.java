package dev.portcullis.authorize;

import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * An issued authorization code (a row of authorization_codes, owned by {@link AuthorizationCodeRepository}), stored by its id
 * and the hash of its secret ({@link dev.portcullis.crypto.SplitToken}) and bound to everything the token endpoint
 * must check: client, redirect URI, user, granted scope, nonce, PKCE challenge, auth_time and the
 * sign-in's methods ({@code amr}, for the ID token). It is redeemed once by
 * {@link AuthorizationCodeRepository#markRedeemed}, a single conditional UPDATE. {@code codeId} is the id part of the code
 * (the hash of the whole value for codes issued before V3, whose {@code secretHash} is null);
 * {@code redirectUriGiven} says whether the authorization request carried redirect_uri (then the token request must
 * repeat it, RFC 6749 4.1.3); {@code grantId} is the grant created at redemption, revoked if the code is presented
 * again; {@code resources} are the RFC 8707 resources the request named (API identifiers; empty when none);
 * {@code sid} the SSO session's {@code sid}, which the grant's ID tokens carry; {@code claims} the request's
 * {@code claims} parameter in its stored form ({@link dev.portcullis.protocol.ClaimsRequest#toJson()}).
 */
public record AuthorizationCode(String codeId, String secretHash, String clientId, String userId, String redirectUri,
                                boolean redirectUriGiven, String scope, Optional<String> nonce,
                                Optional<String> codeChallenge, Optional<String> codeChallengeMethod,
                                Instant authTime, Optional<String> sessionHash, Instant createdAt, Instant expiresAt,
                                Instant redeemedAt, Optional<String> grantId, Set<String> amr,
                                List<String> resources, Optional<String> sid, Optional<String> claims) {

    public AuthorizationCode {
        resources = resources == null ? List.of() : List.copyOf(resources);
        sid = sid == null ? Optional.empty() : sid;
        claims = claims == null ? Optional.empty() : claims;
    }

    /** A code of a request without the {@code claims} parameter. */
    public AuthorizationCode(String codeId, String secretHash, String clientId, String userId, String redirectUri,
                             boolean redirectUriGiven, String scope, Optional<String> nonce,
                             Optional<String> codeChallenge, Optional<String> codeChallengeMethod, Instant authTime,
                             Optional<String> sessionHash, Instant createdAt, Instant expiresAt, Instant redeemedAt,
                             Optional<String> grantId, Set<String> amr, List<String> resources, Optional<String> sid) {
        this(codeId, secretHash, clientId, userId, redirectUri, redirectUriGiven, scope, nonce, codeChallenge,
                codeChallengeMethod, authTime, sessionHash, createdAt, expiresAt, redeemedAt, grantId, amr, resources,
                sid, Optional.empty());
    }

    /** A code of a session without a {@code sid} (started before V18). */
    public AuthorizationCode(String codeId, String secretHash, String clientId, String userId, String redirectUri,
                             boolean redirectUriGiven, String scope, Optional<String> nonce,
                             Optional<String> codeChallenge, Optional<String> codeChallengeMethod, Instant authTime,
                             Optional<String> sessionHash, Instant createdAt, Instant expiresAt, Instant redeemedAt,
                             Optional<String> grantId, Set<String> amr, List<String> resources) {
        this(codeId, secretHash, clientId, userId, redirectUri, redirectUriGiven, scope, nonce, codeChallenge,
                codeChallengeMethod, authTime, sessionHash, createdAt, expiresAt, redeemedAt, grantId, amr, resources,
                Optional.empty());
    }

    /** A code that named no resource. */
    public AuthorizationCode(String codeId, String secretHash, String clientId, String userId, String redirectUri,
                             boolean redirectUriGiven, String scope, Optional<String> nonce,
                             Optional<String> codeChallenge, Optional<String> codeChallengeMethod, Instant authTime,
                             Optional<String> sessionHash, Instant createdAt, Instant expiresAt, Instant redeemedAt,
                             Optional<String> grantId, Set<String> amr) {
        this(codeId, secretHash, clientId, userId, redirectUri, redirectUriGiven, scope, nonce, codeChallenge,
                codeChallengeMethod, authTime, sessionHash, createdAt, expiresAt, redeemedAt, grantId, amr, List.of());
    }

    /**
     * What a code is bound to; built by the authorization endpoint after sign-in and consent, field by field
     * ({@link #builder()}). {@code nonce}, {@code codeChallenge}, {@code codeChallengeMethod}, {@code sessionHash}
     * and {@code sid} may be null.
     */
    public record CodeRequest(String clientId, String userId, String redirectUri, boolean redirectUriGiven,
                              String scope, String nonce, String codeChallenge, String codeChallengeMethod,
                              Instant authTime, String sessionHash, Set<String> amr, List<String> resources,
                              String sid, String claims) {

        /** A request without the {@code claims} parameter. */
        public CodeRequest(String clientId, String userId, String redirectUri, boolean redirectUriGiven,
                           String scope, String nonce, String codeChallenge, String codeChallengeMethod,
                           Instant authTime, String sessionHash, Set<String> amr, List<String> resources,
                           String sid) {
            this(clientId, userId, redirectUri, redirectUriGiven, scope, nonce, codeChallenge, codeChallengeMethod,
                    authTime, sessionHash, amr, resources, sid, null);
        }

        public static Builder builder() {
            return new Builder();
        }

        /** Names each field of a {@link CodeRequest}; {@link #build} refuses to leave out one a code needs. */
        public static final class Builder {
            private String clientId;
            private String userId;
            private String redirectUri;
            private boolean redirectUriGiven;
            private String scope;
            private String nonce;
            private String codeChallenge;
            private String codeChallengeMethod;
            private Instant authTime;
            private String sessionHash;
            private Set<String> amr;
            private List<String> resources = List.of();
            private String sid;
            private String claims;

            private Builder() {
            }

            public Builder clientId(String clientId) {
                this.clientId = clientId;
                return this;
            }

            public Builder userId(String userId) {
                this.userId = userId;
                return this;
            }

            public Builder redirectUri(String redirectUri) {
                this.redirectUri = redirectUri;
                return this;
            }

            /** Whether the authorization request carried redirect_uri (then the token request must repeat it). */
            public Builder redirectUriGiven(boolean redirectUriGiven) {
                this.redirectUriGiven = redirectUriGiven;
                return this;
            }

            public Builder scope(String scope) {
                this.scope = scope;
                return this;
            }

            public Builder nonce(String nonce) {
                this.nonce = nonce;
                return this;
            }

            public Builder codeChallenge(String codeChallenge) {
                this.codeChallenge = codeChallenge;
                return this;
            }

            public Builder codeChallengeMethod(String codeChallengeMethod) {
                this.codeChallengeMethod = codeChallengeMethod;
                return this;
            }

            /** When the user signed in (OIDC auth_time). */
            public Builder authTime(Instant authTime) {
                this.authTime = authTime;
                return this;
            }

            public Builder sessionHash(String sessionHash) {
                this.sessionHash = sessionHash;
                return this;
            }

            /** The sign-in's methods ({@code amr}), in their order. */
            public Builder amr(Set<String> amr) {
                this.amr = amr;
                return this;
            }

            /** The RFC 8707 resources the request named (checked API identifiers). */
            public Builder resources(List<String> resources) {
                this.resources = List.copyOf(resources);
                return this;
            }

            /** The SSO session's {@code sid} (null for a session started before V18). */
            public Builder sid(String sid) {
                this.sid = sid;
                return this;
            }

            /** The {@code claims} parameter in its stored form (null: none). */
            public Builder claims(String claims) {
                this.claims = claims;
                return this;
            }

            public CodeRequest build() {
                return new CodeRequest(Objects.requireNonNull(clientId, "clientId"),
                        Objects.requireNonNull(userId, "userId"), Objects.requireNonNull(redirectUri, "redirectUri"),
                        redirectUriGiven, Objects.requireNonNull(scope, "scope"), nonce, codeChallenge,
                        codeChallengeMethod, Objects.requireNonNull(authTime, "authTime"), sessionHash,
                        Objects.requireNonNull(amr, "amr"), resources, sid, claims);
            }
        }
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
