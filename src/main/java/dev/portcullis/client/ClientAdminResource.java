package dev.portcullis.client;

import static dev.portcullis.client.ClientSchema.AUTH_METHOD;
import static dev.portcullis.client.ClientSchema.BACKCHANNEL_SESSION;
import static dev.portcullis.client.ClientSchema.BACKCHANNEL_URI;
import static dev.portcullis.client.ClientSchema.CLIENT_NAME;
import static dev.portcullis.client.ClientSchema.CONFIDENTIAL;
import static dev.portcullis.client.ClientSchema.DPOP_BOUND;
import static dev.portcullis.client.ClientSchema.ENABLED;
import static dev.portcullis.client.ClientSchema.FRONTCHANNEL_SESSION;
import static dev.portcullis.client.ClientSchema.FRONTCHANNEL_URI;
import static dev.portcullis.client.ClientSchema.GRANT_TYPES;
import static dev.portcullis.client.ClientSchema.ID_TOKEN_CLAIMS;
import static dev.portcullis.client.ClientSchema.JWKS;
import static dev.portcullis.client.ClientSchema.JWKS_URI;
import static dev.portcullis.client.ClientSchema.POST_LOGOUT_REDIRECT_URIS;
import static dev.portcullis.client.ClientSchema.REDIRECT_URIS;
import static dev.portcullis.client.ClientSchema.REQUIRE_MFA;
import static dev.portcullis.client.ClientSchema.REQUIRE_JAR;
import static dev.portcullis.client.ClientSchema.REQUIRE_PAR;
import static dev.portcullis.client.ClientSchema.SCOPES;
import static dev.portcullis.client.ClientSchema.SKIP_CONSENT;

import dev.portcullis.admin.FieldValues;
import dev.portcullis.admin.Refusal;
import dev.portcullis.audit.Actor;
import dev.portcullis.protocol.ClientAddress;
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
import jakarta.ws.rs.PATCH;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.time.Duration;
import java.util.Optional;
import java.util.Set;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.RequestBody;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirement;

/** {@code /admin/clients}: register, list, inspect, delete client applications and rotate their secrets. */
@Path("clients")
@RequestScoped
@Produces(MediaType.APPLICATION_JSON)
@SecurityRequirement(name = "adminToken")
public class ClientAdminResource {

    /** The 409 of a deletion, naming the built-in clients (an annotation needs a constant, not a join of the set). */
    private static final String BUILT_IN_CLIENT = "A built-in client (" + BuiltInClients.ACCOUNT + ", "
            + BuiltInClients.CONSOLE + ")";

    /** The optional body of a secret rotation. */
    private static final Set<String> ROTATION_FIELDS = Set.of("previous_secret_valid_for");

    @Inject
    ClientService service;

    @Inject
    ClientAddress clientAddress;

    @Context
    HttpServletRequest request;

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(summary = "Register a client application",
            description = "Returns client_id and, for confidential clients only, client_secret. The secret is shown "
                    + "this once and stored only as a hash.")
    @RequestBody(content = @Content(schema = @Schema(ref = "NewClient")))
    @APIResponse(responseCode = "201", content = @Content(schema = @Schema(ref = "Client")))
    @APIResponse(responseCode = "400", content = @Content(schema = @Schema(ref = "Error")))
    public Response register(String body) {
        FieldValues v = ClientSchema.SCHEMA.readRegistration(body);
        var registered = service.register(common(ClientService.Registration.builder(), v).build(), actor());
        return withSecret(201, registered.client(), registered.secret())
                .header("Location", "/admin/clients/" + registered.client().clientId()).build();
    }

