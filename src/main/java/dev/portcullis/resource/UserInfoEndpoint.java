package dev.portcullis.resource;

import dev.portcullis.account.User;
import dev.portcullis.account.UserRepository;
import dev.portcullis.client.Scopes;
import dev.portcullis.protocol.JsonSupport;
import dev.portcullis.protocol.NoStoreJson;
import dev.portcullis.protocol.OAuthError;
import dev.portcullis.protocol.OAuthException;
import dev.portcullis.protocol.ProtocolParameters;
import dev.portcullis.token.AccessTokenVerifier.VerifiedAccessToken;
import dev.portcullis.token.AccessTokenVerifier;
import dev.portcullis.token.UserClaims;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.json.JsonObjectBuilder;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;
import java.util.List;
import java.util.Optional;

/**
 * {@code GET|POST /oauth/userinfo} (OIDC Core 5.3): the claims about the user of an access token with {@code openid}
 * scope — {@code sub} always; {@code name}, {@code preferred_username} with {@code profile}; {@code email},
 * {@code email_verified} with {@code email} ({@link UserClaims}, the same claims the ID token carries). The token
 * comes in the {@code Authorization: Bearer} header, or — here only, as OIDC Core 5.3.1 allows — as
 * {@code access_token} in a form body; both at once, or in the query string, is invalid_request (RFC 6750 2).
 * Errors per RFC 6750 3.
 */
@Path("userinfo")
@ApplicationScoped // one instance: no per-request bean creation or field injection
public class UserInfoEndpoint {

    @Inject
    AccessTokenVerifier verifier;

    @Inject
    UserRepository users;

    @GET
    @Produces(MediaType.APPLICATION_JSON)
    public Response get(@Context HttpHeaders headers, @Context UriInfo uriInfo) {
        return answer(tokenFrom(headers, uriInfo, Optional.empty()));
    }

    @POST
    @Produces(MediaType.APPLICATION_JSON)
    public Response post(@Context HttpHeaders headers, @Context UriInfo uriInfo, String body) {
        Optional<String> formToken = Optional.empty();
        if (body != null && !body.isEmpty()) {
            MediaType type = headers.getMediaType();
            if (type == null || !type.isCompatible(MediaType.APPLICATION_FORM_URLENCODED_TYPE)) {
                throw new OAuthException(OAuthError.INVALID_REQUEST,
                        "A userinfo request body must be application/x-www-form-urlencoded", 415);
            }
            formToken = ProtocolParameters.fromForm(body).get("access_token");
        }
        return answer(tokenFrom(headers, uriInfo, formToken));
    }

    private static String tokenFrom(HttpHeaders headers, UriInfo uriInfo, Optional<String> formToken) {
        if (uriInfo.getQueryParameters().containsKey("access_token")) {
            throw OAuthException.invalidRequest("Send the access token in the Authorization header, not in the URL");
        }
        Optional<String> headerToken = BearerToken.fromHeader(headers.getHeaderString(HttpHeaders.AUTHORIZATION));
        if (headerToken.isPresent() && formToken.isPresent()) {
            throw new OAuthException(OAuthError.INVALID_REQUEST, "Send the access token one way only", 400,
                    BearerToken.CHALLENGE + ", error=\"invalid_request\"");
        }
        return headerToken.or(() -> formToken).orElseThrow(BearerToken::missing);
    }

    /** Two reads, each through its owner: the token's record and grant (JDBC), then the user (JPA, read-only). */
    private Response answer(String token) {
        VerifiedAccessToken t = verifier.verify(token);
        if (!t.hasUser()) {
            throw BearerToken.noUser();
        }
        if (!t.scopes().contains(Scopes.OPENID)) {
            throw BearerToken.insufficientScope(Scopes.OPENID);
        }
        // user deleted or disabled meanwhile (disabling also revokes the token; this needs no further read)
        User user = users.findCached(t.subject()).filter(User::enabled).orElseThrow(BearerToken::invalid);
        JsonObjectBuilder claims = JsonSupport.JSON.createObjectBuilder().add("sub", user.userId());
        UserClaims.of(user, t.scopes()).forEach((name, value) -> {
            if (value instanceof Boolean b) {
                claims.add(name, b);
            } else if (value instanceof List<?> list) {
                claims.add(name, JsonSupport.JSON.createArrayBuilder(list));
            } else {
                claims.add(name, (String) value);
            }
        });
        return NoStoreJson.of(200, claims.build().toString()).build();
    }
}
