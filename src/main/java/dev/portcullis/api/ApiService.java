package dev.portcullis.api;

import dev.portcullis.admin.Refusal;
import dev.portcullis.audit.Actor;
import dev.portcullis.audit.AuditEvent;
import dev.portcullis.audit.AuditLog;
import dev.portcullis.client.Client;
import dev.portcullis.client.ClientRepository;
import dev.portcullis.client.RegisteredApiScopes;
import dev.portcullis.config.TokenSettings;
import dev.portcullis.crypto.Secrets;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.persistence.PersistenceException;
import jakarta.transaction.Transactional;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Registration and administration of APIs: each change is validated ({@link ApiRules}), audited as the actor's and
 * committed by one method, or refused with {@link Refusal} before anything is written. Scopes that clients hold
 * are never taken away behind their back: deleting an API, or removing scopes from it, is refused (409) while a
 * client holds one of the scopes concerned.
 */
@ApplicationScoped
@Transactional
public class ApiService implements RegisteredApiScopes {

    /** A client page of the holders check. */
    private static final int CLIENT_PAGE = 500;

    @Inject
    ApiRepository apis;

    @Inject
    ClientRepository clients;

    @Inject
    Clock clock;

    @Inject
    AuditLog audit;

    @Inject
    TokenSettings tokenSettings;

    /**
     * What an API is registered with; {@code accessTokenSigningAlg} null means the global default,
     * {@code backendClientId} null that no client may exchange its tokens, {@code exchangeScopes} null or empty that
     * its backend may obtain nothing by exchanging them.
     */
    public record Registration(String identifier, String name, List<String> scopes, String accessTokenSigningAlg,
                               String backendClientId, List<String> exchangeScopes, String accessTokenTyp) {

        public Registration(String identifier, String name, List<String> scopes, String accessTokenSigningAlg,
                            String backendClientId, List<String> exchangeScopes) {
            this(identifier, name, scopes, accessTokenSigningAlg, backendClientId, exchangeScopes, null);
        }

        public Registration(String identifier, String name, List<String> scopes, String accessTokenSigningAlg) {
            this(identifier, name, scopes, accessTokenSigningAlg, null, null);
        }
    }

    /**
     * A merge patch (RFC 7396): a null field is left as it is, except {@code accessTokenSigningAlg}, which
     * {@code clearSigningAlg} sets back to the global default, and {@code backendClientId}, which
     * {@code clearBackendClient} removes; {@code exchangeScopes} replaces the list (empty: none).
     */
    public record ApiPatch(String identifier, String name, List<String> scopes, String accessTokenSigningAlg,
                           boolean clearSigningAlg, String backendClientId, boolean clearBackendClient,
                           List<String> exchangeScopes, String accessTokenTyp) {

        public ApiPatch(String identifier, String name, List<String> scopes, String accessTokenSigningAlg,
                        boolean clearSigningAlg, String backendClientId, boolean clearBackendClient,
                        List<String> exchangeScopes) {
            this(identifier, name, scopes, accessTokenSigningAlg, clearSigningAlg, backendClientId,
                    clearBackendClient, exchangeScopes, null);
        }

        public ApiPatch(String identifier, String name, List<String> scopes, String accessTokenSigningAlg,
                        boolean clearSigningAlg) {
            this(identifier, name, scopes, accessTokenSigningAlg, clearSigningAlg, null, false, null);
        }
    }

