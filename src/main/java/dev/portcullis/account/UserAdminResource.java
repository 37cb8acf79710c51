package dev.portcullis.account;

import dev.portcullis.admin.Refusal;
import dev.portcullis.audit.Actor;
import dev.portcullis.protocol.ClientAddress;
import dev.portcullis.protocol.JsonObjects;
import dev.portcullis.protocol.JsonSupport;
import dev.portcullis.protocol.Paging;
import dev.portcullis.protocol.Username;
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
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.parameters.RequestBody;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirement;

/**
 * {@code /admin/users}: create, search, inspect, change (JSON merge patch), unlock and delete users, set their
 * passwords. Password hashes never leave. Every change is audited with the admin token as its actor.
 */
@Path("users")
@RequestScoped
@Produces(MediaType.APPLICATION_JSON)
@SecurityRequirement(name = "adminToken")
public class UserAdminResource {

    @Inject
    UserAdminService service;

    @Inject
    UserLookupService users;

    @Inject
    CredentialService credentials;

    @Inject
    ClientAddress clientAddress;

    @Context
    HttpServletRequest request;

    /** A merge patch's fields (RFC 7396); anything else is refused. */
    private static final Set<String> PATCH_FIELDS = fields("email", "name", "enabled", "roles", "groups");

    /** The fields of a new user. */
    private static final Set<String> NEW_FIELDS = fields("username", "password", "email", "name", "groups");

    /** {@code base} and the standard claims (OIDC Core 5.1) an administrator sets. */
    private static Set<String> fields(String... base) {
        Set<String> all = new TreeSet<>(List.of(base));
        all.addAll(StandardClaims.TEXTS);
        all.add(StandardClaims.ADDRESS);
        all.add(StandardClaims.PHONE_NUMBER_VERIFIED);
        return Set.copyOf(all);
    }

    @GET
    @Operation(summary = "List and search users, paged by username",
            description = "q: text contained in the username, e-mail or name, in any case (% and _ match "
                    + "themselves). A full page carries next_after: pass it as after for the next page.")
    @APIResponse(responseCode = "200", content = @Content(schema = @Schema(ref = "UserPage")))
    @APIResponse(responseCode = "400", description = "Bad q, limit or after",
            content = @Content(schema = @Schema(ref = "Error")))
    public String list(@Parameter(description = "search text, at most 200 characters") @QueryParam("q") String q,
                       @Parameter(description = "1 to 500, default 100") @QueryParam("limit") String limit,
                       @Parameter(description = "next_after of the previous page") @QueryParam("after") String after) {
        int max = Paging.limit(limit, 500);
        String from = after == null ? "" : after.toLowerCase(java.util.Locale.ROOT);
        if (!from.isEmpty() && !Username.isWellFormed(from)) {
            throw Refusal.invalid("after", "must be a username (next_after of the previous page)");
        }
        List<User> page = users.search(q, from, max);
        JsonArrayBuilder a = JsonSupport.JSON.createArrayBuilder();
        page.forEach(u -> a.add(describe(u)));
        JsonObjectBuilder out = JsonSupport.JSON.createObjectBuilder().add("users", a);
        if (page.size() == max) {
            out.add("next_after", page.get(page.size() - 1).username());
        }
        return out.build().toString();
    }

