package dev.portcullis.account;

import dev.portcullis.audit.AuditEvent;
import dev.portcullis.audit.AuditLog;
import dev.portcullis.protocol.ClientAddress;
import dev.portcullis.protocol.ErrorBody;
import dev.portcullis.protocol.JsonObjects;
import dev.portcullis.protocol.JsonSupport;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.json.JsonObjectBuilder;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.Optional;
import java.util.Set;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirement;

/** {@code /admin/users}: create, inspect and delete users, set their passwords. Password hashes never leave. */
@Path("users")
@RequestScoped
@Produces(MediaType.APPLICATION_JSON)
@SecurityRequirement(name = "adminToken")
public class UserAdminResource {

    @Inject
    UserService service;

    @Inject
    ClientAddress clientAddress;

    @Inject
    AuditLog audit;

    @Context
    HttpServletRequest request;

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(summary = "Create a user", description = "Username is case-insensitive and stored lower-case; "
            + "duplicate usernames answer 409.")
    public Response create(String body) {
        JsonObjects json = JsonObjects.parse(body, Set.of("username", "password", "email", "name"));
        User u;
        try {
            u = service.create(new UserService.NewUser(
                    json.requiredString("username", 1000),
                    json.string("password", 100_000).orElse(null),
                    json.string("email", 1000).orElse(null),
                    json.string("name", 1000).orElse(null)));
        } catch (UsernameTakenException e) {
            return ErrorBody.response(409, "conflict", e.getMessage());
        }
        audit.success(AuditEvent.Type.USER_CREATED, null, u.username(), clientAddress.of(request), null);
        return Response.status(201).header("Location", "/admin/users/" + u.username())
                .entity(describe(u).build().toString()).build();
    }

    @GET
    @Path("{username}")
    @Operation(summary = "Show one user")
    public Response get(@PathParam("username") String username) {
        return service.findByUsername(username)
                .map(u -> Response.ok(describe(u).build().toString()).build())
                .orElseGet(UserAdminResource::notFound);
    }

    @DELETE
    @Path("{username}")
    @Operation(summary = "Delete a user, end their sessions and revoke all their tokens")
    public Response delete(@PathParam("username") String username) {
        if (!service.delete(username)) {
            return notFound();
        }
        audit.success(AuditEvent.Type.USER_DELETED, null, username.toLowerCase(java.util.Locale.ROOT),
                clientAddress.of(request), null);
        return Response.noContent().build();
    }

    @PUT
    @Path("{username}/password")
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(summary = "Set a user's password, end their sessions and revoke all their tokens",
            description = "Body: {\"password\": \"...\"}")
    public Response setPassword(@PathParam("username") String username, String body) {
        JsonObjects json = JsonObjects.parse(body, Set.of("password"));
        Optional<PasswordChanged> changed = service.changePassword(username,
                json.string("password", 100_000).orElse(null));
        if (changed.isEmpty()) {
            return notFound();
        }
        audit.success(AuditEvent.Type.USER_PASSWORD_CHANGED, null, username.toLowerCase(java.util.Locale.ROOT),
                clientAddress.of(request), changed.get().consequences());
        return Response.noContent().build();
    }

    static JsonObjectBuilder describe(User u) {
        JsonObjectBuilder b = JsonSupport.JSON.createObjectBuilder()
                .add("user_id", u.userId())
                .add("username", u.username())
                .add("created_at", u.createdAt().getEpochSecond());
        if (u.email() != null) {
            b.add("email", u.email());
        }
        if (u.name() != null) {
            b.add("name", u.name());
        }
        b.add("source", u.source());
        if (u.directoryDn() != null) {
            b.add("dn", u.directoryDn());
        }
        return b;
    }

    private static Response notFound() {
        return ErrorBody.response(404, "not_found", "No such user");
    }
}
