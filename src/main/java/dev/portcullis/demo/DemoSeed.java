package dev.portcullis.demo;

import dev.portcullis.account.UserService;
import dev.portcullis.client.ClientService;
import dev.portcullis.client.Scopes;
import dev.portcullis.config.PortcullisConfig;
import dev.portcullis.crypto.Secrets;
import jakarta.annotation.PostConstruct;
import jakarta.ejb.DependsOn;
import jakarta.ejb.Singleton;
import jakarta.ejb.Startup;
import jakarta.ejb.TransactionManagement;
import jakarta.ejb.TransactionManagementType;
import jakarta.inject.Inject;
import java.util.List;
import java.util.Optional;
import java.util.logging.Logger;

/**
 * Demo mode ({@code portcullis.demo=true}): at startup, after the migration, makes sure the demo user and the two
 * demo clients exist — {@value #CONFIDENTIAL} (seed variant A) and {@value #PUBLIC} (variant B, PKCE) — redirecting
 * to the relying-party page at {@code /demo/callback}. Idempotent: what exists is left alone. Safe with several
 * instances: each insert is its own transaction, and the instance that loses a race on the primary/unique key just
 * finds the row. Credentials are logged <em>once</em>, by the instance that created them — the only place Portcullis
 * ever logs a secret, and why demo mode is refused with an https issuer unless forced.
 */
@Startup
@Singleton
@DependsOn("DatabaseMigration")
@TransactionManagement(TransactionManagementType.BEAN)
public class DemoSeed {

    public static final String CONFIDENTIAL = "demo-confidential";
    public static final String PUBLIC = "demo-public";
    public static final String USERNAME = "demo";
    public static final String CALLBACK = "/demo/callback";

    private static final Logger LOG = Logger.getLogger(DemoSeed.class.getName());

    @Inject
    PortcullisConfig config;

    @Inject
    ClientService clients;

    @Inject
    UserService users;

    @PostConstruct
    void seed() {
        if (!config.demo()) {
            return;
        }
        LOG.warning("DEMO MODE is on: a demo user and demo clients exist; never use this on a real deployment");
        seedUser();
        seedClient(CONFIDENTIAL, "Portcullis demo (confidential)", true);
        seedClient(PUBLIC, "Portcullis demo (public, PKCE)", false);
        LOG.warning("DEMO MODE: open " + config.endpoint("/demo/") + " to try both variants");
    }

    private void seedUser() {
        if (users.findByUsername(USERNAME).isPresent()) {
            LOG.info("Demo user '" + USERNAME + "' exists; its password was logged when it was created");
            return;
        }
        String password = Secrets.newSecret().substring(0, 16);
        try {
            users.create(new UserService.NewUser(USERNAME, password, "demo@example.com", "Demo User"));
            LOG.warning("DEMO MODE: created user '" + USERNAME + "' with password '" + password + "' (shown once)");
        } catch (RuntimeException e) {
            notCreated("user '" + USERNAME + "'", users.findByUsername(USERNAME).isPresent(), e);
        }
    }

    private void seedClient(String clientId, String name, boolean confidential) {
        if (clients.find(clientId).isPresent()) {
            LOG.info("Demo client '" + clientId + "' exists" + (confidential ? "; its secret was logged when it was "
                    + "created (new one: POST /admin/clients/" + clientId + "/secret)" : ""));
            return;
        }
        ClientService.Registration registration = new ClientService.Registration(name,
                List.of(config.endpoint(CALLBACK)), List.of(config.endpoint("/demo/")), confidential,
                String.join(" ", Scopes.ALL), false);
        try {
            Optional<String> secret = clients.registerWithId(clientId, registration).secret();
            LOG.warning("DEMO MODE: created client '" + clientId + "'"
                    + secret.map(s -> " with client secret '" + s + "' (shown once)").orElse(" (public, no secret)"));
        } catch (RuntimeException e) {
            notCreated("client '" + clientId + "'", clients.find(clientId).isPresent(), e);
        }
    }

    /** After a failed insert: another instance won the race (fine), or the data was refused (say why). */
    private static void notCreated(String what, boolean existsNow, RuntimeException e) {
        if (existsNow) {
            LOG.info(() -> "Demo " + what + " was created by another instance");
        } else {
            LOG.warning(() -> "Demo " + what + " could not be created: " + e.getMessage()
                    + " (demo redirect URIs need an https issuer or a loopback host, or portcullis.redirect.allow-http)");
        }
    }
}
