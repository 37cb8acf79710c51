package dev.portcullis.authorize;

import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.util.JSONObjectUtils;
import com.nimbusds.jwt.EncryptedJWT;
import com.nimbusds.jwt.JWT;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.JWTParser;
import com.nimbusds.jwt.SignedJWT;
import dev.portcullis.client.Client;
import dev.portcullis.config.IssuerSettings;
import dev.portcullis.protocol.OAuthError;
import dev.portcullis.protocol.OAuthException;
import dev.portcullis.protocol.ProtocolParameters;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.core.MultivaluedHashMap;
import jakarta.ws.rs.core.MultivaluedMap;
import java.text.ParseException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.logging.Logger;

/**
 * Verifies a request object (RFC 9101, the {@code request} parameter at the authorization endpoint and at
 * {@code /oauth/par}) sent with {@code client_id} {@code client}: a JWS signed with RS256, PS256 or ES256 by one of
 * the client's registered keys ({@link ClientSignatureCheck}: the keys and fetch rules of {@code private_key_jwt}),
 * no critical header, {@code typ} absent, {@code JWT} or {@code oauth-authz-req+jwt} (RFC 9101 10.8); {@code iss} and
 * {@code client_id} the client's id (6.3); {@code aud} the issuer identifier alone; {@code exp} present, not past and
 * at most {@link #MAX_LIFETIME} ahead; {@code nbf}, when present, neither in the future nor more than
 * {@link #MAX_LIFETIME} past; {@code iat}, when present, not in the future; clocks may differ by {@link #SKEW}. The
 * request's parameters are then the object's claims alone (6.3): JWT claims are not parameters, a string is the
 * value, a whole number its digits, {@code claims} an object, {@code resource} a string or an array of them; a
 * {@code request} or {@code request_uri} inside is refused (4). Every refusal is {@code invalid_request_object}.
 */
@ApplicationScoped
public class RequestObjectVerifier {

    private static final Logger LOG = Logger.getLogger(RequestObjectVerifier.class.getName());

    public static final List<JWSAlgorithm> ALGORITHMS = List.of(JWSAlgorithm.RS256, JWSAlgorithm.PS256,
            JWSAlgorithm.ES256);
    /** How far ahead {@code exp} may lie (FAPI's bound): an object is made for one request, not kept. */
    public static final Duration MAX_LIFETIME = Duration.ofMinutes(60);
    /** The clock difference tolerated between the client and this server. */
    public static final Duration SKEW = Duration.ofSeconds(30);
    static final int MAX_JTI = 256;

    /** RFC 9101 10.8's explicit type, and the plain ones clients send. */
    private static final Set<JOSEObjectType> TYPES = Set.of(new JOSEObjectType("oauth-authz-req+jwt"),
            JOSEObjectType.JWT);
    /** JWT claims that say something about the object, not about the authorization request. */
    private static final Set<String> OBJECT_CLAIMS = Set.of("iss", "aud", "exp", "nbf", "iat", "jti", "sub");

    @Inject
    ClientSignatureCheck signatures;

    @Inject
    IssuerSettings issuer;

    @Inject
    Clock clock;

    /**
     * The verified object's parameters, with {@code client_id}.
     *
     * @throws OAuthException {@code invalid_request_object} saying why
     */
    public RequestObject verify(Client client, String requestObject) {
        JWT jwt;
        try {
            jwt = JWTParser.parse(requestObject);
        } catch (ParseException | RuntimeException e) {
            throw refused("the request object is not a JWT");
        }
        if (jwt instanceof EncryptedJWT) {
            throw refused("encrypted request objects are not supported");
        }
        if (!(jwt instanceof SignedJWT signed)) {
            throw refused("the request object must be signed (alg none is refused)");
        }
        JWSHeader header = signed.getHeader();
        if (!ALGORITHMS.contains(header.getAlgorithm())) {
            throw refused("the request object must be signed with RS256, PS256 or ES256");
        }
        if (header.getCriticalParams() != null && !header.getCriticalParams().isEmpty()) {
            throw refused("the request object has critical header parameters this server does not understand");
        }
        if (header.getType() != null && !TYPES.contains(header.getType())) {
            throw refused("the request object's typ must be oauth-authz-req+jwt or JWT");
        }
        try {
            signatures.verify(client, signed);
        } catch (ClientSignatureCheck.NotSignedByClient e) {
            if (e.detail() != null) {
                LOG.fine(() -> "Request object of " + client.clientId() + ": " + e.detail());
            }
            throw refused("the request object is not signed by the client: " + e.getMessage());
        }
        JWTClaimsSet claims;
        try {
            claims = signed.getJWTClaimsSet();
        } catch (ParseException e) {
            throw refused("the request object's payload is not a JSON object");
        }
        checkClaims(client.clientId(), claims);
        return new RequestObject(parameters(claims), claims.getJWTID(), claims.getExpirationTime().toInstant());
    }

