package dev.portcullis.declarative;

import static dev.portcullis.declarative.ConfigurationDocument.BACKCHANNEL_SESSION;
import static dev.portcullis.declarative.ConfigurationDocument.BACKCHANNEL_URI;
import static dev.portcullis.declarative.ConfigurationDocument.FRONTCHANNEL_SESSION;
import static dev.portcullis.declarative.ConfigurationDocument.FRONTCHANNEL_URI;
import static dev.portcullis.declarative.ConfigurationDocument.DPOP_BOUND;
import static dev.portcullis.declarative.ConfigurationDocument.REQUIRE_JAR;
import static dev.portcullis.declarative.ConfigurationDocument.REQUIRE_PAR;

import dev.portcullis.account.User;
import dev.portcullis.account.UserAdminService;
import dev.portcullis.admin.Refusal;
import dev.portcullis.api.Api;
import dev.portcullis.api.ApiService;
import dev.portcullis.audit.Actor;
import dev.portcullis.client.BuiltInClients;
import dev.portcullis.client.Client;
import dev.portcullis.client.ClientService;
import dev.portcullis.client.LogoutNotifications;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import jakarta.transaction.Transactional;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * Applies a configuration document in one transaction, under the configuration lock, through the services' own change
 * methods (each validates and audits what it changes); an item that already is as the document says is not touched,
 * so applying the same document again changes and audits nothing. A dry run does the same work and rolls it back.
 */
@ApplicationScoped
public class ConfigurationApplier {

    static final Set<String> TOP = Set.of("prune", "apis", "clients", "groups");
    static final Set<String> CLIENT_FIELDS = Set.of("client_id", "client_secret", "client_name", "confidential",
            "enabled", "redirect_uris", "post_logout_redirect_uris", "scopes", "skip_consent", "require_mfa",
            REQUIRE_PAR, REQUIRE_JAR, DPOP_BOUND, "id_token_claims", "grant_types", "token_endpoint_auth_method", "jwks", "jwks_uri",
            BACKCHANNEL_URI, BACKCHANNEL_SESSION, FRONTCHANNEL_URI, FRONTCHANNEL_SESSION);
    static final Set<String> API_FIELDS = Set.of("identifier", "name", "scopes", "access_token_signing_alg",
            "access_token_typ", "backend_client_id", "exchange_scopes");
    static final Set<String> GROUP_FIELDS = Set.of("name", "members");
    /** The API fields applied after the clients, since they name clients and other APIs' scopes. */
    private static final Set<String> API_LINKS = Set.of("backend_client_id", "exchange_scopes");
    private static final Pattern CLIENT_ID = Pattern.compile("[A-Za-z0-9._~-]{1,64}");

    /** Thrown at the end of a dry run, so that the transaction rolls back; carries the plan. */
    static final class DryRun extends RuntimeException {
        private static final long serialVersionUID = 1L;
        final transient Plan plan;

        DryRun(Plan plan) {
            super(null, null, false, false);
            this.plan = plan;
        }
    }

    @Inject
    ConfigurationLockRepository lock;

    @Inject
    ConfigurationDocument current;

    @Inject
    ClientService clients;

    @Inject
    ApiService apis;

    @Inject
    UserAdminService userAdmin;

    @Inject
    Clock clock;

    /** How {@code ${env:NAME}} is resolved; the process environment, replaceable in unit tests. */
    Function<String, String> environment = System::getenv;

