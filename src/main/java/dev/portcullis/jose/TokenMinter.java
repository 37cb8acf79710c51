package dev.portcullis.jose;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import dev.portcullis.config.IssuerSettings;
import dev.portcullis.config.TokenSettings;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Arrays;
import java.util.Base64;
import java.util.Date;
import java.util.List;
import java.util.Map;

/**
 * Builds and signs the JWTs this issuer hands out: RFC 9068 access tokens ({@code typ: at+jwt}, signed with their
 * API's algorithm or else {@code portcullis.access-token.signing-alg}) and OpenID Connect ID tokens (RS256). Claims only; what goes into them is
 * decided by the grant classes.
 */
@ApplicationScoped
public class TokenMinter {

    /** The JWT {@code typ} of access tokens (RFC 9068 2.1). */
    public static final JOSEObjectType AT_JWT = new JOSEObjectType("at+jwt");

    /** The JWT {@code typ} of logout tokens (OIDC Back-Channel Logout 1.0 sec. 2.4). */
    public static final JOSEObjectType LOGOUT_JWT = new JOSEObjectType("logout+jwt");

    /** The one event a logout token states (Back-Channel Logout 1.0 sec. 2.4). */
    public static final String BACKCHANNEL_LOGOUT_EVENT = "http://schemas.openid.net/event/backchannel-logout";

    @Inject
    SigningKeyService keys;

    @Inject
    IssuerSettings issuer;

    @Inject
    TokenSettings tokenSettings;

    /**
     * What an access token says. {@code jti} must already be recorded (or be recorded in the same transaction);
     * {@code authTime} is null for a token without a user (client credentials), which then has no auth_time;
     * {@code audience} is its {@code aud} (the APIs it is for); {@code groups} is null unless scope {@code groups}
     * releases the user's groups (RFC 9068 2.2.3.1), which MicroProfile JWT and Jakarta Security backends map to
     * roles; {@code signingAlg} is null for {@code portcullis.access-token.signing-alg}, else one of
     * {@link SigningKeyService#ALGORITHMS}; {@code act} is the RFC 8693 4.1 actor claim of an exchanged token (who acts
     * for the subject, nested for a chain), null for every other token; {@code typ} the header typ its APIs chose
     * ({@code at+jwt} or {@code JWT}), null for {@code at+jwt}; {@code jkt} the thumbprint of the DPoP key the token is
     * bound to ({@code cnf.jkt}, RFC 9449 6.1), null for a bearer token.
     */
    public record AccessTokenClaims(String jti, String subject, String clientId, String scope, Instant authTime,
                                    Instant issuedAt, Instant expiresAt, List<String> audience, List<String> groups,
                                    JWSAlgorithm signingAlg, Map<String, Object> act, String typ, String jkt) {

        /** A token not bound to a DPoP key. */
        public AccessTokenClaims(String jti, String subject, String clientId, String scope, Instant authTime,
                                 Instant issuedAt, Instant expiresAt, List<String> audience, List<String> groups,
                                 JWSAlgorithm signingAlg, Map<String, Object> act, String typ) {
            this(jti, subject, clientId, scope, authTime, issuedAt, expiresAt, audience, groups, signingAlg, act, typ,
                    null);
        }

        /** A token typed {@code at+jwt}. */
        public AccessTokenClaims(String jti, String subject, String clientId, String scope, Instant authTime,
                                 Instant issuedAt, Instant expiresAt, List<String> audience, List<String> groups,
                                 JWSAlgorithm signingAlg, Map<String, Object> act) {
            this(jti, subject, clientId, scope, authTime, issuedAt, expiresAt, audience, groups, signingAlg, act, null);
        }

        /** A token nobody acts in: every grant but token exchange. */
        public AccessTokenClaims(String jti, String subject, String clientId, String scope, Instant authTime,
                                 Instant issuedAt, Instant expiresAt, List<String> audience, List<String> groups,
                                 JWSAlgorithm signingAlg) {
            this(jti, subject, clientId, scope, authTime, issuedAt, expiresAt, audience, groups, signingAlg, null);
        }
    }

    /**
     * What an ID token says beyond the fixed claims: how the user signed in (RFC 8176 {@code amr}, {@code acr}) and
     * the user claims its scope allows (profile, email); {@code sid} the SSO session's (OIDC Back-Channel Logout 1.0
     * sec. 2.1), null when the session has none.
     */
    public record IdTokenClaims(String subject, String clientId, Instant authTime, List<String> amr, String acr,
                                String nonce, String accessToken, Instant issuedAt, Instant expiresAt,
                                Map<String, Object> userClaims, String sid) {
    }

