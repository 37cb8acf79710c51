package dev.portcullis.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.portcullis.account.User;
import dev.portcullis.account.UserAdminService;
import dev.portcullis.account.UserLookupService;
import dev.portcullis.client.Client;
import dev.portcullis.client.ClientService;
import dev.portcullis.config.DemoSettings;
import dev.portcullis.config.IssuerSettings;
import java.io.Reader;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Demo mode's seed against in-memory users and clients: what it writes where, and what a start without it removes. */
class DemoSeedTest {

    @TempDir
    Path dataDir;

    private final Users users = new Users();
    private final Clients clients = new Clients();
    private final List<String> log = new ArrayList<>();
    private final Handler capture = new Handler() {
        @Override
        public void publish(LogRecord r) {
            log.add(r.getMessage());
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }
    };

    @BeforeEach
    void captureLog() {
        Logger.getLogger(DemoSeed.class.getName()).addHandler(capture);
    }

    @AfterEach
    void releaseLog() {
        Logger.getLogger(DemoSeed.class.getName()).removeHandler(capture);
    }

    @Test
    void credentialsGoToAnOwnerOnlyFileAndNeverToTheLog() throws Exception {
        seed(true);
        assertEquals("demo", users.created.get(DemoSeed.USER_ID), "the demo user carries the demo id");
        assertEquals(List.of(DemoSeed.CONFIDENTIAL, DemoSeed.PUBLIC), new ArrayList<>(clients.rows.keySet()));

        Path file = dataDir.resolve(DemoSeed.CREDENTIALS_FILE);
        Properties saved = new Properties();
        try (Reader r = Files.newBufferedReader(file)) {
            saved.load(r);
        }
        assertEquals(users.password, saved.getProperty("demo.password"));
        assertEquals(Clients.SECRET, saved.getProperty(DemoSeed.CONFIDENTIAL + ".client_secret"));
        assertEquals(PosixFilePermissions.fromString("rw-------"), Files.getPosixFilePermissions(file));
        assertTrue(log.stream().anyMatch(l -> l.contains(file.toString())), "the log names the file: " + log);
        for (String line : log) {
            assertFalse(line.contains(users.password) || line.contains(Clients.SECRET), "secret in the log: " + line);
        }
    }

    @Test
    void aStartWithoutDemoModeRemovesTheDemoRowsAndTheirCredentials() throws Exception {
        seed(true);
        users.created.put("Xk3pQ9rT2vW8yZ1aB4cD6e", "alice");
        clients.rows.put("Qm7nR2sT5uV8wX1yZ4aB7c", new Client() { });
        assertTrue(Files.exists(dataDir.resolve(DemoSeed.CREDENTIALS_FILE)));

        seed(false);
        assertEquals(Map.of("Xk3pQ9rT2vW8yZ1aB4cD6e", "alice"), users.created, "only the demo user is deleted");
        assertEquals(List.of("Qm7nR2sT5uV8wX1yZ4aB7c"), new ArrayList<>(clients.rows.keySet()));
        assertFalse(Files.exists(dataDir.resolve(DemoSeed.CREDENTIALS_FILE)));

        log.clear();
        seed(false);
        assertTrue(log.isEmpty(), "nothing to remove, nothing said: " + log);
    }

    private void seed(boolean demo) {
        DemoSeed seed = new DemoSeed();
        seed.users = users.lookup;
        seed.userAdmin = users;
        seed.clients = clients;
        seed.demoSettings = new DemoSettings(demo, false, dataDir);
        seed.issuer = new IssuerSettings(URI.create("http://localhost:8080"));
        seed.seed();
    }

    /** Users by id (value: username), created and deleted here and found through {@link #lookup}. */
    static final class Users extends UserAdminService {
        final Map<String, String> created = new LinkedHashMap<>();
        String password;
        final UserLookupService lookup = new UserLookupService() {
            @Override
            public Optional<User> findById(String userId) {
                return Optional.ofNullable(created.get(userId)).map(Users::user);
            }

            @Override
            public Optional<User> findByUsername(String username) {
                return created.containsValue(username) ? Optional.of(user(username)) : Optional.empty();
            }
        };

        @Override
        public User createWithId(String userId, NewUser n) {
            created.put(userId, n.username());
            password = n.password();
            return user(n.username());
        }

        @Override
        public boolean deleteSeeded(String username) {
            return created.values().remove(username);
        }

        private static User user(String username) {
            return new User() {
                @Override
                public String username() {
                    return username;
                }
            };
        }
    }

    static final class Clients extends ClientService {
        static final String SECRET = "confidential-demo-client-secret-value";
        final Map<String, Client> rows = new LinkedHashMap<>();

        @Override
        public Registered registerWithId(String clientId, Registration r) {
            rows.put(clientId, new Client() { });
            return new Registered(rows.get(clientId), r.confidential() ? Optional.of(SECRET) : Optional.empty());
        }

        @Override
        public Optional<Client> find(String clientId) {
            return Optional.ofNullable(rows.get(clientId));
        }

        @Override
        public boolean deleteSeeded(String clientId) {
            return rows.remove(clientId) != null;
        }
    }
}