    private void checkClaims(String clientId, JWTClaimsSet claims) {
        if (!clientId.equals(claims.getIssuer())) {
            throw refused("the request object's iss must be the client_id");
        }
        if (!clientId.equals(claims.getClaim("client_id"))) {
            throw refused("the request object's client_id must be the client_id of the request");
        }
        List<String> aud = claims.getAudience();
        if (aud == null || aud.size() != 1 || !aud.get(0).equals(issuer.issuerString())) {
            throw refused("the request object's aud must be the issuer identifier " + issuer.issuerString()
                    + ", and nothing else");
        }
        Instant now = clock.instant();
        Date exp = claims.getExpirationTime();
        if (exp == null) {
            throw refused("the request object must have exp");
        }
        if (!exp.toInstant().isAfter(now.minus(SKEW))) {
            throw refused("the request object has expired");
        }
        if (exp.toInstant().isAfter(now.plus(MAX_LIFETIME).plus(SKEW))) {
            throw refused("the request object's exp may lie at most " + MAX_LIFETIME.toMinutes() + " minutes ahead");
        }
        Date nbf = claims.getNotBeforeTime();
        if (nbf != null && nbf.toInstant().isAfter(now.plus(SKEW))) {
            throw refused("the request object is not valid yet (nbf)");
        }
        if (nbf != null && nbf.toInstant().isBefore(now.minus(MAX_LIFETIME).minus(SKEW))) {
            throw refused("the request object's nbf lies more than " + MAX_LIFETIME.toMinutes() + " minutes past");
        }
        Date iat = claims.getIssueTime();
        if (iat != null && iat.toInstant().isAfter(now.plus(SKEW))) {
            throw refused("the request object's iat lies in the future");
        }
        String jti = claims.getJWTID();
        if (jti != null && (jti.isEmpty() || jti.length() > MAX_JTI)) {
            throw refused("the request object's jti must be 1 to " + MAX_JTI + " characters");
        }
    }

    /** The authorization request's parameters: the object's claims that are parameters, as the query would carry them. */
    static ProtocolParameters parameters(JWTClaimsSet claims) {
        MultivaluedMap<String, String> out = new MultivaluedHashMap<>();
        for (Map.Entry<String, Object> claim : claims.getClaims().entrySet()) {
            String name = claim.getKey();
            if (name.equals("request") || name.equals("request_uri")) {
                throw refused("a request object must not contain " + name + " (RFC 9101 4)");
            }
            if (OBJECT_CLAIMS.contains(name)
                    || !AuthorizationRequest.PARAMETER_NAMES.contains(name) && !name.equals("resource")) {
                continue; // not an authorization parameter: ignored, as an unknown query parameter is
            }
            Object value = claim.getValue();
            if (name.equals("resource") && value instanceof List<?> list) {
                for (Object v : list) {
                    out.add(name, stringValue(name, v));
                }
            } else if (name.equals("claims") && value instanceof Map<?, ?> map) {
                out.add(name, json(map));
            } else {
                out.add(name, stringValue(name, value));
            }
        }
        try {
            return ProtocolParameters.of(out);
        } catch (OAuthException e) {
            throw refused("the request object's parameters: " + e.description());
        }
    }

    private static String stringValue(String name, Object value) {
        if (value instanceof String s) {
            return s;
        }
        if ((value instanceof Long || value instanceof Integer) && ((Number) value).longValue() >= 0) {
            return value.toString();
        }
        throw refused("the request object's " + name + " must be a string");
    }

    private static String json(Map<?, ?> map) {
        try {
            @SuppressWarnings("unchecked")
            Map<String, ?> m = (Map<String, ?>) map;
            return JSONObjectUtils.toJSONString(m);
        } catch (RuntimeException e) {
            throw refused("the request object's claims must be a JSON object");
        }
    }

    private static OAuthException refused(String why) {
        return new OAuthException(OAuthError.INVALID_REQUEST_OBJECT, why);
    }
}
