package dev.portcullis.tokenuse;

import dev.portcullis.audit.AuditEvent;
import dev.portcullis.audit.AuditLog;
import dev.portcullis.client.Client;
import dev.portcullis.config.IssuerSettings;
import dev.portcullis.dpop.DpopProofVerifier;
import dev.portcullis.protocol.ClientAddress;
import dev.portcullis.protocol.ProtocolParameters;
import dev.portcullis.token.ClientAuthenticator;
import dev.portcullis.token.TokenGrantRepository;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.Optional;

/**
 * {@code POST /oauth/revoke} (RFC 7009). The client authenticates exactly as at the token endpoint (a public client
 * identifies with {@code client_id}); parameters {@code token} and optional {@code token_type_hint}, as a form (RFC
 * 7009) or the flat JSON object the token endpoint also takes.
 * <ul>
 * <li>an access token: that token stops working at once, on every instance (its row is marked revoked; every
 * validation reads the row), and so does every token exchanged from it down a chain (RFC 8693);</li>
 * <li>a refresh token: its whole grant is revoked — every refresh token and access token of the family (RFC 7009
 * 2.1 "SHOULD also invalidate all access tokens based on the same authorization grant");</li>
 * <li>an unknown, expired or already revoked token: 200, nothing to do (RFC 7009 2.2);</li>
 * <li>a token of another client: 200 and nothing is revoked (and it is audited) — the answer must not tell the
 * caller whether the token exists;</li>
 * <li>a DPoP-bound token of the caller: revoked only with a DPoP proof by its key (RFC 9449), else
 * {@code invalid_dpop_proof}.</li>
 * </ul>
 */
@Path("revoke")
@RequestScoped
public class RevocationEndpoint {

    @Inject
    ClientAuthenticator authenticator;

    @Inject
    ClientAddress clientAddress;

    @Inject
    PresentedToken tokens;

    @Inject
    TokenGrantRepository grants;

    @Inject
    AuditLog audit;

    @Inject
    IssuerSettings issuer;

    @Context
    HttpHeaders headers;

    @Context
    HttpServletRequest request;

    @POST
    @Produces(MediaType.APPLICATION_JSON)
    public Response revoke(String body) {
        ProtocolParameters p = ProtocolParameters.fromBody(headers, body);
        String ip = clientAddress.of(request);
        Client client = authenticator.authenticate(p, headers.getHeaderString(HttpHeaders.AUTHORIZATION), ip,
                "/oauth/revoke");
        String token = p.require("token");
        Optional<PresentedToken.Found> found = tokens.find(token, p.get("token_type_hint"));
        if (found.isPresent()) {
            PresentedToken.Found f = found.get();
            if (!f.clientId().equals(client.clientId())) {
                audit.failure(AuditEvent.Type.TOKEN_REVOKED, client.clientId(), null, ip,
                        "token issued to another client; nothing revoked");
            } else if (f instanceof PresentedToken.Access a) {
                tokens.proofFitsBinding(f, token, headers.getRequestHeader(DpopProofVerifier.HEADER),
                        issuer.endpoint("/oauth/revoke"));
                if (grants.revokeAccessToken(a.token().jti())) {
                    audit.success(AuditEvent.Type.TOKEN_REVOKED, client.clientId(), a.token().subject(), ip,
                            "access_token jti=" + a.token().jti());
                }
            } else if (f instanceof PresentedToken.Refresh r) {
                tokens.proofFitsBinding(f, token, headers.getRequestHeader(DpopProofVerifier.HEADER),
                        issuer.endpoint("/oauth/revoke"));
                if (grants.revokeGrant(r.grant().grantId())) {
                    audit.success(AuditEvent.Type.TOKEN_REVOKED, client.clientId(), r.grant().userId(), ip,
                            "refresh_token; grant " + r.grant().grantId() + " and all its tokens revoked");
                }
            }
        }
        return Response.ok().header("Cache-Control", "no-store").header("Pragma", "no-cache").build();
    }
}
