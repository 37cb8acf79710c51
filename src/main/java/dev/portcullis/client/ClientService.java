package dev.portcullis.client;

import dev.portcullis.audit.Actor;
import dev.portcullis.audit.AuditEvent;
import dev.portcullis.audit.AuditLog;
import dev.portcullis.config.PortcullisConfig;
import dev.portcullis.crypto.Secrets;
import dev.portcullis.protocol.OAuthError;
import dev.portcullis.protocol.OAuthException;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Event;
import jakarta.inject.Inject;
import jakarta.transaction.Transactional;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/** Registration and administration of client applications. */
@ApplicationScoped
@Transactional
public class ClientService {

    public static final int MAX_NAME = 200;
    public static final int MAX_REDIRECT_URIS = 20;

    @Inject
    ClientRepository clients;

    @Inject
    PortcullisConfig config;

    @Inject
    Clock clock;

    @Inject
    Event<ClientAccessEnded> accessEnded;

    @Inject
    AuditLog audit;

    /**
     * A merge patch of a client (RFC 7396) as the services read it: a null field is left as it is (JSON null for
     * {@code postLogoutRedirectUris} arrives as an empty list, removing them).
     */
    public record ClientPatch(String name, List<String> redirectUris, List<String> postLogoutRedirectUris,
                              String scopes, Boolean skipConsent, Boolean confidential, Boolean enabled,
                              Boolean requireMfa) {
    }

    /** A changed client and, when it was just made confidential, its first secret in clear: shown once. */
    public record Updated(Client client, Optional<String> secret) {
    }

    /**
     * The built-in clients of Portcullis's own pages (the account page and the admin console, registered at start).
     * They are listed like any other but cannot be deleted, disabled or made confidential by an administrator: that
     * would lock every administrator out of the console that could undo it.
     */
    public static final Set<String> BUILT_IN = Set.of("portcullis-account", "portcullis-console");

    public static boolean isBuiltIn(String clientId) {
        return BUILT_IN.contains(clientId);
    }

    private static OAuthException builtIn(String clientId, String what) {
        return new OAuthException(OAuthError.INVALID_REQUEST, clientId + " is a built-in client of Portcullis's own "
                + "pages; it cannot be " + what, 409);
    }

    /** What the admin asked for; validated by {@link #register}. */
    public record Registration(String name, List<String> redirectUris, List<String> postLogoutRedirectUris,
                               boolean confidential, String scopes, boolean skipConsent, boolean requireMfa) {
    }

    /** A new client and, for a confidential one, its secret in clear: shown once, never stored. */
    public record Registered(Client client, Optional<String> secret) {
    }

    public Registered register(Registration r) {
        return register(Secrets.newId(), r);
    }

    /**
     * Registers a client under a fixed, well-known id (demo mode's clients); otherwise exactly as
     * {@link #register(Registration)}. A duplicate id fails at commit.
     */
    public Registered registerWithId(String clientId, Registration r) {
        return register(clientId, r);
    }

    private Registered register(String clientId, Registration r) {
        String name = checkName(r.name());
        List<String> redirectUris = checkUris("redirect_uris", r.redirectUris(), r.confidential(), true);
        List<String> logoutUris = checkUris("post_logout_redirect_uris", r.postLogoutRedirectUris(), r.confidential(), false);
        String scopes = checkScopes(r.scopes());
        Client client = new Client(clientId, name, r.confidential(), redirectUris, logoutUris, scopes,
                r.skipConsent(), clock.instant());
        client.requireMfa(r.requireMfa(), clock.instant());
        Optional<String> secret = Optional.empty();
        if (r.confidential()) {
            String s = Secrets.newSecret();
            client.replaceSecretHash(Secrets.hash(s), clock.instant());
            secret = Optional.of(s);
        }
        clients.add(client);
        return new Registered(client, secret);
    }