    /**
     * Registers an API as {@code actor}'s change, audited as {@code API_CREATED}.
     *
     * @throws Refusal when a value is not valid or the identifier is taken (nothing registered)
     */
    public Api register(Registration r, Actor actor) {
        String identifier = ApiRules.identifier(r.identifier());
        String name = ApiRules.name(r.name());
        Set<String> scopes = ApiRules.scopes(r.scopes(), scopesOfOtherApis(null));
        String alg = ApiRules.signingAlg(r.accessTokenSigningAlg());
        String typ = ApiRules.accessTokenTyp(r.accessTokenTyp());
        String backend = r.backendClientId() == null ? null : backendClient(r.backendClientId());
        Set<String> exchange = ApiRules.exchangeScopes(r.exchangeScopes(), scopes, scopesOfOtherApis(null));
        identifierIsFree(identifier, null);
        Api api = new Api(Secrets.newId(), identifier, name, scopes, alg, clock.instant());
        api.changeAccessTokenTyp(typ, clock.instant());
        if (backend != null) {
            api.changeBackendClient(backend, clock.instant());
        }
        if (!exchange.isEmpty()) {
            api.changeExchangeScopes(exchange, clock.instant());
        }
        try {
            apis.add(api);
        } catch (PersistenceException e) {
            throw new Refusal(new Refusal.ApiIdentifierTaken(identifier)); // a concurrent registration
        }
        audit.change(AuditEvent.Type.API_CREATED, actor, null, api.apiId(), identifier + ", scopes "
                + String.join(" ", scopes) + ", access_token_typ " + typ
                + (backend == null ? "" : ", backend client " + backend)
                + (exchange.isEmpty() ? "" : ", exchange scopes " + String.join(" ", exchange))
                + (actor.where() == null ? "" : ", " + actor.where()));
        return api;
    }

    /**
     * Applies a merge patch as {@code actor}'s change, audited as {@code API_UPDATED}; every value is validated as at
     * registration. Empty when there is no such API.
     *
     * @throws Refusal when a value is not valid, or scopes that clients hold would be removed
     */
    public Optional<Api> update(String apiId, ApiPatch p, Actor actor) {
        Api api = apis.findForChange(apiId).orElse(null);
        if (api == null) {
            return Optional.empty();
        }
        String identifier = p.identifier() == null ? api.identifier() : ApiRules.identifier(p.identifier());
        String name = p.name() == null ? api.name() : ApiRules.name(p.name());
        Set<String> scopes = p.scopes() == null ? api.scopes() : ApiRules.scopes(p.scopes(), scopesOfOtherApis(apiId));
        String alg = p.clearSigningAlg() ? null : p.accessTokenSigningAlg() == null
                ? api.accessTokenSigningAlg().orElse(null) : ApiRules.signingAlg(p.accessTokenSigningAlg());
        String typ = p.accessTokenTyp() == null ? api.accessTokenTyp() : ApiRules.accessTokenTyp(p.accessTokenTyp());
        String backend = p.clearBackendClient() ? null : p.backendClientId() == null
                ? api.backendClientId().orElse(null) : backendClient(p.backendClientId());
        Set<String> exchange = p.exchangeScopes() == null ? api.exchangeScopes()
                : ApiRules.exchangeScopes(p.exchangeScopes(), scopes, scopesOfOtherApis(apiId));
        if (!identifier.equals(api.identifier())) {
            identifierIsFree(identifier, apiId);
        }
        Set<String> removed = new LinkedHashSet<>(api.scopes());
        removed.removeAll(scopes);
        noClientHolds(api.identifier(), removed);
        noApiExchangesFor(api.identifier(), removed, apiId);
        Map<String, Object> before = ApiSchema.SCHEMA.audited(api);
        api.change(identifier, name, scopes, alg, clock.instant());
        api.changeAccessTokenTyp(typ, clock.instant());
        api.changeBackendClient(backend, clock.instant());
        api.changeExchangeScopes(exchange, clock.instant());
        try {
            apis.flush();
        } catch (PersistenceException e) {
            throw new Refusal(new Refusal.ApiIdentifierTaken(identifier));
        }
        List<String> changed = ApiSchema.SCHEMA.changes(before, api);
        audit.change(AuditEvent.Type.API_UPDATED, actor, null, apiId, identifier + ": "
                + (changed.isEmpty() ? "no change" : String.join(", ", changed))
                + (actor.where() == null ? "" : ", " + actor.where()));
        return Optional.of(api);
    }

