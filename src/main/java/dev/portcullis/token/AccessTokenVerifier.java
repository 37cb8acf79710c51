package dev.portcullis.token;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSVerifier;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import dev.portcullis.client.Scopes;
import dev.portcullis.config.IssuerSettings;
import dev.portcullis.config.TokenSettings;
import dev.portcullis.jose.SigningKeyService;
import dev.portcullis.jose.TokenMinter;
import dev.portcullis.persistence.Jdbc;
import dev.portcullis.protocol.ClaimsRequest;
import dev.portcullis.protocol.OAuthError;
import dev.portcullis.protocol.OAuthException;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.text.ParseException;
import java.time.Clock;
import java.time.Instant;
import java.util.Date;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Validation of this issuer's access tokens for its own resource endpoints (userinfo, /api, introspection):
 * <ol>
 * <li>JWS: header {@code typ: at+jwt} ({@code JWT} for an API that chose it, and then only for a token whose
 * exact hash its row holds, so no other JWT of this issuer passes for one), one of the algorithms this issuer keeps keys for
 * ({@link SigningKeyService#ALGORITHMS}: any of them may sign, by setting or per API), a {@code kid} this issuer publishes
 * for that algorithm, a valid signature ({@link SigningKeyService#verifier}; keys parsed once, cached);</li>
 * <li>claims: {@code iss} is this issuer, {@code aud} contains {@code portcullis.access-token.audience} (for
 * Portcullis's own resource endpoints; introspection and revocation accept a registered API's audience too,
 * {@link #checkAnyAudience}), {@code exp} in the future;</li>
 * <li>revocation: the {@code access_tokens} row by {@code jti}, joined with its grant, is neither revoked nor
 * expired (one primary-key query, {@link TokenGrantRepository#accessTokenStatus}).</li>
 * </ol>
 * Any failure is {@code invalid_token} (401, RFC 6750 3.1) without saying which check failed. A database error is
 * not a verdict on the token: it propagates (503 {@code temporarily_unavailable} at the edge).
 */
@ApplicationScoped
public class AccessTokenVerifier {

    @Inject
    SigningKeyService keys;

    @Inject
    TokenGrantRepository grants;

    @Inject
    IssuerSettings issuer;

    @Inject
    TokenSettings tokenSettings;

    @Inject
    Clock clock;

    /**
     * What a valid access token grants. {@code userId} is null for a token without a user (client credentials),
     * whose {@code subject} is the client id; {@code dpopJkt} the thumbprint of the DPoP key it is bound to (its
     * {@code cnf.jkt}), null for a bearer token.
     */
    public record VerifiedAccessToken(String jti, String subject, String clientId, Set<String> scopes,
                                      Instant expiresAt, String grantId, String userId, List<String> audience,
                                      ClaimsRequest claims, String dpopJkt) {

        /** A bearer token. */
        public VerifiedAccessToken(String jti, String subject, String clientId, Set<String> scopes,
                                   Instant expiresAt, String grantId, String userId, List<String> audience,
                                   ClaimsRequest claims) {
            this(jti, subject, clientId, scopes, expiresAt, grantId, userId, audience, claims, null);
        }

        /** A token whose grant's request had no {@code claims} parameter. */
        public VerifiedAccessToken(String jti, String subject, String clientId, Set<String> scopes,
                                   Instant expiresAt, String grantId, String userId, List<String> audience) {
            this(jti, subject, clientId, scopes, expiresAt, grantId, userId, audience, ClaimsRequest.NONE);
        }

        /** Whether the token is bound to a DPoP key, so that only a request with a proof by that key may use it. */
        public boolean isDpopBound() {
            return dpopJkt != null;
        }

        /** Whether a user granted this token, so that user endpoints may answer about them. */
        public boolean hasUser() {
            return userId != null;
        }
    }

    public VerifiedAccessToken verify(String token) {
        return check(token).orElseThrow(() -> new OAuthException(OAuthError.INVALID_TOKEN,
                "The access token is invalid, expired or revoked", 401, "Bearer error=\"invalid_token\""));
    }

    /**
     * Empty when the token is not (or no longer) valid for Portcullis's own resource endpoints; a database error is
     * thrown, never read as "invalid".
     */
    public Optional<VerifiedAccessToken> check(String token) {
        return check(token, true);
    }

    /**
     * As {@link #check(String)}, for whatever API the token was issued: introspection and revocation answer about
     * every token this issuer signed, and a registered API's token does not name Portcullis's own audience.
     */
    public Optional<VerifiedAccessToken> checkAnyAudience(String token) {
        return check(token, false);
    }

    private Optional<VerifiedAccessToken> check(String token, boolean ownAudienceOnly) {
        if (token == null || token.isEmpty() || token.length() > 8192) {
            return Optional.empty();
        }
        try {
            SignedJWT jwt = SignedJWT.parse(token);
            JWSAlgorithm alg = jwt.getHeader().getAlgorithm();
            boolean plainTyp = JOSEObjectType.JWT.equals(jwt.getHeader().getType());
            if (!TokenMinter.AT_JWT.equals(jwt.getHeader().getType()) && !plainTyp
                    || !SigningKeyService.ALGORITHMS.contains(alg)) {
                return Optional.empty();
            }
            JWTClaimsSet claims = jwt.getJWTClaimsSet();
            Optional<TokenGrantRepository.AccessTokenStatus> status = grants.accessTokenStatus(claims.getJWTID());
            if (status.isEmpty()) {
                return Optional.empty();
            }
            // The record holds the hash of the exact token we issued under this jti: a match proves integrity as
            // well as the signature would, for one SHA-256 instead of a verification (ES256: ~2 ms on the JDK, RS256 and PS256 less).
            Optional<Boolean> exact = status.get().token().isExactly(token);
            if (exact.isPresent() ? !exact.get() : plainTyp || !signatureValid(jwt, alg)) {
                return Optional.empty();
            }
            Instant now = clock.instant();
            Date exp = claims.getExpirationTime();
            if (!issuer.issuerString().equals(claims.getIssuer()) || claims.getAudience() == null
                    || claims.getAudience().isEmpty() || ownAudienceOnly
                    && !claims.getAudience().contains(tokenSettings.accessTokenAudience()) || exp == null
                    || !now.isBefore(exp.toInstant())) {
                return Optional.empty();
            }
            String jkt = jkt(claims);
            return status.filter(s -> s.isActive(now))
                    .map(s -> new VerifiedAccessToken(s.token().jti(), claims.getSubject(),
                            s.grant().clientId(), Scopes.parse(s.token().scope()), s.token().expiresAt(),
                            s.grant().grantId(), s.grant().userId(), List.copyOf(claims.getAudience()),
                            s.grant().claimsRequest(), jkt));
        } catch (ParseException | JOSEException e) {
            return Optional.empty();
        } catch (RuntimeException e) {
            if (Jdbc.isDatabaseFailure(e)) {
                // The database, not the token: the caller answers 503 and the client keeps its token. Saying
                // invalid_token here would make clients discard good tokens during an outage.
                throw e;
            }
            return Optional.empty();
        }
    }

    /** The {@code cnf.jkt} of a DPoP-bound token (RFC 9449 6.1), null for a bearer token. */
    private static String jkt(JWTClaimsSet claims) throws ParseException {
        Map<String, Object> cnf = claims.getJSONObjectClaim("cnf");
        return cnf != null && cnf.get("jkt") instanceof String jkt ? jkt : null;
    }

    /** Signature check for tokens recorded before token hashes were kept. */
    private boolean signatureValid(SignedJWT jwt, JWSAlgorithm alg) throws JOSEException {
        Optional<JWSVerifier> verifier = keys.verifier(jwt.getHeader().getKeyID(), alg);
        return verifier.isPresent() && jwt.verify(verifier.get());
    }
}
