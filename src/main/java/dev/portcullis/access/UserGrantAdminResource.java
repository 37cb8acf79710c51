package dev.portcullis.access;

import dev.portcullis.admin.Refusal;
import dev.portcullis.audit.Actor;
import dev.portcullis.protocol.ClientAddress;
import dev.portcullis.protocol.JsonSupport;
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
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirement;

/**
 * {@code /admin/users/{username}/grants}: the applications a user has authorized (remembered consent and live token
 * families, as the user sees them on the account page), and withdrawing one: its tokens stop working at once.
 */
@Path("users/{username}/grants")
@RequestScoped
@Produces(MediaType.APPLICATION_JSON)
@SecurityRequirement(name = "adminToken")
public class UserGrantAdminResource {

    @Inject
    AccessService access;

    @Inject
    ClientAddress clientAddress;

    @Context
    HttpServletRequest request;

    @GET
    @Operation(summary = "List the applications a user has authorized",
            description = "One entry per client: the consented scope, or the scopes of its live token families for "
                    + "clients that skip consent.")
    @APIResponse(responseCode = "200", content = @Content(schema = @Schema(ref = "GrantList")))
    @APIResponse(responseCode = "404", content = @Content(schema = @Schema(ref = "Error")))
    public Response list(@PathParam("username") String username) {
        return access.grants(username).map(grants -> {
            JsonArrayBuilder a = JsonSupport.JSON.createArrayBuilder();
            for (AuthorizedApplicationService.Authorization g : grants) {
                JsonObjectBuilder b = JsonSupport.JSON.createObjectBuilder().add("client_id", g.clientId())
                        .add("client_name", g.clientName()).add("granted_at", g.grantedAt().getEpochSecond());
                if (g.scope() != null) {
                    b.add("scope", g.scope());
                }
                a.add(b);
            }
            return Response.ok(JsonSupport.JSON.createObjectBuilder().add("grants", a).build().toString()).build();
        }).orElseThrow(() -> Refusal.notFound(Refusal.Thing.USER));
    }

    @DELETE
    @Path("{client_id}")
    @Operation(summary = "Withdraw a user's authorization of an application",
            description = "Deletes the consent and revokes every token family of that user and client at once.")
    @APIResponse(responseCode = "204", description = "Withdrawn")
    @APIResponse(responseCode = "404", description = "No such user, or nothing to withdraw",
            content = @Content(schema = @Schema(ref = "Error")))
    public Response revoke(@PathParam("username") String username, @PathParam("client_id") String clientId) {
        return switch (access.withdrawGrant(username, clientId, Actor.adminToken(clientAddress.of(request)))) {
            case WITHDRAWN -> Response.noContent().build();
            case NO_SUCH_USER -> throw Refusal.notFound(Refusal.Thing.USER);
            case NOTHING_TO_WITHDRAW -> throw new Refusal(new Refusal.NothingToWithdraw(clientId, false));
        };
    }
}
