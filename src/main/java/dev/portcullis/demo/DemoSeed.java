package dev.portcullis.demo;

import dev.portcullis.account.UserAdminService;
import dev.portcullis.account.UserLookupService;
import dev.portcullis.client.ClientService;
import dev.portcullis.client.Scopes;
import dev.portcullis.config.DemoSettings;
import dev.portcullis.config.IssuerSettings;
import dev.portcullis.crypto.EncryptionKeys;
import dev.portcullis.crypto.Secrets;
import jakarta.annotation.PostConstruct;
import jakarta.ejb.DependsOn;
import jakarta.ejb.Singleton;
import jakarta.ejb.Startup;
import jakarta.ejb.TransactionManagement;
import jakarta.ejb.TransactionManagementType;
import jakarta.inject.Inject;
import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import java.util.logging.Logger;

/**
 * Demo mode ({@code portcullis.demo=true}): at startup, after the migration, makes sure the demo user and the two
 * demo clients exist — {@value #CONFIDENTIAL} (a confidential client) and {@value #PUBLIC} (a public client, PKCE) —
 * redirecting to the relying-party page at {@code /demo/callback}. Idempotent: what exists is left alone. Safe with
 * several instances: each insert is its own transaction, and the instance that loses a race on the primary/unique
 * key just finds the row. The credentials are never logged: they go to {@value #CREDENTIALS_FILE} in the data
 * directory, readable by the server's account only, and the log names that file.
 *
 * <p>The seeded rows are tagged by their fixed ids ({@value #USER_ID} and the two client ids; ids Portcullis
 * generates are 22 random characters, so none can collide). A start <em>without</em> demo mode deletes them (their
 * sessions, grants and tokens go with them) and the credentials file, so switching demo mode off leaves no known
 * password behind.
 */
@Startup
@Singleton
@DependsOn("DatabaseMigration")
@TransactionManagement(TransactionManagementType.BEAN)
public class DemoSeed {

    public static final String CONFIDENTIAL = "demo-confidential";
    public static final String PUBLIC = "demo-public";
    public static final String USER_ID = "demo-user";
    public static final String USERNAME = "demo";
    public static final String CALLBACK = "/demo/callback";
    public static final String CREDENTIALS_FILE = "demo-credentials.properties";

    private static final Logger LOG = Logger.getLogger(DemoSeed.class.getName());

    @Inject
    IssuerSettings issuer;

    @Inject
    DemoSettings demoSettings;

    @Inject
    ClientService clients;

    @Inject
    UserLookupService users;

    @Inject
    UserAdminService userAdmin;

    @PostConstruct
    void seed() {
        if (!demoSettings.enabled()) {
            removeDemoRows();
            return;
        }
        LOG.warning("DEMO MODE is on: a demo user and demo clients exist; never use this on a real deployment");
        seedUser();
        seedClient(CONFIDENTIAL, "Portcullis demo (confidential)", true);
        seedClient(PUBLIC, "Portcullis demo (public, PKCE)", false);
        LOG.warning("DEMO MODE: open " + issuer.endpoint("/demo/")
                + " to sign in as its confidential and its public client");
    }

    /** Where the credentials of what demo mode created are kept (never in the log). */
    Path credentialsFile() {
        return demoSettings.dataDir().resolve(CREDENTIALS_FILE);
    }

    private void removeDemoRows() {
        boolean removed = users.findById(USER_ID).map(u -> userAdmin.deleteSeeded(u.username())).orElse(false);
        for (String clientId : List.of(CONFIDENTIAL, PUBLIC)) {
            removed |= clients.deleteSeeded(clientId);
        }
        try {
            removed |= Files.deleteIfExists(credentialsFile());
        } catch (IOException e) {
            LOG.warning(() -> "Could not delete " + credentialsFile() + ": " + e.getMessage());
        }
        if (removed) {
            LOG.warning("Demo mode is off: deleted the demo user, the demo clients and " + credentialsFile());
        }
    }

    private void seedUser() {
        if (users.findByUsername(USERNAME).isPresent()) {
            LOG.info("Demo user '" + USERNAME + "' exists; its password is in " + credentialsFile());
            return;
        }
        String password = Secrets.newSecret().substring(0, 16);
        try {
            userAdmin.createWithId(USER_ID,
                    new UserAdminService.NewUser(USERNAME, password, "demo@example.com", "Demo User"));
        } catch (RuntimeException e) {
            notCreated("user '" + USERNAME + "'", users.findByUsername(USERNAME).isPresent(), e);
            return;
        }
        saveCredential(USERNAME + ".password", password);
        LOG.warning("DEMO MODE: created user '" + USERNAME + "'; its password is in " + credentialsFile());
    }

    private void seedClient(String clientId, String name, boolean confidential) {
        if (clients.find(clientId).isPresent()) {
            LOG.info("Demo client '" + clientId + "' exists" + (confidential ? "; its secret is in "
                    + credentialsFile() + " (new one: POST /admin/clients/" + clientId + "/secret)" : ""));
            return;
        }
        ClientService.Registration registration = ClientService.Registration.builder().name(name)
                .redirectUris(List.of(issuer.endpoint(CALLBACK)))
                .postLogoutRedirectUris(List.of(issuer.endpoint("/demo/"))).confidential(confidential)
                .scopes(String.join(" ", Scopes.ALL)).build();
        Optional<String> secret;
        try {
            secret = clients.registerWithId(clientId, registration).secret();
        } catch (RuntimeException e) {
            notCreated("client '" + clientId + "'", clients.find(clientId).isPresent(), e);
            return;
        }
        secret.ifPresent(s -> saveCredential(clientId + ".client_secret", s));
        LOG.warning("DEMO MODE: created client '" + clientId + "'"
                + (secret.isPresent() ? "; its client secret is in " + credentialsFile() : " (public, no secret)"));
    }

    /** Adds one credential to the file, created readable by the server's account only. */
    private void saveCredential(String name, String value) {
        Path file = credentialsFile();
        Properties p = new Properties();
        try {
            Files.createDirectories(file.getParent());
            if (Files.exists(file)) {
                try (Reader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
                    p.load(r);
                }
            } else {
                Files.createFile(file);
                EncryptionKeys.restrictToOwner(file);
            }
            p.setProperty(name, value);
            try (Writer w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
                p.store(w, "Portcullis demo mode: credentials of the seeded demo user and client");
            }
        } catch (IOException e) {
            throw new UncheckedIOException("Could not write the demo credentials to " + file, e);
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
