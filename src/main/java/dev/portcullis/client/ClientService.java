package dev.portcullis.client;

import dev.portcullis.config.PortcullisConfig;
import dev.portcullis.crypto.Secrets;
import dev.portcullis.protocol.OAuthException;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.transaction.Transactional;
import java.time.Clock;
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
        String name = r.name().strip();
        if (name.isEmpty() || name.length() > MAX_NAME) {
            throw OAuthException.invalidRequest("client_name: must be 1 to " + MAX_NAME + " characters");
        }
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

    /** Deletes the client; its codes, grants and tokens go with it (ON DELETE CASCADE), so they stop working. */
    public boolean delete(String clientId) {
        Optional<Client> client = clients.findForChange(clientId);
        client.ifPresent(clients::remove);
        return client.isPresent();
    }

    public Optional<Client> find(String clientId) {
        return clients.find(clientId);
    }

    public List<Client> list(int offset, int limit) {
        return clients.list(offset, limit);
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
