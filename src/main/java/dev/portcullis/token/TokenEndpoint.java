package dev.portcullis.token;

import dev.portcullis.protocol.CrossOrigin;
import dev.portcullis.protocol.OAuthException;
import dev.portcullis.protocol.ProtocolParameters;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.ws.rs.OPTIONS;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

/**
 * {@code POST /oauth/token}. The body is the seed's flat JSON object ({@code Content-Type: application/json}) or an
 * RFC 6749 form ({@code application/x-www-form-urlencoded}); both are parsed by {@link ProtocolParameters}, so they
 * obey the same strict rules (duplicates, control characters, over-long values are invalid_request; any other
 * content type is 415). Answers are JSON only (an {@code Accept} that excludes JSON is 406) and never cacheable.
 * No {@code @Consumes}: every content type reaches this method so the error is ours, in the RFC's JSON shape.
 */
@Path("token")
@ApplicationScoped // one instance: no per-request bean creation or field injection on the hottest endpoint
@CrossOrigin
public class TokenEndpoint {

    @Inject
    ClientAuthenticator authenticator;

    @Inject
    AuthorizationCodeGrant authorizationCodeGrant;

    @Inject
    RefreshTokenGrant refreshTokenGrant;

    @POST
    @Produces(MediaType.APPLICATION_JSON)
    public Response token(@Context HttpHeaders headers, @Context HttpServletRequest request, String body) {
        ProtocolParameters p = ProtocolParameters.fromBody(headers, body);
        String grantType = p.require("grant_type");
        if (!grantType.equals(AuthorizationCodeGrant.GRANT_TYPE) && !grantType.equals(RefreshTokenGrant.GRANT_TYPE)) {
            throw OAuthException.unsupportedGrantType("Supported grant types: authorization_code, refresh_token");
        }
        String ip = request.getRemoteAddr();
        ClientAuthenticator.AuthenticatedClient client =
                authenticator.authenticate(p, headers.getHeaderString(HttpHeaders.AUTHORIZATION), ip);
        TokenResponse response = grantType.equals(AuthorizationCodeGrant.GRANT_TYPE)
                ? authorizationCodeGrant.exchange(client, p, ip)
                : refreshTokenGrant.refresh(client, p, ip);
        return response.toResponse();
    }

    /** CORS preflight of browser apps (the headers come from the application's CrossOriginFilter). */
    @OPTIONS
    public Response preflight() {
        return Response.noContent().build();
    }
}
