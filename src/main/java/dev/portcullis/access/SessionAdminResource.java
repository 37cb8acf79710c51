package dev.portcullis.access;

import dev.portcullis.admin.Refusal;
import dev.portcullis.audit.Actor;
import dev.portcullis.protocol.ClientAddress;
import dev.portcullis.protocol.JsonSupport;
import dev.portcullis.protocol.Paging;
import dev.portcullis.session.SsoSession;
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
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.List;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirement;

/**
 * {@code /admin/sessions}: the live SSO sessions, all or one user's, and ending them. A session is named by its
 * administrative id, never by its cookie or the cookie's hash.
 */
@Path("sessions")
@RequestScoped
@Produces(MediaType.APPLICATION_JSON)
@SecurityRequirement(name = "adminToken")
public class SessionAdminResource {

    @Inject
    AccessService access;

    @Inject
    ClientAddress clientAddress;

    @Context
    HttpServletRequest request;

    @GET
    @Operation(summary = "List live SSO sessions, paged",
            description = "All sessions, or one user's with user=<username>; in the order they started. A full page "
                    + "carries next_after: pass it as after for the next page.")
    @APIResponse(responseCode = "200", content = @Content(schema = @Schema(ref = "SessionPage")))
    @APIResponse(responseCode = "400", content = @Content(schema = @Schema(ref = "Error")))
    @APIResponse(responseCode = "404", description = "No such user",
            content = @Content(schema = @Schema(ref = "Error")))
    public Response list(@Parameter(description = "a username") @QueryParam("user") String username,
                         @Parameter(description = "1 to 500, default 100") @QueryParam("limit") String limit,
                         @Parameter(description = "next_after of the previous page") @QueryParam("after")
                         String after) {
        int max = Paging.limit(limit, 500);
        if (after != null && (after.length() > 64 || !after.chars().allMatch(SessionAdminResource::idCharacter))) {
            throw Refusal.invalid("after", "must be a session id (next_after of the previous page)");
        }
        List<AccessService.SessionView> page = access.sessions(username, after, max).orElse(null);
        if (page == null) {
            throw Refusal.notFound(Refusal.Thing.USER);
        }
        JsonArrayBuilder a = JsonSupport.JSON.createArrayBuilder();
        page.forEach(v -> a.add(describe(v)));
        JsonObjectBuilder out = JsonSupport.JSON.createObjectBuilder().add("sessions", a);
        if (page.size() == max) {
            out.add("next_after", page.get(page.size() - 1).session().sessionId());
        }
        return Response.ok(out.build().toString()).build();
    }

    @DELETE
    @Operation(summary = "End every SSO session of one user", description = "user=<username> is required.")
    @APIResponse(responseCode = "200", content = @Content(schema = @Schema(ref = "Ended")))
    @APIResponse(responseCode = "400", description = "user missing",
            content = @Content(schema = @Schema(ref = "Error")))
    @APIResponse(responseCode = "404", content = @Content(schema = @Schema(ref = "Error")))
    public Response endAllOf(@Parameter(description = "a username", required = true) @QueryParam("user")
                             String username) {
        if (username == null || username.isEmpty()) {
            throw Refusal.invalid("user", "the username whose sessions to end is required");
        }
        return access.endSessionsOf(username, actor())
                .map(n -> Response.ok(JsonSupport.JSON.createObjectBuilder().add("ended", n).build().toString())
                        .build())
                .orElseThrow(() -> Refusal.notFound(Refusal.Thing.USER));
    }

    @DELETE
    @Path("{session_id}")
    @Operation(summary = "End one SSO session", description = "The user must sign in again in that browser.")
    @APIResponse(responseCode = "204", description = "Ended")
    @APIResponse(responseCode = "404", content = @Content(schema = @Schema(ref = "Error")))
    public Response end(@PathParam("session_id") String sessionId) {
        if (!access.endSession(sessionId, actor())) {
            throw Refusal.notFound(Refusal.Thing.SESSION);
        }
        return Response.noContent().build();
    }

    private static JsonObjectBuilder describe(AccessService.SessionView v) {
        SsoSession s = v.session();
        JsonArrayBuilder served = JsonSupport.JSON.createArrayBuilder();
        for (String c : s.clients()) {
            JsonObjectBuilder client = JsonSupport.JSON.createObjectBuilder().add("client_id", c);
            if (v.clientNames().containsKey(c)) {
                client.add("client_name", v.clientNames().get(c));
            }
            served.add(client);
        }
        JsonObjectBuilder b = JsonSupport.JSON.createObjectBuilder()
                .add("session_id", s.sessionId())
                .add("user_id", s.userId());
        if (v.username() != null) {
            b.add("username", v.username());
        }
        b.add("clients", served)
                .add("created_at", s.createdAt().getEpochSecond())
                .add("last_used_at", s.lastSeenAt().getEpochSecond())
                .add("auth_time", s.authTime().getEpochSecond())
                .add("expires_at", s.expiresAt().getEpochSecond());
        if (s.ip() != null) {
            b.add("ip", s.ip());
        }
        return b;
    }

    /** Session ids are UUIDs, or base64url for sessions started before they existed. */
    private static boolean idCharacter(int c) {
        return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '-' || c == '_';
    }

    private Actor actor() {
        return Actor.adminToken(clientAddress.of(request));
    }
}