    @GET
    @Operation(summary = "List client applications (never their secrets)",
            description = "Paged by offset (0 up) and limit (1 to 500, default 100), oldest first.")
    @APIResponse(responseCode = "200", content = @Content(schema = @Schema(ref = "ClientList")))
    public String list(@QueryParam("offset") @DefaultValue("0") String offset,
                       @QueryParam("limit") @DefaultValue("100") String limit) {
        JsonArrayBuilder a = JsonSupport.JSON.createArrayBuilder();
        service.list(Paging.offset(offset), Paging.limit(limit, 500)).forEach(c -> a.add(describe(c)));
        return JsonSupport.JSON.createObjectBuilder().add("clients", a).build().toString();
    }

    @GET
    @Path("{client_id}")
    @Operation(summary = "Show one client application (never its secret)")
    @APIResponse(responseCode = "200", content = @Content(schema = @Schema(ref = "Client")))
    @APIResponse(responseCode = "404", content = @Content(schema = @Schema(ref = "Error")))
    public Response get(@PathParam("client_id") String clientId) {
        return service.find(clientId)
                .map(c -> Response.ok(describe(c).build().toString()).build())
                .orElseThrow(ClientAdminResource::notFound);
    }

    @PATCH
    @Path("{client_id}")
    @Consumes({JsonObjects.MERGE_PATCH, MediaType.APPLICATION_JSON})
    @Operation(summary = "Change a client application (JSON merge patch)",
            description = "Fields: client_name, redirect_uris, post_logout_redirect_uris (null removes them), scopes, "
                    + "skip_consent, require_mfa, require_pushed_authorization_requests, require_signed_request_object, "
                    + "dpop_bound_access_tokens, enabled, confidential, grant_types, backchannel_logout_uri and "
                    + "frontchannel_logout_uri (null removes them), backchannel_logout_session_required, "
                    + "frontchannel_logout_session_required, id_token_claims; validated as at registration. "
                    + "enabled=false "
                    + "refuses the client at the authorization and token endpoints and revokes every token issued to "
                    + "it. The type changes only when confidential is sent with the other value: made confidential, "
                    + "the answer carries the new client_secret, once; made public, the secret is deleted and every "
                    + "token issued to the client is revoked. Unknown fields and wrong types answer 400.")
    @RequestBody(content = @Content(mediaType = JsonObjects.MERGE_PATCH, schema = @Schema(ref = "ClientPatch")))
    @APIResponse(responseCode = "200", content = @Content(schema = @Schema(ref = "Client")))
    @APIResponse(responseCode = "400", content = @Content(schema = @Schema(ref = "Error")))
    @APIResponse(responseCode = "404", content = @Content(schema = @Schema(ref = "Error")))
    @APIResponse(responseCode = "409", description = "A built-in client cannot be disabled or made confidential",
            content = @Content(schema = @Schema(ref = "Error")))
    public Response patch(@PathParam("client_id") String clientId, String body) {
        FieldValues v = ClientSchema.SCHEMA.readPatch(body);
        ClientService.ClientPatch patch = common(ClientService.ClientPatch.patch(), v).enabled(v.bool(ENABLED))
                .build();
        return service.update(clientId, patch, actor())
                .map(u -> withSecret(200, u.client(), u.secret()).build())
                .orElseThrow(ClientAdminResource::notFound);
    }

    @DELETE
    @Path("{client_id}")
    @Operation(summary = "Delete a client application and revoke all its codes and tokens")
    @APIResponse(responseCode = "204", description = "Deleted")
    @APIResponse(responseCode = "409", description = BUILT_IN_CLIENT,
            content = @Content(schema = @Schema(ref = "Error")))
    @APIResponse(responseCode = "404", content = @Content(schema = @Schema(ref = "Error")))
    public Response delete(@PathParam("client_id") String clientId) {
        if (!service.delete(clientId, actor())) {
            throw notFound();
        }
        return Response.noContent().build();
    }

