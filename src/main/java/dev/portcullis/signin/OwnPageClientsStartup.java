package dev.portcullis.signin;

import dev.portcullis.client.Client;
import dev.portcullis.client.ClientService;
import dev.portcullis.client.Scopes;
import dev.portcullis.config.IssuerSettings;
import jakarta.annotation.PostConstruct;
import jakarta.ejb.DependsOn;
import jakarta.ejb.Singleton;
import jakarta.ejb.Startup;
import jakarta.ejb.TransactionManagement;
import jakarta.ejb.TransactionManagementType;
import jakarta.inject.Inject;
import java.util.List;
import java.util.logging.Logger;

/**
 * At start-up, after the migration, makes sure each {@link OwnPage}'s built-in client exists: public, PKCE, scope
 * {@code openid}, no consent (the user signs in to Portcullis itself), redirect URI the page's callback on this
 * issuer. Idempotent and safe with several instances, like the demo seed: what exists is left alone, and a client
 * registered for another issuer URL is registered again for this one.
 */
@Startup
@Singleton
@DependsOn("DatabaseMigration")
@TransactionManagement(TransactionManagementType.BEAN)
public class OwnPageClientsStartup {

    private static final Logger LOG = Logger.getLogger(OwnPageClientsStartup.class.getName());

    @Inject
    ClientService clients;

    @Inject
    IssuerSettings issuer;

    @PostConstruct
    void register() {
        for (OwnPage page : OwnPage.values()) {
            ensure(page);
        }
    }

    private void ensure(OwnPage page) {
        List<String> redirect = List.of(issuer.endpoint(page.callback()));
        Client existing = clients.find(page.clientId()).orElse(null);
        if (existing != null && existing.redirectUris().equals(redirect)) {
            return;
        }
        // registered again for a new issuer URL, it keeps the require_mfa an administrator gave it
        boolean requireMfa = existing != null && existing.requireMfa();
        if (existing != null) {
            clients.deleteBuiltInForReRegistration(page.clientId());
        }
        try {
            clients.registerWithId(page.clientId(), ClientService.Registration.builder().name(page.clientName())
                    .redirectUris(redirect).postLogoutRedirectUris(List.of(issuer.endpoint(page.root())))
                    .confidential(false).scopes(Scopes.OPENID).skipConsent(true).requireMfa(requireMfa).build());
            LOG.info(() -> "Registered the built-in client '" + page.clientId() + "' of " + page.root());
        } catch (RuntimeException e) {
            if (clients.find(page.clientId()).isEmpty()) {
                LOG.warning(() -> "The built-in client '" + page.clientId() + "' could not be registered, so "
                        + page.root() + " cannot sign anybody in: " + e.getMessage());
            }
        }
    }
}