    @PATCH
    @Path("{username}")
    @Consumes({JsonObjects.MERGE_PATCH, MediaType.APPLICATION_JSON})
    @Operation(summary = "Change a user (JSON merge patch)",
            description = "Fields: email, name and the standard claims (given_name ... phone_number; null removes "
                    + "one; address is merged member by member, null removes it; given_name and family_name are "
                    + "refused for a directory user), phone_number_verified, enabled, roles (replaces the set; null: none), "
                    + "groups (a local user's group names; replaces the set; null: none; refused for a directory "
                    + "user). "
                    + "enabled=false ends the user's SSO sessions and revokes every token family at once; they "
                    + "can no longer sign in. Unknown fields and wrong types answer 400.")
    @RequestBody(content = @Content(mediaType = JsonObjects.MERGE_PATCH, schema = @Schema(ref = "UserPatch")))
    @APIResponse(responseCode = "200", content = @Content(schema = @Schema(ref = "User")))
    @APIResponse(responseCode = "400", content = @Content(schema = @Schema(ref = "Error")))
    @APIResponse(responseCode = "404", content = @Content(schema = @Schema(ref = "Error")))
    public Response patch(@PathParam("username") String username, String body) {
        JsonObjects json = JsonObjects.parse(body, PATCH_FIELDS);
        if (json.isNull("enabled")) {
            throw Refusal.invalid("enabled", "cannot be removed (null)");
        }
        Set<String> roles = null;
        if (json.has("roles")) {
            roles = new TreeSet<>(json.stringList("roles", 20, 50).orElse(List.of()));
        }
        List<String> groups = json.has("groups") ? groups(json).orElse(List.of()) : null;
        UserAdminService.UserPatch patch = UserAdminService.UserPatch.patch().email(json.removableString("email", 1000))
                .name(json.removableString("name", 1000)).enabled(json.bool("enabled").orElse(null)).roles(roles)
                .groups(groups).claims(claims(json)).build();
        return service.update(username, patch, actor())
                .map(u -> Response.ok(describe(u).build().toString()).build())
                .orElseThrow(UserAdminResource::notFound);
    }

    @POST
    @Path("{username}/unlock")
    @Operation(summary = "Unlock a throttled account",
            description = "Clears the account's failed sign-in count, ending a lock or slowdown at once.")
    @APIResponse(responseCode = "204", description = "Unlocked (or was not throttled)")
    @APIResponse(responseCode = "404", content = @Content(schema = @Schema(ref = "Error")))
    public Response unlock(@PathParam("username") String username) {
        return noContentIf(service.unlock(username, actor()));
    }

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(summary = "Create a user", description = "Username is case-insensitive and stored lower-case; "
            + "duplicate usernames answer 409. groups: the user's group names (optional); the standard claims "
            + "as in the User schema (optional).")
    @RequestBody(content = @Content(schema = @Schema(ref = "NewUser")))
    @APIResponse(responseCode = "201", content = @Content(schema = @Schema(ref = "User")))
    @APIResponse(responseCode = "409", content = @Content(schema = @Schema(ref = "Error")))
    public Response create(String body) {
        JsonObjects json = JsonObjects.parse(body, NEW_FIELDS);
        User u = service.create(new UserAdminService.NewUser(
                json.requiredString("username", 1000),
                json.string("password", 100_000).orElse(null),
                json.string("email", 1000).orElse(null),
                json.string("name", 1000).orElse(null),
                groups(json).orElse(List.of()), claims(json)), actor());
        return Response.status(201).header("Location", "/admin/users/" + u.username())
                .entity(describe(u).build().toString()).build();
    }

    @GET
    @Path("{username}")
    @Operation(summary = "Show one user")
    @APIResponse(responseCode = "200", content = @Content(schema = @Schema(ref = "User")))
    @APIResponse(responseCode = "404", content = @Content(schema = @Schema(ref = "Error")))
    public Response get(@PathParam("username") String username) {
        return users.findByUsername(username)
                .map(u -> Response.ok(describe(u).build().toString()).build())
                .orElseThrow(UserAdminResource::notFound);
    }

    @DELETE
    @Path("{username}")
    @Operation(summary = "Delete a user, end their sessions and revoke all their tokens")
    @APIResponse(responseCode = "204", description = "Deleted")
    @APIResponse(responseCode = "404", content = @Content(schema = @Schema(ref = "Error")))
    public Response delete(@PathParam("username") String username) {
        return noContentIf(service.delete(username, actor()));
    }

