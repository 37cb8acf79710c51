package dev.portcullis.tokenuse;

import dev.portcullis.access.AuthorizedApplicationService;
import dev.portcullis.account.User;
import dev.portcullis.account.UserRepository;
import dev.portcullis.admin.Refusal;
import dev.portcullis.audit.Actor;
import dev.portcullis.client.Scopes;
import dev.portcullis.protocol.ClientAddress;
import dev.portcullis.protocol.JsonSupport;
import dev.portcullis.protocol.NoStoreJson;
import dev.portcullis.token.AccessTokenVerifier.VerifiedAccessToken;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObjectBuilder;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

/**
 * {@code /api/v1/me}: the signed-in user's own data, called by a client on the user's behalf with the user's access
 * token. Every method declares its delegability and scope ({@link Delegable}); {@link DelegationFilter} has checked
 * the token before a method runs. Reading needs {@code read_user}; changing needs {@code api}.
 */
@Path("v1/me")
@RequestScoped
@Produces(MediaType.APPLICATION_JSON)
public class MeResource {

    @Inject
    UserRepository users;

    @Inject
    ClientAddress clientAddress;

    @Inject
    AuthorizedApplicationService authorizations;

    @Context
    HttpServletRequest request;

    /** {@code GET /api/v1/me}: the user's profile. */
    @GET
    @Delegable(scopes = Scopes.READ_USER)
    public Response me() {
        User user = user(DelegationFilter.accessToken(request));
        JsonObjectBuilder b = JsonSupport.JSON.createObjectBuilder().add("sub", user.userId()).add("username", user.username());
        if (user.name() != null) {
            b.add("name", user.name());
        }
        if (user.email() != null) {
            b.add("email", user.email());
        }
        return json(b.build().toString());
    }

    /** {@code GET /api/v1/me/authorizations}: the clients the user has authorized, with scopes. */
    @GET
    @Path("authorizations")
    @Delegable(scopes = Scopes.READ_USER)
    public Response list() {
        VerifiedAccessToken token = DelegationFilter.accessToken(request);
        JsonArrayBuilder items = JsonSupport.JSON.createArrayBuilder();
        for (AuthorizedApplicationService.Authorization a : authorizations.list(token.subject())) {
            items.add(JsonSupport.JSON.createObjectBuilder().add("client_id", a.clientId()).add("client_name", a.clientName())
                    .add("scope", a.scope()).add("granted_at", a.grantedAt().getEpochSecond()));
        }
        return json(JsonSupport.JSON.createObjectBuilder().add("authorizations", items).build().toString());
    }

    /**
     * {@code DELETE /api/v1/me/authorizations/{client_id}}: withdraws the user's authorization of that client and
     * revokes its tokens (204); 404 when the user has not authorized it.
     */
    @DELETE
    @Path("authorizations/{client_id}")
    @Delegable(scopes = Scopes.API)
    public Response revoke(@PathParam("client_id") String clientId) {
        VerifiedAccessToken token = DelegationFilter.accessToken(request);
        Actor user = Actor.user(token.subject(), clientAddress.of(request))
                .within("withdrawn by the user through /api/v1 (calling client " + token.clientId() + ")");
        if (clientId.length() > 64 || !authorizations.withdrawByUser(token.subject(), clientId, user)) {
            throw new Refusal(new Refusal.NothingToWithdraw(clientId, true));
        }
        return Response.noContent().header("Cache-Control", "no-store").build();
    }

    private User user(VerifiedAccessToken token) {
        // a deleted user's grants are gone (ON DELETE CASCADE), so the token would not have verified
        return users.findCached(token.subject()).filter(User::enabled).orElseThrow(BearerToken::invalid);
    }

    private static Response json(String body) {
        return NoStoreJson.of(200, body).build();
    }
}
