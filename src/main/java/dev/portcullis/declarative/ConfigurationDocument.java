package dev.portcullis.declarative;

import dev.portcullis.account.User;
import dev.portcullis.account.UserLookupService;
import dev.portcullis.api.Api;
import dev.portcullis.api.ApiService;
import dev.portcullis.client.BuiltInClients;
import dev.portcullis.client.Client;
import dev.portcullis.client.ClientService;
import dev.portcullis.client.LogoutNotifications;
import dev.portcullis.protocol.JsonSupport;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonValue;
import java.io.StringReader;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The configuration document of what is registered, in the admin API's shapes: clients (built-in ones aside) without
 * secrets, APIs without their generated ids, and the local users' groups with their members. Exported by
 * {@code GET /admin/config} and compared field by field with a document being applied.
 */
@ApplicationScoped
public class ConfigurationDocument {

    static final String BACKCHANNEL_URI = "backchannel_logout_uri";
    static final String BACKCHANNEL_SESSION = "backchannel_logout_session_required";
    static final String FRONTCHANNEL_URI = "frontchannel_logout_uri";
    static final String FRONTCHANNEL_SESSION = "frontchannel_logout_session_required";
    static final String REQUIRE_PAR = "require_pushed_authorization_requests";
    static final String REQUIRE_JAR = "require_signed_request_object";
    static final String DPOP_BOUND = "dpop_bound_access_tokens";

    private static final int PAGE = 500;

    @Inject
    ClientService clients;

    @Inject
    ApiService apis;

    @Inject
    UserLookupService users;

    /** The whole document. */
    public JsonObject export() {
        JsonArrayBuilder apiArray = JsonSupport.JSON.createArrayBuilder();
        apis.list().forEach(a -> apiArray.add(api(a)));
        JsonArrayBuilder clientArray = JsonSupport.JSON.createArrayBuilder();
        allClients().stream().filter(c -> !BuiltInClients.isBuiltIn(c.clientId())).forEach(c -> clientArray.add(client(c)));
        JsonArrayBuilder groupArray = JsonSupport.JSON.createArrayBuilder();
        groups().forEach((name, members) -> {
            JsonArrayBuilder m = JsonSupport.JSON.createArrayBuilder();
            members.forEach(m::add);
            groupArray.add(JsonSupport.JSON.createObjectBuilder().add("name", name).add("members", m));
        });
        return JsonSupport.JSON.createObjectBuilder().add("apis", apiArray).add("clients", clientArray)
                .add("groups", groupArray).build();
    }

    List<Client> allClients() {
        List<Client> all = new ArrayList<>();
        for (int offset = 0;; offset += PAGE) {
            List<Client> page = clients.list(offset, PAGE);
            all.addAll(page);
            if (page.size() < PAGE) {
                return all;
            }
        }
    }

    /** Every local user, in username order. */
    List<User> localUsers() {
        List<User> all = new ArrayList<>();
        String after = null;
        while (true) {
            List<User> page = users.search(null, after, PAGE);
            page.stream().filter(u -> !u.fromDirectory()).forEach(all::add);
            if (page.size() < PAGE) {
                return all;
            }
            after = page.get(page.size() - 1).username();
        }
    }

    /** Group name → its local members' usernames, both sorted. */
    Map<String, Set<String>> groups() {
        Map<String, Set<String>> groups = new TreeMap<>();
        for (User u : localUsers()) {
            for (String g : u.groups()) {
                groups.computeIfAbsent(g, k -> new TreeSet<>()).add(u.username());
            }
        }
        return groups;
    }

