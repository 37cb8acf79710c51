package dev.portcullis.par;

import dev.portcullis.authorize.AuthorizationRequest;
import dev.portcullis.authorize.AuthorizationRequestValidator;
import dev.portcullis.authorize.PushedRequestRepository;
import dev.portcullis.authorize.RejectedAuthorizationRequest;
import dev.portcullis.authorize.RequestObjectService;
import dev.portcullis.authorize.UnverifiedRequestException;
import dev.portcullis.client.Client;
import dev.portcullis.protocol.ClientAddress;
import dev.portcullis.protocol.JsonSupport;
import dev.portcullis.protocol.NoStoreJson;
import dev.portcullis.protocol.OAuthException;
import dev.portcullis.protocol.ProtocolParameters;
import dev.portcullis.token.ClientAuthenticator;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.MultivaluedHashMap;
import jakarta.ws.rs.core.MultivaluedMap;
import jakarta.ws.rs.core.Response;
import java.util.List;
import java.util.Map;

/**
 * {@code POST /oauth/par}: the pushed authorization request endpoint (RFC 9126). The client authenticates exactly as
 * at the token endpoint ({@link ClientAuthenticator}: every method, a public client by its client_id); the request
 * is then checked by the authorization endpoint's own {@link AuthorizationRequestValidator}, its refusals answered
 * in JSON (RFC 9126 2.3) instead of at the redirect URI. An accepted request is stored by
 * {@link PushedRequestRepository} and answered 201 with its {@code request_uri} and {@code expires_in}. A pushed
 * request may be a signed request object ({@code request}, RFC 9101 and RFC 9126 3): its parameters are then the
 * request, and its {@code jti} is used up here.
 */
@Path("par")
@ApplicationScoped // one instance: no per-request bean creation or field injection
public class PushedAuthorizationEndpoint {

    /** Client authentication's parameters: not part of the authorization request that is stored. */
    private static final List<String> CLIENT_AUTHENTICATION = List.of("client_secret", "client_assertion",
            "client_assertion_type");

    @Inject
    ClientAuthenticator authenticator;

    @Inject
    AuthorizationRequestValidator validator;

    @Inject
    PushedRequestRepository pushedRequests;

    @Inject
    RequestObjectService requestObjects;

    @Inject
    ClientAddress clientAddress;

    @POST
    @Produces(MediaType.APPLICATION_JSON)
    public Response push(@Context HttpHeaders headers, @Context HttpServletRequest request, String body) {
        ProtocolParameters p = ProtocolParameters.fromBody(headers, body);
        Client client = authenticator.authenticate(p, headers.getHeaderString(HttpHeaders.AUTHORIZATION),
                clientAddress.of(request), "/oauth/par");
        if (p.has("request_uri")) {
            throw OAuthException.invalidRequest("A pushed request must not carry a request_uri (RFC 9126 2.1)");
        }
        AuthorizationRequest r;
        try {
            r = validator.validatePushed(ProtocolParameters.of(authorizationParameters(p, client)));
        } catch (UnverifiedRequestException e) {
            throw OAuthException.invalidRequest(e.getMessage());
        } catch (RejectedAuthorizationRequest e) {
            throw e.error();
        }
        requestObjects.use(r);
        String requestUri = pushedRequests.push(client.clientId(), r.query(), r.requestObject() != null);
        return NoStoreJson.of(201, JsonSupport.JSON.createObjectBuilder()
                .add("request_uri", requestUri)
                .add("expires_in", PushedRequestRepository.LIFETIME.toSeconds())
                .build().toString()).build();
    }

    /** The request's parameters without client authentication, with the authenticated client's id. */
    private static MultivaluedMap<String, String> authorizationParameters(ProtocolParameters p, Client client) {
        MultivaluedMap<String, String> out = new MultivaluedHashMap<>();
        for (Map.Entry<String, String> e : p.asMap().entrySet()) {
            if (!CLIENT_AUTHENTICATION.contains(e.getKey())) {
                out.add(e.getKey(), e.getValue());
            }
        }
        for (String name : ProtocolParameters.REPEATABLE) {
            out.put(name, p.all(name));
        }
        out.putSingle("client_id", client.clientId());
        return out;
    }
}