    /**
     * Applies {@code document} as {@code actor}'s change and answers what was done.
     *
     * @throws DocumentError naming the JSON path of the first value that cannot be applied (nothing is written)
     * @throws DryRun        for a dry run, after the plan is complete (nothing is written)
     */
    @Transactional
    public Plan apply(JsonObject document, boolean dryRun, Actor actor) {
        lock.lockForThisTransaction();
        DocumentItem top = DocumentItem.of("$", document, TOP);
        boolean prune = Boolean.TRUE.equals(top.bool("prune"));
        Plan plan = new Plan();
        List<DocumentItem> apiItems = items(top, "apis", API_FIELDS);
        List<DocumentItem> clientItems = items(top, "clients", CLIENT_FIELDS);
        List<DocumentItem> groupItems = items(top, "groups", GROUP_FIELDS);

        Map<String, Api> apisByIdentifier = new HashMap<>();
        apis.list().forEach(a -> apisByIdentifier.put(a.identifier(), a));
        Map<String, Api> declaredApis = new LinkedHashMap<>();
        Map<String, List<String>> apiChanges = new LinkedHashMap<>();
        Set<String> apiKeys = new TreeSet<>();
        for (DocumentItem item : apiItems) {
            String identifier = item.requiredString("identifier");
            unique(apiKeys, identifier, item.at("identifier"));
            Api existing = apisByIdentifier.get(identifier);
            List<String> changed = existing == null ? List.of()
                    : ConfigurationDocument.differences(item.json(), ConfigurationDocument.api(existing), Set.of());
            declaredApis.put(identifier, existing);
            apiChanges.put(identifier, changed);
            Api api = existing == null ? createApi(item, actor) : updateApi(item, existing, changed, false, actor);
            declaredApis.put(identifier, api);
        }

        Set<String> declaredClients = new TreeSet<>();
        for (DocumentItem item : clientItems) {
            String clientId = item.requiredString("client_id");
            if (!CLIENT_ID.matcher(clientId).matches()) {
                throw new DocumentError(item.at("client_id"), "must be 1 to 64 of the characters A-Z a-z 0-9 . _ ~ -");
            }
            if (BuiltInClients.isBuiltIn(clientId)) {
                throw new DocumentError(item.at("client_id"), "is a built-in client, which Portcullis registers itself");
            }
            unique(declaredClients, clientId, item.at("client_id"));
            applyClient(item, clientId, plan, actor);
        }

        for (DocumentItem item : apiItems) {
            String identifier = item.requiredString("identifier");
            Api api = declaredApis.get(identifier);
            List<String> changed = apiChanges.get(identifier);
            boolean created = !apisByIdentifier.containsKey(identifier);
            List<String> links = created ? ConfigurationDocument.differences(item.json(),
                    ConfigurationDocument.api(api), Set.of()) : changed;
            if (links.stream().anyMatch(API_LINKS::contains)) {
                updateApi(item, api, links, true, actor);
            }
            plan.add("api", identifier, created ? Plan.Action.CREATED
                    : changed.isEmpty() ? Plan.Action.UNCHANGED : Plan.Action.CHANGED, created ? List.of() : changed);
        }

        applyGroups(groupItems, prune, plan, actor);

        if (prune) {
            for (Client c : current.allClients()) {
                if (!BuiltInClients.isBuiltIn(c.clientId()) && !declaredClients.contains(c.clientId())) {
                    refusalAt("$.clients", () -> clients.delete(c.clientId(), actor));
                    plan.add("client", c.clientId(), Plan.Action.REMOVED, List.of());
                }
            }
            for (Api a : apis.list()) {
                if (!declaredApis.containsKey(a.identifier())) {
                    refusalAt("$.apis", () -> apis.delete(a.apiId(), actor));
                    plan.add("api", a.identifier(), Plan.Action.REMOVED, List.of());
                }
            }
        }
        if (dryRun) {
            throw new DryRun(plan);
        }
        return plan;
    }

    private static List<DocumentItem> items(DocumentItem top, String field, Set<String> fields) {
        JsonValue v = top.json().get(field);
        if (v == null || v.getValueType() == JsonValue.ValueType.NULL) {
            return List.of();
        }
        if (v.getValueType() != JsonValue.ValueType.ARRAY) {
            throw new DocumentError(top.at(field), "must be an array");
        }
        JsonArray a = v.asJsonArray();
        List<DocumentItem> out = new ArrayList<>();
        for (int i = 0; i < a.size(); i++) {
            out.add(DocumentItem.of(top.at(field) + "[" + i + "]", a.get(i), fields));
        }
        return out;
    }

    private static void unique(Set<String> seen, String key, String path) {
        if (!seen.add(key)) {
            throw new DocumentError(path, "is named twice in the document");
        }
    }

    private Api createApi(DocumentItem item, Actor actor) {
        return refusalAt(item.path(), () -> apis.register(new ApiService.Registration(item.requiredString("identifier"),
                item.requiredString("name"), Optional.ofNullable(item.strings("scopes")).orElse(List.of()),
                item.string("access_token_signing_alg"), null, null, item.string("access_token_typ")), actor));
    }

    /** Applies the changed fields of an API: its own first, its links to clients and other APIs in {@code links}. */
    private Api updateApi(DocumentItem item, Api api, List<String> changed, boolean links, Actor actor) {
        List<String> fields = changed.stream().filter(f -> API_LINKS.contains(f) == links).toList();
        if (fields.isEmpty()) {
            return api;
        }
        boolean clearAlg = fields.contains("access_token_signing_alg") && item.isNull("access_token_signing_alg");
        boolean clearBackend = fields.contains("backend_client_id") && item.isNull("backend_client_id");
        ApiService.ApiPatch patch = new ApiService.ApiPatch(
                fields.contains("identifier") ? item.string("identifier") : null,
                fields.contains("name") ? item.requiredString("name") : null,
                fields.contains("scopes") ? item.strings("scopes") : null,
                fields.contains("access_token_signing_alg") ? item.string("access_token_signing_alg") : null,
                clearAlg,
                fields.contains("backend_client_id") ? item.string("backend_client_id") : null,
                clearBackend,
                fields.contains("exchange_scopes")
                        ? Optional.ofNullable(item.strings("exchange_scopes")).orElse(List.of()) : null,
                fields.contains("access_token_typ") ? item.requiredString("access_token_typ") : null);
        return refusalAt(item.path(), () -> apis.update(api.apiId(), patch, actor)).orElseThrow();
    }