    static JsonObject client(Client c) {
        JsonArrayBuilder uris = JsonSupport.JSON.createArrayBuilder();
        c.redirectUris().forEach(uris::add);
        JsonArrayBuilder logout = JsonSupport.JSON.createArrayBuilder();
        c.postLogoutRedirectUris().forEach(logout::add);
        JsonArrayBuilder grantTypes = JsonSupport.JSON.createArrayBuilder();
        new TreeSet<>(c.grantTypes()).forEach(grantTypes::add);
        JsonObjectBuilder out = JsonSupport.JSON.createObjectBuilder()
                .add("client_id", c.clientId())
                .add("client_name", c.name())
                .add("confidential", c.confidential())
                .add("enabled", c.enabled())
                .add("redirect_uris", uris)
                .add("post_logout_redirect_uris", logout)
                .add("scopes", c.scopes())
                .add("skip_consent", c.skipConsent())
                .add("require_mfa", c.requireMfa())
                .add(REQUIRE_PAR, c.requirePushedAuthorizationRequests())
                .add(REQUIRE_JAR, c.requireSignedRequestObject())
                .add(DPOP_BOUND, c.dpopBoundAccessTokens())
                .add("id_token_claims", c.idTokenClaims())
                .add("grant_types", grantTypes);
        if (c.authMethodChosen()) {
            out.add("token_endpoint_auth_method", c.authMethod());
        }
        if (c.jwks() != null) {
            out.add("jwks", JsonSupport.JSON.createReader(new StringReader(c.jwks())).readObject());
        }
        if (c.jwksUri() != null) {
            out.add("jwks_uri", c.jwksUri());
        }
        LogoutNotifications n = c.logoutNotifications();
        if (n.backchannelUri() != null) {
            out.add(BACKCHANNEL_URI, n.backchannelUri());
        }
        out.add(BACKCHANNEL_SESSION, n.backchannelSessionRequired());
        if (n.frontchannelUri() != null) {
            out.add(FRONTCHANNEL_URI, n.frontchannelUri());
        }
        return out.add(FRONTCHANNEL_SESSION, n.frontchannelSessionRequired()).build();
    }

    static JsonObject api(Api api) {
        JsonArrayBuilder scopes = JsonSupport.JSON.createArrayBuilder();
        new TreeSet<>(api.scopes()).forEach(scopes::add);
        JsonArrayBuilder exchange = JsonSupport.JSON.createArrayBuilder();
        new TreeSet<>(api.exchangeScopes()).forEach(exchange::add);
        JsonObjectBuilder b = JsonSupport.JSON.createObjectBuilder()
                .add("identifier", api.identifier())
                .add("name", api.name())
                .add("scopes", scopes);
        api.accessTokenSigningAlg().ifPresentOrElse(alg -> b.add("access_token_signing_alg", alg),
                () -> b.addNull("access_token_signing_alg"));
        b.add("access_token_typ", api.accessTokenTyp());
        api.backendClientId().ifPresentOrElse(c -> b.add("backend_client_id", c),
                () -> b.addNull("backend_client_id"));
        return b.add("exchange_scopes", exchange).build();
    }

    /**
     * The fields of {@code wanted} (a document's item) whose values differ from {@code current} (an exported item):
     * lists of scopes and grant types compare as sets, an absent value equals null.
     */
    static List<String> differences(JsonObject wanted, JsonObject current, Set<String> ignored) {
        List<String> changed = new ArrayList<>();
        for (String field : wanted.keySet()) {
            if (ignored.contains(field)) {
                continue;
            }
            if (!normal(field, wanted.get(field)).equals(normal(field, current.get(field)))) {
                changed.add(field);
            }
        }
        return changed;
    }

    private static Object normal(String field, JsonValue v) {
        if (v == null || v.getValueType() == JsonValue.ValueType.NULL) {
            return "null";
        }
        if (field.equals("scopes") && v.getValueType() == JsonValue.ValueType.STRING) {
            return new TreeSet<>(List.of(((jakarta.json.JsonString) v).getString().trim().split("\\s+")));
        }
        if ((field.equals("scopes") || field.equals("grant_types") || field.equals("exchange_scopes"))
                && v.getValueType() == JsonValue.ValueType.ARRAY) {
            Set<String> set = new TreeSet<>();
            v.asJsonArray().forEach(e -> set.add(e.toString()));
            return set;
        }
        return v;
    }
}