    @POST
    @Path("{client_id}/secret")
    @Operation(summary = "Rotate a confidential client's secret; returns the new secret once",
            description = "Optional JSON body {\"previous_secret_valid_for\": seconds} (1 to 2592000): the old "
                    + "secret keeps working that long; without it, the old secret stops at once. Unknown fields "
                    + "answer 400.")
    @RequestBody(required = false, content = @Content(schema = @Schema(ref = "SecretRotation")))
    @APIResponse(responseCode = "200", content = @Content(schema = @Schema(ref = "ClientSecret")))
    @APIResponse(responseCode = "400", description = "A public or private_key_jwt client has no secret; a bad body",
            content = @Content(schema = @Schema(ref = "Error")))
    @APIResponse(responseCode = "404", content = @Content(schema = @Schema(ref = "Error")))
    public Response rotateSecret(@PathParam("client_id") String clientId, @Context HttpHeaders headers, String body) {
        Duration overlap = null;
        if (body != null && !body.isBlank()) {
            MediaType type = headers.getMediaType();
            if (type == null || !type.isCompatible(MediaType.APPLICATION_JSON_TYPE)) {
                throw new Refusal(new Refusal.NotJson());
            }
            overlap = JsonObjects.parse(body, ROTATION_FIELDS)
                    .integer("previous_secret_valid_for", 1, ClientService.MAX_PREVIOUS_SECRET_VALIDITY.toSeconds())
                    .map(Duration::ofSeconds).orElse(null);
        }
        return service.rotateSecret(clientId, overlap, actor())
                .map(s -> {
                    JsonObjectBuilder out = JsonSupport.JSON.createObjectBuilder().add("client_id", clientId)
                            .add("client_secret", s);
                    service.find(clientId).flatMap(Client::previousSecretExpiresAt)
                            .ifPresent(t -> out.add("previous_secret_expires_at", t.getEpochSecond()));
                    return NoStoreJson.of(200, out.build().toString()).build();
                })
                .orElseThrow(ClientAdminResource::notFound);
    }

    static JsonObjectBuilder describe(Client c) {
        return ClientSchema.SCHEMA.write(c);
    }

    /** The client and, when just issued, its secret: shown once, so the answer is not stored. */
    private static Response.ResponseBuilder withSecret(int status, Client c, Optional<String> secret) {
        JsonObjectBuilder out = describe(c);
        secret.ifPresent(s -> out.add("client_secret", s));
        return NoStoreJson.of(status, out.build().toString());
    }

    /** The members a registration and a merge patch name alike. */
    private static <B extends ClientService.ClientFieldsBuilder<B>> B common(B b, FieldValues v) {
        return b.name(v.string(CLIENT_NAME)).redirectUris(v.list(REDIRECT_URIS))
                .postLogoutRedirectUris(v.list(POST_LOGOUT_REDIRECT_URIS)).scopes(v.string(SCOPES))
                .grantTypes(v.list(GRANT_TYPES)).authMethod(v.string(AUTH_METHOD)).jwks(v.string(JWKS))
                .jwksUri(v.string(JWKS_URI)).logout(logoutFields(v)).confidential(v.bool(CONFIDENTIAL))
                .skipConsent(v.bool(SKIP_CONSENT)).requireMfa(v.bool(REQUIRE_MFA))
                .requirePushedRequests(v.bool(REQUIRE_PAR))
                .requireSignedRequests(v.bool(REQUIRE_JAR)).dpopBoundAccessTokens(v.bool(DPOP_BOUND)).idTokenClaims(v.bool(ID_TOKEN_CLAIMS));
    }

    /** The logout notification members of a registration or merge patch (a URI's null removes it). */
    private static LogoutNotifications.Change logoutFields(FieldValues v) {
        return new LogoutNotifications.Change(v.removable(BACKCHANNEL_URI), v.bool(BACKCHANNEL_SESSION),
                v.removable(FRONTCHANNEL_URI), v.bool(FRONTCHANNEL_SESSION));
    }

    private Actor actor() {
        return Actor.adminToken(clientAddress.of(request));
    }

    private static Refusal notFound() {
        return Refusal.notFound(Refusal.Thing.CLIENT);
    }

}