    private void applyClient(DocumentItem item, String clientId, Plan plan, Actor actor) {
        String secret = item.has("client_secret") && !item.isNull("client_secret")
                ? SecretReference.resolve(item.at("client_secret"), item.string("client_secret"), environment) : null;
        Client existing = clients.find(clientId).orElse(null);
        if (existing == null) {
            ClientService.Registration r = ClientService.Registration.builder()
                    .name(item.requiredString("client_name"))
                    .redirectUris(Optional.ofNullable(item.strings("redirect_uris")).orElse(List.of()))
                    .postLogoutRedirectUris(Optional.ofNullable(item.strings("post_logout_redirect_uris"))
                            .orElse(List.of()))
                    .confidential(item.bool("confidential"))
                    .scopes(item.requiredString("scopes"))
                    .skipConsent(Boolean.TRUE.equals(item.bool("skip_consent")))
                    .requireMfa(Boolean.TRUE.equals(item.bool("require_mfa")))
                    .requirePushedRequests(Boolean.TRUE.equals(item.bool(REQUIRE_PAR)))
                    .requireSignedRequests(Boolean.TRUE.equals(item.bool(REQUIRE_JAR)))
                    .dpopBoundAccessTokens(Boolean.TRUE.equals(item.bool(DPOP_BOUND)))
                    .idTokenClaims(Boolean.TRUE.equals(item.bool("id_token_claims")))
                    .grantTypes(item.strings("grant_types"))
                    .authMethod(item.string("token_endpoint_auth_method"))
                    .jwks(item.objectText("jwks"))
                    .jwksUri(item.string("jwks_uri"))
                    .logout(logout(item, Set.of(BACKCHANNEL_URI, BACKCHANNEL_SESSION, FRONTCHANNEL_URI,
                            FRONTCHANNEL_SESSION)))
                    .build();
            ClientService.Registered created = refusalAt(item.path(),
                    () -> clients.registerDeclared(clientId, r, secret, actor));
            if (secret != null && (!created.client().confidential()
                    || "private_key_jwt".equals(created.client().authMethod()))) {
                throw new DocumentError(item.at("client_secret"), "a public or private_key_jwt client has no secret");
            }
            if (Boolean.FALSE.equals(item.bool("enabled"))) {
                refusalAt(item.path(), () -> clients.update(clientId,
                        ClientService.ClientPatch.patch().enabled(false).build(), actor));
            }
            plan.add("client", clientId, Plan.Action.CREATED, List.of());
            return;
        }
        List<String> changed = new ArrayList<>(ConfigurationDocument.differences(item.json(),
                ConfigurationDocument.client(existing), Set.of("client_id", "client_secret")));
        if (!changed.isEmpty()) {
            ClientService.ClientPatch.Builder p = ClientService.ClientPatch.patch();
            for (String f : changed) {
                switch (f) {
                    case "client_name" -> p.name(item.requiredString(f));
                    case "redirect_uris" -> p.redirectUris(Optional.ofNullable(item.strings(f)).orElse(List.of()));
                    case "post_logout_redirect_uris" -> p.postLogoutRedirectUris(
                            Optional.ofNullable(item.strings(f)).orElse(List.of()));
                    case "scopes" -> p.scopes(item.requiredString(f));
                    case "skip_consent" -> p.skipConsent(item.bool(f));
                    case "confidential" -> p.confidential(item.bool(f));
                    case "enabled" -> p.enabled(item.bool(f));
                    case "require_mfa" -> p.requireMfa(item.bool(f));
                    case REQUIRE_PAR -> p.requirePushedRequests(item.bool(f));
                    case REQUIRE_JAR -> p.requireSignedRequests(item.bool(f));
                    case DPOP_BOUND -> p.dpopBoundAccessTokens(item.bool(f));
                    case "id_token_claims" -> p.idTokenClaims(item.bool(f));
                    case "grant_types" -> p.grantTypes(item.strings(f));
                    case "token_endpoint_auth_method" -> p.authMethod(item.requiredString(f));
                    case "jwks" -> p.jwks(Optional.ofNullable(item.objectText(f)).orElse(""));
                    case "jwks_uri" -> p.jwksUri(Optional.ofNullable(item.string(f)).orElse(""));
                    default -> {
                        // the logout members, gathered below
                    }
                }
            }
            p.logout(logout(item, Set.copyOf(changed)));
            refusalAt(item.path(), () -> clients.update(clientId, p.build(), actor));
        }
        Client after = clients.find(clientId).orElseThrow();
        if (secret != null && !after.secretMatches(secret, clock.instant())) {
            refusalAt(item.at("client_secret"), () -> clients.replaceSecret(clientId, secret, actor));
            changed.add("client_secret");
        }
        plan.add("client", clientId, changed.isEmpty() ? Plan.Action.UNCHANGED : Plan.Action.CHANGED, changed);
    }

