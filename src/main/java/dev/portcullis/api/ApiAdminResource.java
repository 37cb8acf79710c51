package dev.portcullis.api;

import static dev.portcullis.api.ApiSchema.BACKEND_CLIENT_ID;
import static dev.portcullis.api.ApiSchema.EXCHANGE_SCOPES;
import static dev.portcullis.api.ApiSchema.IDENTIFIER;
import static dev.portcullis.api.ApiSchema.NAME;
import static dev.portcullis.api.ApiSchema.SCOPES;
import static dev.portcullis.api.ApiSchema.SIGNING_ALG;
import static dev.portcullis.api.ApiSchema.TYP;

import dev.portcullis.admin.FieldValues;
import dev.portcullis.admin.Refusal;
import dev.portcullis.audit.Actor;
import dev.portcullis.protocol.ClientAddress;
import dev.portcullis.protocol.JsonObjects;
import dev.portcullis.protocol.JsonSupport;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObjectBuilder;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.PATCH;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.List;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.RequestBody;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirement;

/** {@code /admin/apis}: register, list, inspect, change and delete the APIs tokens can be issued for (RFC 8707). */
@Path("apis")
@RequestScoped
@Produces(MediaType.APPLICATION_JSON)
@SecurityRequirement(name = "adminToken")
public class ApiAdminResource {

    @Inject
    ApiService service;

    @Inject
    ClientAddress clientAddress;

    @Context
    HttpServletRequest request;

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(summary = "Register an API",
            description = "identifier (absolute https URI, the tokens' aud), name, scopes (given to clients like the "
                    + "built-in scopes), access_token_signing_alg (RS256, PS256, ES256; absent: the global "
                    + "default), access_token_typ (at+jwt, the default, or JWT), backend_client_id (the "
                    + "confidential client the API's backend authenticates as, "
                    + "which may exchange the API's tokens; absent: none) and exchange_scopes (the scopes of other "
                    + "APIs that client may exchange the API's tokens for; absent: none). Unknown fields and wrong "
                    + "types answer 400; a taken identifier 409.")
    @RequestBody(content = @Content(schema = @Schema(ref = "NewApi")))
    @APIResponse(responseCode = "201", content = @Content(schema = @Schema(ref = "Api")))
    @APIResponse(responseCode = "400", content = @Content(schema = @Schema(ref = "Error")))
    @APIResponse(responseCode = "409", content = @Content(schema = @Schema(ref = "Error")))
    public Response register(String body) {
        FieldValues v = ApiSchema.SCHEMA.readRegistration(body);
        Api api = service.register(new ApiService.Registration(v.string(IDENTIFIER), v.string(NAME),
                v.list(SCOPES), v.string(SIGNING_ALG), v.string(BACKEND_CLIENT_ID), v.list(EXCHANGE_SCOPES),
                v.string(TYP)), actor());
        return Response.status(201).entity(describe(api).build().toString())
                .header("Location", "/admin/apis/" + api.apiId()).build();
    }

    @GET
    @Operation(summary = "List the registered APIs, oldest first")
    @APIResponse(responseCode = "200", content = @Content(schema = @Schema(ref = "ApiList")))
    public String list() {
        JsonArrayBuilder a = JsonSupport.JSON.createArrayBuilder();
        service.list().forEach(api -> a.add(describe(api)));
        return JsonSupport.JSON.createObjectBuilder().add("apis", a).build().toString();
    }

    @GET
    @Path("{id}")
    @Operation(summary = "Show one API")
    @APIResponse(responseCode = "200", content = @Content(schema = @Schema(ref = "Api")))
    @APIResponse(responseCode = "404", content = @Content(schema = @Schema(ref = "Error")))
    public Response get(@PathParam("id") String id) {
        return service.find(id).map(api -> Response.ok(describe(api).build().toString()).build())
                .orElseThrow(ApiAdminResource::notFound);
    }

    @PATCH
    @Path("{id}")
    @Consumes({JsonObjects.MERGE_PATCH, MediaType.APPLICATION_JSON})
    @Operation(summary = "Change an API (JSON merge patch)",
            description = "Fields: identifier, name, scopes (replaces the list), access_token_signing_alg (null: the "
                    + "global default), access_token_typ (at+jwt or JWT), backend_client_id (null: none), "
                    + "exchange_scopes (replaces the list; null or "
                    + "[]: none); validated as at registration. Removing scopes that clients hold, or that another "
                    + "API's exchange_scopes names, answers 409.")
    @RequestBody(content = @Content(mediaType = JsonObjects.MERGE_PATCH, schema = @Schema(ref = "ApiPatch")))
    @APIResponse(responseCode = "200", content = @Content(schema = @Schema(ref = "Api")))
    @APIResponse(responseCode = "400", content = @Content(schema = @Schema(ref = "Error")))
    @APIResponse(responseCode = "404", content = @Content(schema = @Schema(ref = "Error")))
    @APIResponse(responseCode = "409", content = @Content(schema = @Schema(ref = "Error")))
    public Response patch(@PathParam("id") String id, String body) {
        FieldValues v = ApiSchema.SCHEMA.readPatch(body);
        ApiService.ApiPatch patch = new ApiService.ApiPatch(v.string(IDENTIFIER), v.string(NAME), v.list(SCOPES),
                v.removed(SIGNING_ALG) ? null : v.string(SIGNING_ALG), v.removed(SIGNING_ALG),
                v.removed(BACKEND_CLIENT_ID) ? null : v.string(BACKEND_CLIENT_ID), v.removed(BACKEND_CLIENT_ID),
                v.list(EXCHANGE_SCOPES), v.string(TYP));
        return service.update(id, patch, actor())
                .map(api -> Response.ok(describe(api).build().toString()).build())
                .orElseThrow(ApiAdminResource::notFound);
    }

    @DELETE
    @Path("{id}")
    @Operation(summary = "Delete an API",
            description = "Refused with 409 while a client holds one of its scopes, or another API's "
                    + "exchange_scopes names one: remove them there first. Tokens already issued for it stay valid "
                    + "until they expire.")
    @APIResponse(responseCode = "204", description = "Deleted")
    @APIResponse(responseCode = "404", content = @Content(schema = @Schema(ref = "Error")))
    @APIResponse(responseCode = "409", content = @Content(schema = @Schema(ref = "Error")))
    public Response delete(@PathParam("id") String id) {
        if (!service.delete(id, actor())) {
            throw notFound();
        }
        return Response.noContent().build();
    }

    static JsonObjectBuilder describe(Api api) {
        return ApiSchema.SCHEMA.write(api);
    }

    private Actor actor() {
        return Actor.adminToken(clientAddress.of(request));
    }

    private static Refusal notFound() {
        return Refusal.notFound(Refusal.Thing.API);
    }
}
