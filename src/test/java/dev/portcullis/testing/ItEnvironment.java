package dev.portcullis.testing;

import dev.portcullis.config.DatabaseConfigSource;
import dev.portcullis.crypto.EncryptionKeys;
import dev.portcullis.crypto.Secrets;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.logging.Logger;
import org.junit.platform.launcher.LauncherSession;
import org.junit.platform.launcher.LauncherSessionListener;

/**
 * Prepares one integration-test run before any test class runs: a free HTTP port (so the issuer is known in
 * advance), an admin token, and a fresh database: an H2 directory under target/, or a new PostgreSQL database
 * {@code portcullis_it_<time>_<random>} on 127.0.0.1:5432 when {@code portcullis.test.database=postgres} (the
 * failsafe execution of the {@code postgres} profile). The run's one server gets these settings: a full server
 * (started here) as environment variables, the Payara Micro passes' one Payara Micro (started by
 * {@link #runPayaraMicro} when the first class needs it) as -D options. The server stops and the PostgreSQL database
 * is dropped when the run ends.
 */
public class ItEnvironment implements LauncherSessionListener {

    private static final Logger LOG = Logger.getLogger(ItEnvironment.class.getName());
    public static final String ADMIN_TOKEN = Secrets.newSecret();
    /** The key-encryption key of this run's servers, so a test can read and write sealed key rows. */
    public static final String KEYS_ENCRYPTION_KEY = EncryptionKeys.newKey();

    /**
     * Payara Micro's start-up runs its services on several threads, and about one start in a hundred dies in a race
     * inside its service container (a ConcurrentModificationException in HK2's instance listeners, "Startup service
     * failed to start"); the tests start it many times per run, so they start its services on one thread.
     */
    static final String PAYARA_MICRO_SINGLE_THREADED_START = "-Dorg.glassfish.startupThreadPolicy=USE_NO_THREADS";

    private String postgresDatabase;

    /**
     * The run command's pre-boot file (no {@code Server} / {@code X-Powered-By} banner, no Hazelcast data grid, so no
     * usage report from it either; Payara's own is off with {@code --disablephonehome}), so the tests run the server
     * as it is deployed and see the headers it sends. For every Payara the tests start.
     */
    static List<String> preBootCommands() {
        Path file = Path.of(System.getProperty("portcullis.test.pre-boot-commands",
                "server-config/pre-boot-commands.asadmin")).toAbsolutePath();
        if (!Files.isRegularFile(file)) {
            throw new IllegalStateException("Pre-boot command file missing: " + file);
        }
        return List.of("--prebootcommandfile", file.toString());
    }

    /** {@code wildfly} or {@code payara-server} when this run targets a full server ({@link AppServer}), else null. */
    static String fullServer() {
        String server = System.getProperty("portcullis.test.server", "payara-micro");
        return server.equals("payara-micro") ? null : server;
    }

    private AppServer fullServerProcess;

    /** The Payara Micro passes' one server, once a class has needed it ({@link #runPayaraMicro}). */
    private static PayaraProcess runPayaraMicro;

    /** Why the Payara Micro passes' server did not start; every later class fails with it, at once. */
    private static RuntimeException runPayaraMicroFailure;

    /** The settings this run's servers start with (database, admin token, ...), for {@link ClassServer#startOwn}. */
    static volatile Map<String, String> runSettings = Map.of();

    /** Why the run's full server did not start; every test class then fails with it ({@link RunningServerContainer}). */
    static volatile RuntimeException fullServerFailure;