    private static LogoutNotifications.Change logout(DocumentItem item, Set<String> fields) {
        return new LogoutNotifications.Change(
                fields.contains(BACKCHANNEL_URI) && item.has(BACKCHANNEL_URI)
                        ? Optional.ofNullable(item.string(BACKCHANNEL_URI)) : null,
                fields.contains(BACKCHANNEL_SESSION) ? item.bool(BACKCHANNEL_SESSION) : null,
                fields.contains(FRONTCHANNEL_URI) && item.has(FRONTCHANNEL_URI)
                        ? Optional.ofNullable(item.string(FRONTCHANNEL_URI)) : null,
                fields.contains(FRONTCHANNEL_SESSION) ? item.bool(FRONTCHANNEL_SESSION) : null);
    }

    /**
     * Groups by name: a group the document lists has exactly the members it names (among local users); with
     * {@code prune}, a group it does not list is taken from every local user. Applied as one change per user.
     */
    private void applyGroups(List<DocumentItem> groupItems, boolean prune, Plan plan, Actor actor) {
        Map<String, Set<String>> before = current.groups();
        Map<String, Set<String>> wanted = new LinkedHashMap<>();
        Set<String> names = new TreeSet<>();
        Map<String, String> paths = new HashMap<>();
        for (DocumentItem item : groupItems) {
            String name = item.requiredString("name").strip();
            if (name.isEmpty() || name.length() > UserAdminService.MAX_GROUP_NAME) {
                throw new DocumentError(item.at("name"), "must be 1 to " + UserAdminService.MAX_GROUP_NAME
                        + " characters");
            }
            unique(names, name, item.at("name"));
            List<String> members = Optional.ofNullable(item.strings("members")).orElse(List.of());
            Set<String> set = new TreeSet<>();
            for (int j = 0; j < members.size(); j++) {
                set.add(members.get(j).toLowerCase(java.util.Locale.ROOT));
                paths.putIfAbsent(members.get(j).toLowerCase(java.util.Locale.ROOT), item.at("members") + "[" + j + "]");
            }
            wanted.put(name, set);
        }
        Map<String, User> local = new HashMap<>();
        current.localUsers().forEach(u -> local.put(u.username(), u));
        for (Map.Entry<String, String> member : paths.entrySet()) {
            if (!local.containsKey(member.getKey())) {
                throw new DocumentError(member.getValue(), "is not a local user");
            }
        }
        for (User u : local.values()) {
            Set<String> groups = new TreeSet<>(u.groups());
            for (Map.Entry<String, Set<String>> g : wanted.entrySet()) {
                if (g.getValue().contains(u.username())) {
                    groups.add(g.getKey());
                } else {
                    groups.remove(g.getKey());
                }
            }
            if (prune) {
                groups.retainAll(wanted.keySet());
            }
            if (!groups.equals(new TreeSet<>(u.groups()))) {
                List<String> next = List.copyOf(groups);
                refusalAt("$.groups", () -> userAdmin.update(u.username(),
                        UserAdminService.UserPatch.patch().groups(next).build(), actor));
            }
        }
        for (Map.Entry<String, Set<String>> g : wanted.entrySet()) {
            Set<String> was = before.get(g.getKey());
            plan.add("group", g.getKey(), was == null ? (g.getValue().isEmpty() ? Plan.Action.UNCHANGED
                    : Plan.Action.CREATED) : was.equals(g.getValue()) ? Plan.Action.UNCHANGED : Plan.Action.CHANGED,
                    was != null && !was.equals(g.getValue()) ? List.of("members") : List.of());
        }
        if (prune) {
            before.keySet().stream().filter(g -> !wanted.containsKey(g))
                    .forEach(g -> plan.add("group", g, Plan.Action.REMOVED, List.of()));
        }
    }

    /** Runs a service's change; its refusal becomes a document error at {@code path} (and the field it names). */
    private static <T> T refusalAt(String path, java.util.function.Supplier<T> change) {
        try {
            return change.get();
        } catch (Refusal e) {
            if (e.reason() instanceof Refusal.InvalidField f) {
                throw new DocumentError(path + "." + f.field(), f.why());
            }
            throw new DocumentError(path, e.getMessage());
        }
    }
}
