package dev.portcullis.declarative;

import dev.portcullis.admin.Refusal;
import dev.portcullis.audit.Actor;
import dev.portcullis.protocol.ClientAddress;
import dev.portcullis.protocol.NoStoreJson;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DefaultValue;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirement;

/** {@code /admin/config}: export the configuration document, and apply one (or plan it with a dry run). */
@Path("config")
@RequestScoped
@Produces(MediaType.APPLICATION_JSON)
@SecurityRequirement(name = "adminToken")
public class ConfigurationAdminResource {

    @Inject
    ConfigurationService service;

    @Inject
    ClientAddress clientAddress;

    @Context
    HttpServletRequest request;

    @GET
    @Operation(summary = "Export the configuration document",
            description = "Clients (built-in ones aside), APIs and groups with their members, in the admin API's "
                    + "shapes; never a secret.")
    @APIResponse(responseCode = "200")
    public Response export() {
        return NoStoreJson.of(200, service.export().toString()).build();
    }

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(summary = "Apply a configuration document",
            description = "Creates and changes what differs, leaves the rest alone and, with \"prune\": true, "
                    + "removes what the document does not list; one transaction. dry_run=true answers the plan "
                    + "without writing. A value that cannot be applied answers 400 naming its JSON path.")
    @APIResponse(responseCode = "200")
    @APIResponse(responseCode = "400")
    public Response apply(@QueryParam("dry_run") @DefaultValue("false") String dryRun, String body) {
        if (!dryRun.equals("true") && !dryRun.equals("false")) {
            throw Refusal.invalid("dry_run", "must be true or false");
        }
        boolean plan = Boolean.parseBoolean(dryRun);
        try {
            return NoStoreJson.of(200, service.apply(body, plan,
                    Actor.adminToken(clientAddress.of(request))).toJson(plan).toString()).build();
        } catch (DocumentError e) {
            throw Refusal.invalid(e.path(), e.why());
        }
    }
}