    @Override
    public void launcherSessionOpened(LauncherSession session) {
        if (System.getProperty("payara.microJar") == null || System.getProperty("portcullis.test.base-url") != null) {
            return; // unit-test run (surefire), or already configured
        }
        // the settings of this run's servers, by MicroProfile Config key (-D options on Payara Micro, env elsewhere)
        Map<String, String> settings = new LinkedHashMap<>();
        settings.put("portcullis.admin.token", ADMIN_TOKEN);
        settings.put("portcullis.keys.encryption-key", KEYS_ENCRYPTION_KEY);
        // every class signs in from 127.0.0.1 against one database, so the per-address slow-down would let one
        // class's wrong passwords slow the next; SignInThrottlingIT tests that rule on its own settings
        settings.put("portcullis.login.ip-max-failures", "100000");
        // BackchannelLogoutIT waits for a never-answering receiver to be given up: a window of seconds, not minutes
        settings.put("portcullis.logout.backchannel.retry-for", "15");
        // the relying parties the tests run (key set servers, back-channel receivers, Apache httpd) listen on
        // loopback, which Portcullis reaches only when admitted; admitted alone, every other address is refused
        settings.put("portcullis.outbound.allowed-networks", "127.0.0.0/8,::1/128");
        String database = System.getProperty("portcullis.test.database", "h2");
        String stamp = LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMddHHmmss"))
                + "_" + ThreadLocalRandom.current().nextInt(1000, 9999);
        if (database.equals("postgres")) {
            postgresDatabase = "portcullis_it_" + stamp;
            createPostgresDatabase(postgresDatabase);
            String url = postgresBaseUrl().replaceAll("/[^/?]*(\\?.*)?$", "/" + postgresDatabase);
            settings.put("portcullis.db.url", url);
            settings.put("portcullis.db.user", postgresUser());
            settings.put("portcullis.db.password", "unused");
            System.setProperty("portcullis.test.jdbc-url", url);
            System.setProperty("portcullis.test.jdbc-user", postgresUser());
            System.setProperty("portcullis.test.jdbc-password", "unused");
        } else {
            Path dir = Path.of("target", "it-h2-" + stamp).toAbsolutePath();
            try {
                Files.createDirectories(dir);
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
            // the URL the server derives from this data directory plus AUTO_SERVER (tests only; the production
            // default does not listen), so this JVM and a second instance can open the database the server has open
            String url = DatabaseConfigSource.h2Url(dir) + ";AUTO_SERVER=TRUE";
            settings.put("portcullis.data-dir", dir.toString());
            settings.put("portcullis.db.url", url);
            System.setProperty("portcullis.test.jdbc-url", url);
            System.setProperty("portcullis.test.jdbc-user", "portcullis");
            System.setProperty("portcullis.test.jdbc-password", "portcullis");
        }
        String base;
        String server = fullServer();
        runSettings = Map.copyOf(settings);
        if (server != null) {
            settings.putAll(ClassServer.FULL_SERVER_SETTINGS);
            base = startFullServer(server, settings);
        } else {
            int port = freePort();
            base = "http://localhost:" + port;
            System.setProperty("portcullis.test.run-port", Integer.toString(port));
            StringBuilder opts = new StringBuilder();
            settings.forEach((k, v) -> opts.append(" -D").append(k).append('=').append(v));
            // every Payara Micro of the run starts with these: the run's server and the classes' own (PayaraProcess)
            System.setProperty("portcullis.test.db-options", opts.toString());
        }
        System.setProperty("portcullis.test.base-url", base);
        System.setProperty("portcullis.test.admin-token", ADMIN_TOKEN);
        System.setProperty("portcullis.test.keys-encryption-key", KEYS_ENCRYPTION_KEY);
        LOG.info(() -> "Integration tests: " + base + " on " + (server != null ? server : "Payara Micro") + ", "
                + database + (postgresDatabase != null ? " (database " + postgresDatabase + ")" : ""));
    }

    /** Starts the run's one full server (its log stays under target/); the issuer follows from the port it got. */
    private String startFullServer(String server, Map<String, String> settings) {
        try {
            AppServer.Started started = AppServer.start(server, settings);
            fullServerProcess = started.server();
            return "http://localhost:" + started.port();
        } catch (RuntimeException e) {
            // a listener's exception only gets logged, and the run would count zero tests as a success
            fullServerFailure = e;
            return "http://localhost:1";
        }
    }

    /**
     * The Payara Micro passes' one server: the WAR with the run's settings on the run's port, started when the first
     * class deploys ({@link RunningServerContainer}), so a run of classes that each start their own servers starts
     * no idle one; every later class meets it as it is. A failed start fails every class of the run.
     */
    static synchronized void runPayaraMicro() {
        if (runPayaraMicroFailure != null) {
            throw runPayaraMicroFailure;
        }
        if (runPayaraMicro != null) {
            return;
        }
        int port = Integer.parseInt(System.getProperty("portcullis.test.run-port"));
        String extra = System.getProperty("portcullis.test.extra-jvm-options", "");
        List<String> options = new java.util.ArrayList<>(List.of("-Xss1m"));
        for (String o : extra.trim().split(" +")) {
            if (!o.isBlank()) {
                options.add(o);
            }
        }
        try {
            runPayaraMicro = PayaraProcess.startDeployed(port, options);
            LOG.info(() -> "The run's Payara Micro serves " + runPayaraMicro.base + ", log " + runPayaraMicro.log());
        } catch (RuntimeException e) {
            runPayaraMicroFailure = e;
            throw e;
        }
    }

    @Override
    public void launcherSessionClosed(LauncherSession session) {
        if (fullServerProcess != null) {
            fullServerProcess.close();
        }
        synchronized (ItEnvironment.class) {
            if (runPayaraMicro != null) {
                runPayaraMicro.close();
                runPayaraMicro = null;
            }
        }
        if (postgresDatabase != null) {
            try (Connection c = DriverManager.getConnection(postgresBaseUrl(), postgresUser(), "unused");
                 Statement s = c.createStatement()) {
                s.execute("DROP DATABASE IF EXISTS " + postgresDatabase + " WITH (FORCE)");
            } catch (SQLException e) {
                LOG.warning("Could not drop " + postgresDatabase + ": " + e.getMessage());
            }
        }
    }

    private static void createPostgresDatabase(String name) {
        try (Connection c = DriverManager.getConnection(postgresBaseUrl(), postgresUser(), "unused");
             Statement s = c.createStatement()) {
            s.execute("CREATE DATABASE " + name);
        } catch (SQLException e) {
            throw new IllegalStateException("PostgreSQL is required for this run (PORTCULLIS_TEST_POSTGRES=required) "
                    + "but " + postgresBaseUrl() + " is not usable: " + e.getMessage(), e);
        }
    }

    static String postgresBaseUrl() {
        return System.getProperty("portcullis.test.postgres-url", "jdbc:postgresql://127.0.0.1:5432/test");
    }

    static String postgresUser() {
        return System.getProperty("portcullis.test.postgres-user", "postgres");
    }

    public static int freePort() {
        try (ServerSocket s = new ServerSocket(0)) {
            s.setReuseAddress(true);
            return s.getLocalPort();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
