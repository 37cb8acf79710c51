package dev.portcullis.token;

import dev.portcullis.client.Client;
import dev.portcullis.config.IssuerSettings;
import dev.portcullis.dpop.DpopProofVerifier;
import dev.portcullis.dpop.DpopRefusal;
import dev.portcullis.metrics.Metrics;
import dev.portcullis.protocol.ClientAddress;
import dev.portcullis.protocol.CrossOrigin;
import dev.portcullis.protocol.OAuthError;
import dev.portcullis.protocol.OAuthException;
import dev.portcullis.protocol.ProtocolParameters;
import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Instance;
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
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * {@code POST /oauth/token}. The body is a flat JSON object ({@code Content-Type: application/json}) or an
 * RFC 6749 form ({@code application/x-www-form-urlencoded}); both are parsed by {@link ProtocolParameters}, so they
 * obey the same strict rules (duplicates, control characters, over-long values are invalid_request; any other
 * content type is 415). Answers are JSON only (an {@code Accept} that excludes JSON is 406) and never cacheable.
 * No {@code @Consumes}: every content type reaches this method so the error is ours, in the RFC's JSON shape.
 * The endpoint parses, rejects an unknown grant type before touching the client, authenticates the client, refuses
 * a grant type the client is not registered for ({@code unauthorized_client}, RFC 6749 5.2) and hands over to the
 * {@link GrantHandler} of the grant type. A request with a {@code DPoP} header, and every request of a client
 * registered with {@code dpop_bound_access_tokens}, must carry a valid DPoP proof (RFC 9449 5); its key binds the
 * access token. A request without the header costs nothing more.
 */
@Path("token")
@ApplicationScoped // one instance: no per-request bean creation or field injection on the hottest endpoint
@CrossOrigin
public class TokenEndpoint {

    @Inject
    ClientAuthenticator authenticator;

    @Inject
    Metrics metrics;

    @Inject
    ClientAddress clientAddress;

    @Inject
    Instance<GrantHandler> handlerBeans;

    @Inject
    DpopProofVerifier dpop;

    @Inject
    IssuerSettings issuer;

    private Map<String, GrantHandler> handlers;
    private String supported;

    @PostConstruct
    void indexHandlers() {
        Map<String, GrantHandler> byType = new TreeMap<>();
        for (GrantHandler h : handlerBeans) {
            if (byType.put(h.grantType(), h) != null) {
                throw new IllegalStateException("Two grant handlers for grant_type " + h.grantType());
            }
        }
        handlers = Map.copyOf(byType);
        supported = "Supported grant types: " + String.join(", ", byType.keySet());
    }

    @POST
    @Produces(MediaType.APPLICATION_JSON)
    public Response token(@Context HttpHeaders headers, @Context HttpServletRequest request, String body) {
        String[] clientAndGrant = new String[2];
        try {
            Response issued = token(headers, request, body, clientAndGrant);
            metrics.tokenIssued(clientAndGrant[1], clientAndGrant[0]);
            return issued;
        } catch (OAuthException e) {
            metrics.tokenError(e.error().code(), clientAndGrant[0]);
            throw e;
        }
    }

    /**
     * The token request; {@code clientAndGrant} gets the client id once the client is authenticated and the grant
     * type once it is known to be the client's (the labels of the metrics).
     */
    private Response token(HttpHeaders headers, HttpServletRequest request, String body, String[] clientAndGrant) {
        ProtocolParameters p = ProtocolParameters.fromBody(headers, body);
        GrantHandler handler = handlers.get(p.require("grant_type"));
        if (handler == null) {
            throw OAuthException.unsupportedGrantType(supported);
        }
        String ip = clientAddress.of(request);
        Client client = authenticator.authenticate(p, headers.getHeaderString(HttpHeaders.AUTHORIZATION), ip,
                "/oauth/token");
        clientAndGrant[0] = client.clientId();
        if (!client.mayUse(handler.grantType())) {
            throw new OAuthException(OAuthError.UNAUTHORIZED_CLIENT, "The client may not use grant_type "
                    + handler.grantType());
        }
        clientAndGrant[1] = handler.grantType();
        String dpopJkt = proofKey(client, headers.getRequestHeader(DpopProofVerifier.HEADER));
        return handler.handle(client, p, ip, dpopJkt).toResponse(dpopJkt == null ? null : dpop.nonceToSend());
    }

    /**
     * The thumbprint of the key of the request's DPoP proof; null when it has none and the client does not need one.
     * A missing (when required) or refused proof is {@code invalid_dpop_proof} (or {@code use_dpop_nonce}), JSON 400.
     */
    private String proofKey(Client client, List<String> proofs) {
        if (!DpopProofVerifier.present(proofs) && !client.dpopBoundAccessTokens()) {
            return null;
        }
        try {
            return dpop.verify(proofs, "POST", issuer.endpoint("/oauth/token"), null, null);
        } catch (DpopRefusal e) {
            throw e.atTokenEndpoint();
        }
    }

    /** CORS preflight of browser apps (the CORS headers come from the application's CrossOriginFilter). */
    @OPTIONS
    public Response preflight() {
        return Response.noContent().header("Allow", "OPTIONS, POST").build();
    }
}