    /**
     * Deletes the API as {@code actor}'s change, audited as {@code API_DELETED}. Tokens already issued for it stay
     * valid until they expire (it is their audience that checks them); grants that named it can no longer be
     * refreshed for it. False when there is no such API.
     *
     * @throws Refusal while a client holds one of its scopes (409)
     */
    public boolean delete(String apiId, Actor actor) {
        Api api = apis.findForChange(apiId).orElse(null);
        if (api == null) {
            return false;
        }
        noClientHolds(api.identifier(), api.scopes());
        noApiExchangesFor(api.identifier(), api.scopes(), apiId);
        apis.remove(api);
        audit.change(AuditEvent.Type.API_DELETED, actor, null, apiId, api.identifier()
                + (actor.where() == null ? "" : ", " + actor.where()));
        return true;
    }

    public Optional<Api> find(String apiId) {
        return apis.find(apiId);
    }

    /** Every registered API, oldest first. */
    public List<Api> list() {
        return apis.all();
    }

    @Override
    public Set<String> all() {
        Set<String> scopes = new HashSet<>();
        apis.allForChange().forEach(a -> scopes.addAll(a.scopes()));
        return scopes;
    }

    private Set<String> scopesOfOtherApis(String apiId) {
        Set<String> taken = new HashSet<>();
        for (Api a : apis.allForChange()) {
            if (!a.apiId().equals(apiId)) {
                taken.addAll(a.scopes());
            }
        }
        return taken;
    }

    /**
     * The client an API's backend authenticates as must be a registered confidential client: only such a client can
     * prove at the token endpoint that it is that backend.
     */
    private String backendClient(String clientId) {
        if (clients.findForChange(clientId).filter(Client::confidential).isEmpty()) {
            throw Refusal.invalid("backend_client_id", "names no registered confidential client");
        }
        return clientId;
    }

    private void identifierIsFree(String identifier, String apiId) {
        if (identifier.equals(tokenSettings.accessTokenAudience())) {
            throw Refusal.invalid("identifier", "is Portcullis's own API (portcullis.access-token.audience), "
                    + "whose scopes are the built-in ones");
        }
        for (Api a : apis.all()) {
            if (a.identifier().equals(identifier) && !a.apiId().equals(apiId)) {
                throw new Refusal(new Refusal.ApiIdentifierTaken(identifier));
            }
        }
    }

    private void noClientHolds(String identifier, Set<String> scopes) {
        if (scopes.isEmpty()) {
            return;
        }
        Set<String> held = new LinkedHashSet<>();
        List<String> holders = new ArrayList<>();
        for (int offset = 0; ; offset += CLIENT_PAGE) {
            List<Client> page = clients.listForChange(offset, CLIENT_PAGE);
            for (Client c : page) {
                Set<String> theirs = new LinkedHashSet<>(c.scopeSet());
                theirs.retainAll(scopes);
                if (!theirs.isEmpty()) {
                    held.addAll(theirs);
                    holders.add(c.clientId());
                }
            }
            if (page.size() < CLIENT_PAGE) {
                break;
            }
        }
        if (!holders.isEmpty()) {
            throw new Refusal(new Refusal.ApiScopesInUse(identifier, List.copyOf(held),
                    holders.size() > 10 ? List.copyOf(holders.subList(0, 10)) : holders));
        }
    }

    /**
     * No other API's {@code exchange_scopes} names one of {@code scopes}: a name left behind there would let a scope
     * registered later under it be obtained by exchange without an administrator granting it.
     */
    private void noApiExchangesFor(String identifier, Set<String> scopes, String apiId) {
        if (scopes.isEmpty()) {
            return;
        }
        Set<String> named = new LinkedHashSet<>();
        List<String> namers = new ArrayList<>();
        for (Api a : apis.all()) {
            Set<String> theirs = new LinkedHashSet<>(a.exchangeScopes());
            theirs.retainAll(scopes);
            if (!a.apiId().equals(apiId) && !theirs.isEmpty()) {
                named.addAll(theirs);
                namers.add(a.identifier());
            }
        }
        if (!namers.isEmpty()) {
            throw new Refusal(new Refusal.ApiScopesExchanged(identifier, List.copyOf(named),
                    namers.size() > 10 ? List.copyOf(namers.subList(0, 10)) : namers));
        }
    }
}
