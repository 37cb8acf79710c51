package dev.portcullis.tokenuse;

import dev.portcullis.account.User;
import dev.portcullis.account.UserRepository;
import dev.portcullis.client.Scopes;
import dev.portcullis.config.IssuerSettings;
import dev.portcullis.dpop.DpopProofVerifier;
import dev.portcullis.protocol.JsonSupport;
import dev.portcullis.protocol.OAuthError;
import dev.portcullis.protocol.OAuthException;
import dev.portcullis.protocol.ProtocolParameters;
import dev.portcullis.token.AccessTokenVerifier;
import dev.portcullis.token.AccessTokenVerifier.VerifiedAccessToken;
import dev.portcullis.token.UserClaims;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.json.JsonObjectBuilder;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * {@code GET|POST /oauth/userinfo} (OIDC Core 5.3): the claims about the user of an access token with {@code openid}
 * scope — {@code sub} always, and those its scopes release ({@link UserClaims}). The token
 * comes in the {@code Authorization: Bearer} header ({@code Authorization: DPoP} with a proof for a DPoP-bound
 * token, RFC 9449 7), or — here only, as OIDC Core 5.3.1 allows — as
 * {@code access_token} in a form body; both at once, or in the query string, is invalid_request (RFC 6750 2).
 * Errors per RFC 6750 3, thrown as {@link OAuthException}. The HTTP side is {@code app.UserInfoServlet}: a plain
 * servlet, because relying parties call this endpoint on every request they serve (docs/performance.md).
 */
@ApplicationScoped // one instance: no per-request bean creation or field injection
public class UserInfoEndpoint {

    private static final String FORM = "application/x-www-form-urlencoded";

    @Inject
    AccessTokenVerifier verifier;

    @Inject
    UserRepository users;

    @Inject
    DpopProofVerifier dpop;

    @Inject
    IssuerSettings issuer;

    /**
     * The {@code access_token} of a POST body, if it has one; a non-empty body must be a form (415 otherwise), with
     * no parameter twice.
     */
    public static Optional<String> formToken(String contentType, String body) {
        if (body == null || body.isEmpty()) {
            return Optional.empty();
        }
        String type = contentType == null ? "" : contentType.split(";", 2)[0].trim().toLowerCase(Locale.ROOT);
        if (!type.equals(FORM)) {
            throw new OAuthException(OAuthError.INVALID_REQUEST,
                    "A userinfo request body must be application/x-www-form-urlencoded", 415);
        }
        return ProtocolParameters.fromForm(body).get("access_token");
    }

    /**
     * The one access token of a request: from the {@code Authorization} header or the form body, never both, never
     * the query string ({@code inQuery}: the query names an {@code access_token}).
     */
    public static String presentedToken(String authorization, boolean inQuery, Optional<String> formToken) {
        if (inQuery) {
            throw OAuthException.invalidRequest("Send the access token in the Authorization header, not in the URL");
        }
        Optional<String> headerToken = BearerToken.fromHeader(authorization);
        if (headerToken.isPresent() && formToken.isPresent()) {
            throw new OAuthException(OAuthError.INVALID_REQUEST, "Send the access token one way only", 400,
                    BearerToken.CHALLENGE + ", error=\"invalid_request\"");
        }
        return headerToken.or(() -> formToken).orElseThrow(BearerToken::missing);
    }

    /** The claims answer for a Bearer {@code token} (refused when the token is DPoP-bound), as JSON. */
    public String claims(String token) {
        return claims(DpopPresentation.asBearer(verifier.verify(token)));
    }

    /**
     * The claims answer for a DPoP-bound {@code token} used with one of {@code proofs} for {@code method} at this
     * endpoint (RFC 9449 7), as JSON.
     */
    public String claimsWithProof(String token, List<String> proofs, String method) {
        return claims(DpopPresentation.withProof(verifier.check(token), token, dpop, proofs, method,
                issuer.endpoint("/oauth/userinfo")));
    }

    /**
     * The claims answer for a verified token, as JSON. Two reads, each through its owner: the token's record and
     * grant (JDBC), then the user (JPA, read-only).
     */
    private String claims(VerifiedAccessToken t) {
        if (!t.hasUser()) {
            throw BearerToken.noUser();
        }
        if (!t.scopes().contains(Scopes.OPENID)) {
            throw BearerToken.insufficientScope(Scopes.OPENID);
        }
        // user deleted or disabled meanwhile (disabling also revokes the token; this needs no further read)
        User user = users.findCached(t.subject()).filter(User::enabled).orElseThrow(BearerToken::invalid);
        JsonObjectBuilder claims = JsonSupport.JSON.createObjectBuilder().add("sub", user.userId());
        UserClaims.atUserinfo(user, t.scopes(), t.claims()).forEach((name, value) -> add(claims, name, value));
        return claims.build().toString();
    }

    /** Adds one of the value types {@link UserClaims} gives. */
    static void add(JsonObjectBuilder claims, String name, Object value) {
        if (value instanceof Boolean b) {
            claims.add(name, b);
        } else if (value instanceof Long n) {
            claims.add(name, n);
        } else if (value instanceof List<?> list) {
            claims.add(name, JsonSupport.JSON.createArrayBuilder(list));
        } else if (value instanceof Map<?, ?> map) {
            JsonObjectBuilder members = JsonSupport.JSON.createObjectBuilder();
            map.forEach((k, v) -> members.add((String) k, (String) v));
            claims.add(name, members);
        } else {
            claims.add(name, (String) value);
        }
    }
}