    /**
     * What a logout token says: the user ({@code subject}, the {@code sub} of the client's ID tokens), the SSO
     * session's {@code sid} (null for a session without one), the client it is for and its own {@code jti}.
     */
    public record LogoutTokenClaims(String jti, String subject, String clientId, String sid, Instant issuedAt,
                                    Instant expiresAt) {
    }

    /**
     * A Back-Channel Logout 1.0 logout token (sec. 2.4): {@code typ: logout+jwt}, signed as ID tokens are (RS256),
     * with the backchannel-logout event and never a {@code nonce}.
     */
    public String logoutToken(LogoutTokenClaims c) {
        JWTClaimsSet.Builder b = new JWTClaimsSet.Builder()
                .issuer(issuer.issuerString())
                .subject(c.subject())
                .audience(c.clientId())
                .issueTime(Date.from(c.issuedAt()))
                .expirationTime(Date.from(c.expiresAt()))
                .jwtID(c.jti())
                .claim("events", Map.of(BACKCHANNEL_LOGOUT_EVENT, Map.of()));
        if (c.sid() != null) {
            b.claim("sid", c.sid());
        }
        return sign(JWSAlgorithm.RS256, LOGOUT_JWT, b.build());
    }

    public String accessToken(AccessTokenClaims c) {
        JWTClaimsSet.Builder b = new JWTClaimsSet.Builder()
                .issuer(issuer.issuerString())
                .subject(c.subject())
                .audience(c.audience())
                .claim("client_id", c.clientId())
                .claim("scope", c.scope());
        if (c.authTime() != null) {
            b.claim("auth_time", c.authTime().getEpochSecond());
        }
        if (c.groups() != null) {
            b.claim("groups", c.groups());
        }
        if (c.act() != null) {
            b.claim("act", c.act());
        }
        if (c.jkt() != null) {
            b.claim("cnf", Map.of("jkt", c.jkt())); // RFC 9449 6.1: bound to the DPoP key with this thumbprint
        }
        JWTClaimsSet claims = b.issueTime(Date.from(c.issuedAt()))
                .expirationTime(Date.from(c.expiresAt()))
                .jwtID(c.jti())
                .build();
        JWSAlgorithm alg = c.signingAlg() != null ? c.signingAlg()
                : JWSAlgorithm.parse(tokenSettings.accessTokenSigningAlg());
        if (!SigningKeyService.ALGORITHMS.contains(alg)) {
            throw new IllegalArgumentException("No signing key is kept for " + alg);
        }
        return sign(alg, c.typ() == null || c.typ().equals(AT_JWT.getType()) ? AT_JWT : JOSEObjectType.JWT, claims);
    }

    public String idToken(IdTokenClaims c) {
        JWTClaimsSet.Builder b = new JWTClaimsSet.Builder()
                .issuer(issuer.issuerString())
                .subject(c.subject())
                .audience(c.clientId())
                .claim("azp", c.clientId())
                .claim("auth_time", c.authTime().getEpochSecond())
                .claim("amr", c.amr())
                .claim("acr", c.acr())
                .issueTime(Date.from(c.issuedAt()))
                .expirationTime(Date.from(c.expiresAt()))
                .claim("at_hash", accessTokenHash(c.accessToken()));
        if (c.nonce() != null) {
            b.claim("nonce", c.nonce());
        }
        if (c.sid() != null) {
            b.claim("sid", c.sid());
        }
        c.userClaims().forEach(b::claim);
        return sign(JWSAlgorithm.RS256, JOSEObjectType.JWT, b.build());
    }

    /** OIDC Core 3.1.3.6: base64url of the left half of SHA-256 (RS256) of the access token's ASCII bytes. */
    static String accessTokenHash(String accessToken) {
        byte[] digest = dev.portcullis.crypto.Secrets.sha256(accessToken.getBytes(StandardCharsets.US_ASCII));
        return Base64.getUrlEncoder().withoutPadding().encodeToString(Arrays.copyOf(digest, digest.length / 2));
    }

    private String sign(JWSAlgorithm alg, JOSEObjectType typ, JWTClaimsSet claims) {
        SigningKeyService.ActiveKey key = keys.signingKey(alg);
        SignedJWT jwt = new SignedJWT(new JWSHeader.Builder(alg).type(typ).keyID(key.kid()).build(), claims);
        try {
            jwt.sign(key.signer());
        } catch (JOSEException e) {
            throw new IllegalStateException("Signing with key " + key.kid() + " failed", e);
        }
        return jwt.serialize();
    }
}