    /**
     * Applies a merge patch and audits it as {@code actor}'s change. Every value is validated as at registration,
     * the redirect URIs against the client's type after the patch. A type change happens only when the patch names
     * {@code confidential} with the other value: made confidential, the client gets a secret, returned once; made
     * public, its secret is deleted and every token family issued to it is revoked, as is done when it is disabled
     * ({@link ClientAccessEnded}). Empty when there is no such client.
     */
    public Optional<Updated> update(String clientId, ClientPatch p, Actor actor) {
        Client c = clients.findForChange(clientId).orElse(null);
        if (c == null) {
            return Optional.empty();
        }
        if (isBuiltIn(clientId) && (Boolean.FALSE.equals(p.enabled()) || Boolean.TRUE.equals(p.confidential()))) {
            throw builtIn(clientId, Boolean.FALSE.equals(p.enabled()) ? "disabled" : "made confidential");
        }
        Instant now = clock.instant();
        List<String> changed = new ArrayList<>();
        boolean confidential = p.confidential() == null ? c.confidential() : p.confidential();
        String name = p.name() == null ? c.name() : checkName(p.name());
        List<String> redirectUris = checkUris("redirect_uris",
                p.redirectUris() == null ? c.redirectUris() : p.redirectUris(), confidential, true);
        List<String> logoutUris = checkUris("post_logout_redirect_uris",
                p.postLogoutRedirectUris() == null ? c.postLogoutRedirectUris() : p.postLogoutRedirectUris(),
                confidential, false);
        String scopes = p.scopes() == null ? c.scopes() : checkScopes(p.scopes());
        boolean skipConsent = p.skipConsent() == null ? c.skipConsent() : p.skipConsent();
        noteChange(changed, "client_name", c.name(), name);
        noteChange(changed, "redirect_uris", c.redirectUris(), redirectUris);
        noteChange(changed, "post_logout_redirect_uris", c.postLogoutRedirectUris(), logoutUris);
        noteChange(changed, "scopes", c.scopes(), scopes);
        noteChange(changed, "skip_consent", c.skipConsent(), skipConsent);
        c.changeSettings(name, redirectUris, logoutUris, scopes, skipConsent, now);
        if (p.requireMfa() != null && p.requireMfa() != c.requireMfa()) {
            noteChange(changed, "require_mfa", c.requireMfa(), p.requireMfa());
            c.requireMfa(p.requireMfa(), now);
        }
        boolean tokensEnd = false;
        Optional<String> secret = Optional.empty();
        if (confidential != c.confidential()) {
            if (confidential) {
                secret = Optional.of(Secrets.newSecret());
            }
            c.changeConfidential(confidential, secret.map(Secrets::hash).orElse(null), now);
            changed.add(confidential ? "made confidential (new secret)" : "made public (secret deleted)");
            tokensEnd = !confidential;
        }
        if (p.enabled() != null && p.enabled() != c.enabled()) {
            c.changeEnabled(p.enabled(), now);
            changed.add("enabled=" + p.enabled());
            tokensEnd |= !p.enabled();
        }
        if (tokensEnd) {
            ClientAccessEnded ended = new ClientAccessEnded(clientId);
            accessEnded.fire(ended);
            changed.add(ended.consequences());
        }
        audit.change(AuditEvent.Type.CLIENT_UPDATED, actor, clientId, null,
                changed.isEmpty() ? "no change" : String.join(", ", changed));
        return Optional.of(new Updated(c, secret));
    }

    private static void noteChange(List<String> changed, String field, Object before, Object after) {
        if (!before.equals(after)) {
            changed.add(field);
        }
    }

    /** Issues a new secret for a confidential client; the old one stops working at once. */
    public Optional<String> rotateSecret(String clientId) {
        Client client = clients.findForChange(clientId).orElse(null);
        if (client == null) {
            return Optional.empty();
        }
        if (!client.confidential()) {
            throw OAuthException.invalidRequest("Public clients have no secret");
        }
        String s = Secrets.newSecret();
        client.replaceSecretHash(Secrets.hash(s), clock.instant());
        return Optional.of(s);
    }

    /**
     * Deletes the client; its codes, grants and tokens go with it (ON DELETE CASCADE), so they stop working. A
     * built-in client is refused (409).
     */
    public boolean delete(String clientId) {
        if (isBuiltIn(clientId)) {
            throw builtIn(clientId, "deleted");
        }
        return remove(clientId);
    }

    /** Deletes a built-in client so that the start-up can register it again with the issuer's current URIs. */
    public boolean deleteBuiltInForReRegistration(String clientId) {
        return isBuiltIn(clientId) && remove(clientId);
    }

    private boolean remove(String clientId) {
        Optional<Client> client = clients.findForChange(clientId);
        client.ifPresent(clients::remove);
        return client.isPresent();
    }

    public Optional<Client> find(String clientId) {
        return clients.find(clientId);
    }

    /** How many clients there are. */
    public long count() {
        return clients.count();
    }

    public List<Client> list(int offset, int limit) {
        return clients.list(offset, limit);
    }

    private static String checkName(String raw) {
        String name = raw.strip();
        if (name.isEmpty() || name.length() > MAX_NAME) {
            throw OAuthException.invalidRequest("client_name: must be 1 to " + MAX_NAME + " characters");
        }
        return name;
    }

    private List<String> checkUris(String field, List<String> uris, boolean confidential, boolean required) {
        if (uris == null || uris.isEmpty()) {
            if (required) {
                throw OAuthException.invalidRequest(field + ": at least one URI is required");
            }
            return List.of();
        }
        if (uris.size() > MAX_REDIRECT_URIS) {
            throw OAuthException.invalidRequest(field + ": at most " + MAX_REDIRECT_URIS + " URIs");
        }
        Set<String> distinct = new LinkedHashSet<>();
        for (String uri : uris) {
            RedirectUriPolicy.check(field, uri, confidential, config.redirectAllowHttp());
            if (!distinct.add(uri)) {
                throw OAuthException.invalidRequest(field + ": lists the same URI twice");
            }
        }
        return List.copyOf(distinct);
    }

    private static String checkScopes(String raw) {
        if (raw == null || raw.isBlank()) {
            throw OAuthException.invalidRequest("scopes: at least one scope is required");
        }
        Set<String> scopes = Scopes.parse(raw);
        for (String s : scopes) {
            if (!Scopes.isKnown(s)) {
                throw OAuthException.invalidRequest("scopes: unknown scope '" + (Scopes.isWellFormed(s) && s.length() <= 40
                        ? s : "?") + "'; known scopes are " + String.join(" ", Scopes.ALL));
            }
        }
        return Scopes.format(scopes);
    }
}