    @PUT
    @Path("{username}/password")
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(summary = "Set a user's password, end their sessions and revoke all their tokens",
            description = "Body: {\"password\": \"...\"} (8 to 1024 characters). The administrator's reset.")
    @RequestBody(content = @Content(schema = @Schema(ref = "Password")))
    @APIResponse(responseCode = "204", description = "Set")
    @APIResponse(responseCode = "404", content = @Content(schema = @Schema(ref = "Error")))
    public Response setPassword(@PathParam("username") String username, String body) {
        JsonObjects json = JsonObjects.parse(body, Set.of("password"));
        return noContentIf(credentials.setPassword(username, json.string("password", 100_000).orElse(null), actor()));
    }

    /** The array's shape only, bounded for parsing; the service checks the names and their number. */
    private static Optional<List<String>> groups(JsonObjects json) {
        return json.stringList("groups", 1000, 1000);
    }

    /**
     * The standard claims a request names, bounded for parsing (the service checks each against its rule); absent
     * ones are not named, null removes one.
     */
    static ClaimChanges claims(JsonObjects json) {
        Map<String, Optional<String>> texts = new LinkedHashMap<>();
        for (String claim : StandardClaims.TEXTS) {
            Optional<String> value = json.removableString(claim, StandardClaims.maxLength(claim));
            if (value != null) {
                texts.put(claim, value);
            }
        }
        Optional<JsonObjects> address = json.removableObject(StandardClaims.ADDRESS,
                Set.copyOf(StandardClaims.ADDRESS_MEMBERS));
        if (address != null) {
            for (String member : StandardClaims.ADDRESS_MEMBERS) {
                Optional<String> value = address.isEmpty() ? Optional.empty()
                        : address.get().removableLines(member, StandardClaims.maxLength(member));
                if (value != null) {
                    texts.put(StandardClaims.ADDRESS + "." + member, value);
                }
            }
        }
        if (json.isNull(StandardClaims.PHONE_NUMBER_VERIFIED)) {
            throw Refusal.invalid(StandardClaims.PHONE_NUMBER_VERIFIED, "cannot be removed (null)");
        }
        return new ClaimChanges(texts, json.bool(StandardClaims.PHONE_NUMBER_VERIFIED).orElse(null));
    }

    static JsonObjectBuilder describe(User u) {
        JsonObjectBuilder b = JsonSupport.JSON.createObjectBuilder()
                .add("user_id", u.userId())
                .add("username", u.username())
                .add("enabled", u.enabled())
                .add("roles", JsonSupport.JSON.createArrayBuilder(u.roles()))
                .add("created_at", u.createdAt().getEpochSecond());
        if (u.email() != null) {
            b.add("email", u.email());
        }
        if (u.name() != null) {
            b.add("name", u.name());
        }
        for (String claim : StandardClaims.TEXTS) {
            String value = u.claim(claim);
            if (value != null) {
                b.add(claim, value);
            }
        }
        b.add(StandardClaims.PHONE_NUMBER_VERIFIED, u.phoneNumberVerified());
        Map<String, String> address = u.address();
        if (!address.isEmpty()) {
            JsonObjectBuilder a = JsonSupport.JSON.createObjectBuilder();
            address.forEach(a::add);
            b.add(StandardClaims.ADDRESS, a);
        }
        b.add("updated_at", u.profileUpdatedAt().getEpochSecond());
        b.add("source", u.source());
        if (!u.fromDirectory()) {
            b.add("groups", JsonSupport.JSON.createArrayBuilder(u.groups()));
        }
        if (u.directoryDn() != null) {
            b.add("dn", u.directoryDn());
        }
        return b;
    }

    private Actor actor() {
        return Actor.adminToken(clientAddress.of(request));
    }

    /** 204 when the user was there, else 404. */
    private static Response noContentIf(boolean found) {
        if (!found) {
            throw notFound();
        }
        return Response.noContent().build();
    }

    private static Refusal notFound() {
        return Refusal.notFound(Refusal.Thing.USER);
    }
}
