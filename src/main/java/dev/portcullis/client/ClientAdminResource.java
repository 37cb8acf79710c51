package dev.portcullis.client;

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
import java.io.StringReader;
import java.time.Duration;
import java.util.List;
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

    /** The client metadata of Back-Channel and Front-Channel Logout 1.0, by their registration names. */
    private static final String BACKCHANNEL_URI = "backchannel_logout_uri";
    private static final String BACKCHANNEL_SESSION = "backchannel_logout_session_required";
    private static final String FRONTCHANNEL_URI = "frontchannel_logout_uri";
    private static final String FRONTCHANNEL_SESSION = "frontchannel_logout_session_required";
    /** RFC 9126 6. */
    private static final String REQUIRE_PAR = "require_pushed_authorization_requests";
    /** RFC 9449 5.2. */
    private static final String DPOP_BOUND = "dpop_bound_access_tokens";

    private static final Set<String> FIELDS = Set.of("client_name", "redirect_uris", "post_logout_redirect_uris",
            "confidential", "scopes", "skip_consent", "require_mfa", REQUIRE_PAR, "grant_types",
            "token_endpoint_auth_method", "jwks", "jwks_uri", BACKCHANNEL_URI, BACKCHANNEL_SESSION, FRONTCHANNEL_URI,
            FRONTCHANNEL_SESSION, "id_token_claims", DPOP_BOUND);

    /** A merge patch's fields (RFC 7396): the registration's, and enabled. */
    private static final Set<String> PATCH_FIELDS = Set.of("client_name", "redirect_uris", "post_logout_redirect_uris",
            "confidential", "scopes", "skip_consent", "require_mfa", REQUIRE_PAR, "enabled", "grant_types",
            "token_endpoint_auth_method", "jwks", "jwks_uri", BACKCHANNEL_URI, BACKCHANNEL_SESSION, FRONTCHANNEL_URI,
            FRONTCHANNEL_SESSION, "id_token_claims", DPOP_BOUND);

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
        JsonObjects json = JsonObjects.parse(body, FIELDS);
        var registered = service.register(ClientService.Registration.builder()
                .name(json.requiredString("client_name", 1000))
                .redirectUris(json.stringList("redirect_uris", 100, 4000).orElse(List.of()))
                .postLogoutRedirectUris(json.stringList("post_logout_redirect_uris", 100, 4000).orElse(List.of()))
                .confidential(json.bool("confidential").orElse(null))
                .scopes(json.requiredString("scopes", 1000))
                .skipConsent(json.bool("skip_consent").orElse(false))
                .requireMfa(json.bool("require_mfa").orElse(false))
                .requirePushedRequests(json.bool(REQUIRE_PAR).orElse(false))
                .idTokenClaims(json.bool("id_token_claims").orElse(false))
                .dpopBoundAccessTokens(json.bool(DPOP_BOUND).orElse(false))
                .grantTypes(json.stringList("grant_types", 10, 100).orElse(null))
                .authMethod(json.string("token_endpoint_auth_method", 100).orElse(null))
                .jwks(json.objectText("jwks", ClientJwksRules.MAX_JWKS_CHARS).orElse(null))
                .jwksUri(json.string("jwks_uri", 4000).orElse(null))
                .logout(logoutFields(json)).build(), actor());
        JsonObjectBuilder out = describe(registered.client());
        registered.secret().ifPresent(s -> out.add("client_secret", s));
        return NoStoreJson.of(201, out.build().toString())
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
                    + "skip_consent, require_mfa, require_pushed_authorization_requests, dpop_bound_access_tokens, enabled, confidential, grant_types, backchannel_logout_uri and "
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
        JsonObjects json = JsonObjects.parse(body, PATCH_FIELDS);
        for (String field : List.of("client_name", "redirect_uris", "scopes", "skip_consent", "confidential",
                "enabled", "require_mfa", REQUIRE_PAR, "grant_types", "token_endpoint_auth_method", BACKCHANNEL_SESSION,
                FRONTCHANNEL_SESSION, "id_token_claims", DPOP_BOUND)) {
            if (json.has(field) && json.isNull(field)) {
                throw Refusal.invalid(field, "cannot be removed (null)");
            }
        }
        ClientService.ClientPatch patch = ClientService.ClientPatch.patch()
                .name(json.string("client_name", 1000).orElse(null))
                .redirectUris(json.stringList("redirect_uris", 100, 4000).orElse(null))
                .postLogoutRedirectUris(json.has("post_logout_redirect_uris")
                        ? json.stringList("post_logout_redirect_uris", 100, 4000).orElse(List.of()) : null)
                .scopes(json.string("scopes", 1000).orElse(null))
                .skipConsent(json.bool("skip_consent").orElse(null))
                .confidential(json.bool("confidential").orElse(null))
                .enabled(json.bool("enabled").orElse(null))
                .requireMfa(json.bool("require_mfa").orElse(null))
                .requirePushedRequests(json.bool(REQUIRE_PAR).orElse(null))
                .idTokenClaims(json.bool("id_token_claims").orElse(null))
                .dpopBoundAccessTokens(json.bool(DPOP_BOUND).orElse(null))
                .grantTypes(json.stringList("grant_types", 10, 100).orElse(null))
                .authMethod(json.string("token_endpoint_auth_method", 100).orElse(null))
                .jwks(json.has("jwks") ? json.objectText("jwks", ClientJwksRules.MAX_JWKS_CHARS).orElse("") : null)
                .jwksUri(json.has("jwks_uri") ? json.string("jwks_uri", 4000).orElse("") : null)
                .logout(logoutFields(json))
                .build();
        return service.update(clientId, patch, actor())
                .map(u -> {
                    JsonObjectBuilder out = describe(u.client());
                    u.secret().ifPresent(s -> out.add("client_secret", s));
                    return NoStoreJson.of(200, out.build().toString()).build();
                })
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
        JsonArrayBuilder uris = JsonSupport.JSON.createArrayBuilder();
        c.redirectUris().forEach(uris::add);
        JsonArrayBuilder logout = JsonSupport.JSON.createArrayBuilder();
        c.postLogoutRedirectUris().forEach(logout::add);
        JsonArrayBuilder grantTypes = JsonSupport.JSON.createArrayBuilder();
        c.grantTypes().forEach(grantTypes::add);
        JsonObjectBuilder out = JsonSupport.JSON.createObjectBuilder()
                .add("client_id", c.clientId())
                .add("client_name", c.name())
                .add("confidential", c.confidential())
                .add("redirect_uris", uris)
                .add("post_logout_redirect_uris", logout)
                .add("scopes", c.scopes())
                .add("skip_consent", c.skipConsent())
                .add("enabled", c.enabled())
                .add("require_mfa", c.requireMfa())
                .add(REQUIRE_PAR, c.requirePushedAuthorizationRequests())
                .add(DPOP_BOUND, c.dpopBoundAccessTokens())
                .add("id_token_claims", c.idTokenClaims())
                .add("grant_types", grantTypes)
                .add("token_endpoint_auth_method", c.authMethod())
                .add("created_at", c.createdAt().getEpochSecond());
        if (c.jwks() != null) {
            out.add("jwks", JsonSupport.JSON.createReader(new StringReader(c.jwks())).readObject());
        }
        if (c.jwksUri() != null) {
            out.add("jwks_uri", c.jwksUri());
        }
        c.previousSecretExpiresAt().ifPresent(t -> out.add("previous_secret_expires_at", t.getEpochSecond()));
        LogoutNotifications n = c.logoutNotifications();
        if (n.backchannelUri() != null) {
            out.add(BACKCHANNEL_URI, n.backchannelUri());
        }
        out.add(BACKCHANNEL_SESSION, n.backchannelSessionRequired());
        if (n.frontchannelUri() != null) {
            out.add(FRONTCHANNEL_URI, n.frontchannelUri());
        }
        return out.add(FRONTCHANNEL_SESSION, n.frontchannelSessionRequired());
    }

    /** The logout notification members of a registration or merge patch (a URI's null removes it). */
    private static LogoutNotifications.Change logoutFields(JsonObjects json) {
        return new LogoutNotifications.Change(json.removableString(BACKCHANNEL_URI, RedirectUriPolicy.MAX_LENGTH),
                json.bool(BACKCHANNEL_SESSION).orElse(null),
                json.removableString(FRONTCHANNEL_URI, RedirectUriPolicy.MAX_LENGTH),
                json.bool(FRONTCHANNEL_SESSION).orElse(null));
    }

    private Actor actor() {
        return Actor.adminToken(clientAddress.of(request));
    }

    private static Refusal notFound() {
        return Refusal.notFound(Refusal.Thing.CLIENT);
    }

}
