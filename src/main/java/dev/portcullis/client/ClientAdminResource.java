package dev.portcullis.client;

import dev.portcullis.audit.AuditEvent;
import dev.portcullis.audit.AuditLog;
import dev.portcullis.protocol.ClientAddress;
import dev.portcullis.protocol.ErrorBody;
import dev.portcullis.protocol.JsonObjects;
import dev.portcullis.protocol.JsonSupport;
import dev.portcullis.protocol.NoStoreJson;
import dev.portcullis.protocol.Paging;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObjectBuilder;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.DefaultValue;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.List;
import java.util.Set;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirement;

/** {@code /admin/clients}: register, list, inspect, delete client applications and rotate their secrets. */
@Path("clients")
@RequestScoped
@Produces(MediaType.APPLICATION_JSON)
@SecurityRequirement(name = "adminToken")
public class ClientAdminResource {

    private static final Set<String> FIELDS = Set.of("client_name", "redirect_uris", "post_logout_redirect_uris",
            "confidential", "scopes", "skip_consent", "require_mfa");

    @Inject
    ClientService service;

    @Inject
    ClientAddress clientAddress;

    @Inject
    AuditLog audit;

    @Context
    HttpServletRequest request;

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(summary = "Register a client application",
            description = "Returns client_id and, for confidential clients only, client_secret. The secret is shown "
                    + "this once and stored only as a hash.")
    public Response register(String body) {
        JsonObjects json = JsonObjects.parse(body, FIELDS);
        var registered = service.register(new ClientService.Registration(
                json.requiredString("client_name", 1000),
                json.stringList("redirect_uris", 100, 4000).orElse(List.of()),
                json.stringList("post_logout_redirect_uris", 100, 4000).orElse(List.of()),
                json.bool("confidential").orElse(true),
                json.requiredString("scopes", 1000),
                json.bool("skip_consent").orElse(false),
                json.bool("require_mfa").orElse(false)));
        audit.success(AuditEvent.Type.CLIENT_CREATED, registered.client().clientId(), "admin", clientAddress.of(request),
                registered.client().confidential() ? "confidential" : "public");
        JsonObjectBuilder out = describe(registered.client());
        registered.secret().ifPresent(s -> out.add("client_secret", s));
        return NoStoreJson.of(201, out.build().toString())
                .header("Location", "/admin/clients/" + registered.client().clientId()).build();
    }

    @GET
    @Operation(summary = "List client applications (never their secrets)")
    public String list(@QueryParam("offset") @DefaultValue("0") String offset,
                       @QueryParam("limit") @DefaultValue("100") String limit) {
        JsonArrayBuilder a = JsonSupport.JSON.createArrayBuilder();
        service.list(Paging.offset(offset), Paging.limit(limit, 500)).forEach(c -> a.add(describe(c)));
        return JsonSupport.JSON.createObjectBuilder().add("clients", a).build().toString();
    }

    @GET
    @Path("{client_id}")
    @Operation(summary = "Show one client application (never its secret)")
    public Response get(@PathParam("client_id") String clientId) {
        return service.find(clientId)
                .map(c -> Response.ok(describe(c).build().toString()).build())
                .orElseGet(() -> notFound());
    }

    @DELETE
    @Path("{client_id}")
    @Operation(summary = "Delete a client application and revoke all its codes and tokens")
    public Response delete(@PathParam("client_id") String clientId) {
        if (!service.delete(clientId)) {
            return notFound();
        }
        audit.success(AuditEvent.Type.CLIENT_DELETED, clientId, "admin", clientAddress.of(request), null);
        return Response.noContent().build();
    }

    @POST
    @Path("{client_id}/secret")
    @Operation(summary = "Rotate a confidential client's secret; returns the new secret once")
    public Response rotateSecret(@PathParam("client_id") String clientId) {
        return service.rotateSecret(clientId)
                .map(s -> {
                    audit.success(AuditEvent.Type.CLIENT_SECRET_ROTATED, clientId, "admin", clientAddress.of(request), null);
                    return s;
                })
                .map(s -> NoStoreJson.of(200, JsonSupport.JSON.createObjectBuilder().add("client_id", clientId)
                        .add("client_secret", s).build().toString()).build())
                .orElseGet(() -> notFound());
    }

    static JsonObjectBuilder describe(Client c) {
        JsonArrayBuilder uris = JsonSupport.JSON.createArrayBuilder();
        c.redirectUris().forEach(uris::add);
        JsonArrayBuilder logout = JsonSupport.JSON.createArrayBuilder();
        c.postLogoutRedirectUris().forEach(logout::add);
        return JsonSupport.JSON.createObjectBuilder()
                .add("client_id", c.clientId())
                .add("client_name", c.name())
                .add("confidential", c.confidential())
                .add("redirect_uris", uris)
                .add("post_logout_redirect_uris", logout)
                .add("scopes", c.scopes())
                .add("skip_consent", c.skipConsent())
                .add("require_mfa", c.requireMfa())
                .add("created_at", c.createdAt().getEpochSecond());
    }

    private static Response notFound() {
        return ErrorBody.response(404, "not_found", "No such client");
    }

}
