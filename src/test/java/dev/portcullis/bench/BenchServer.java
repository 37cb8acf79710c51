package dev.portcullis.bench;

import dev.portcullis.crypto.Secrets;
import java.io.File;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.Security;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.jar.Attributes;
import java.util.jar.JarFile;
import java.util.logging.Logger;

/**
 * The server under test: its own Payara Micro JVM started from target/payara-micro.jar with the WAR at "/", a free
 * port, a fresh H2 directory or a fresh PostgreSQL database (dropped afterwards unless {@code bench.keep-db}), and a
 * random admin token. Only this process (by its PID) is ever stopped. {@link #readyMillis()} is the time from launching the JVM to the first UP of /health/ready.
 */
final class BenchServer implements AutoCloseable {

    static final String ACCP_CLASS = "com.amazon.corretto.crypto.provider.AmazonCorrettoCryptoProvider";
    private static final Logger LOG = Logger.getLogger(BenchServer.class.getName());

    final String database;
    final int port;
    private final String adminToken;
    private final BenchOptions options;
    private final Process process;
    private final long launchedNanos;
    private final Path log;
    private final String postgresDatabase;
    private long readyMillis = -1;

    private BenchServer(BenchOptions options, String database, int port, String adminToken, Process process,
                        long launchedNanos, Path log, String pgDb) {
        this.options = options;
        this.database = database;
        this.port = port;
        this.adminToken = adminToken;
        this.process = process;
        this.launchedNanos = launchedNanos;
        this.log = log;
        this.postgresDatabase = pgDb;
    }

    static BenchServer start(BenchOptions o, String database, String stamp) throws IOException {
        int port = freePort();
        Path runDir = o.outputDir().resolve("run-" + database + "-" + stamp).toAbsolutePath();
        Files.createDirectories(runDir);
        String adminToken = Secrets.newSecret();
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.addAll(o.serverJvmOptions());
        cmd.add("-Dportcullis.issuer=http://localhost:" + port);
        cmd.add("-Dportcullis.admin.token=" + adminToken);
        String pgDb = null;
        if (database.equals("postgres")) {
            pgDb = "portcullis_bench_" + stamp;
            createPostgresDatabase(o, pgDb);
            cmd.add("-Dportcullis.db.url=" + o.postgresUrl().replaceAll("/[^/?]*(\\?.*)?$", "/" + pgDb));
            cmd.add("-Dportcullis.db.user=" + o.postgresUser());
            cmd.add("-Dportcullis.db.password=unused");
        } else {
            Path data = runDir.resolve("h2");
            Files.createDirectories(data);
            cmd.add("-Dportcullis.data-dir=" + data);
        }
        if (o.accp()) {
            // ACCP in the server, not the WAR: on the JVM's class path, installed as the last JCA provider by a
            // java.security override (so nothing else changes priority), and named to Portcullis' signing code.
            Path security = runDir.resolve("accp.java.security");
            Files.writeString(security, "security.provider." + (Security.getProviders().length + 1) + "=" + ACCP_CLASS + "\n");
            cmd.add("-Djava.security.properties=" + security);
            cmd.add("-Dportcullis.jose.jca-provider=AmazonCorrettoCryptoProvider");
            cmd.addAll(manifestModuleOptions(o.payaraMicroJar()));
            cmd.addAll(List.of("-cp", o.payaraMicroJar().toAbsolutePath() + File.pathSeparator + accpJar(),
                    "fish.payara.micro.PayaraMicro"));
        } else {
            cmd.addAll(List.of("-jar", o.payaraMicroJar().toAbsolutePath().toString()));
        }
        cmd.addAll(List.of("--deploy", o.war().toAbsolutePath().toString(), "--contextroot", "/",
                "--port", Integer.toString(port), "--nocluster", "--disablephonehome",
                "--rootdir", runDir.resolve("payara-root").toString()));
        // the run command's pre-boot file (no data grid, no banner): without it the bench would measure another server
        if (!Files.isRegularFile(o.preBootCommands())) {
            throw new IllegalStateException("Pre-boot command file missing: " + o.preBootCommands().toAbsolutePath());
        }
        cmd.addAll(List.of("--prebootcommandfile", o.preBootCommands().toAbsolutePath().toString()));
        Path log = runDir.resolve("server.log");
        LOG.info(() -> "Starting Payara Micro (" + database + ") on port " + port + ", log " + log);
        long launched = System.nanoTime();
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        return new BenchServer(o, database, port, adminToken, p, launched, log, pgDb);
    }

    String adminToken() {
        return adminToken;
    }

    long pid() {
        return process.pid();
    }

    Path log() {
        return log;
    }

    long readyMillis() {
        return readyMillis;
    }

    /** Polls /health/ready every 100 ms until it answers 200 (UP); fails if the JVM exits or the timeout passes. */
    void awaitReady(long timeoutSeconds) throws IOException, InterruptedException {
        long deadline = launchedNanos + TimeUnit.SECONDS.toNanos(timeoutSeconds);
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IOException("Payara Micro exited with " + process.exitValue() + " before it was ready; see " + log);
            }
            try (LoadHttp http = LoadHttp.open("raw", "127.0.0.1", port)) {
                Reply r = http.get("/health/ready");
                if (r.status() == 200) {
                    readyMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - launchedNanos);
                    return;
                }
            } catch (IOException | RuntimeException notYet) {
                // not listening yet
            }
            Thread.sleep(100); // polling an external process: there is nothing to wait on
        }
        throw new IOException("Payara Micro not ready after " + timeoutSeconds + " s; see " + log);
    }

    /** SIGTERM to this JVM only (by PID), then SIGKILL if it has not exited after 60 s; drops the PostgreSQL database. */
    @Override
    public void close() {
        process.destroy();
        try {
            if (!process.waitFor(60, TimeUnit.SECONDS)) {
                LOG.warning("Payara Micro " + process.pid() + " ignored SIGTERM for 60 s; killing it");
                process.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
        }
        if (postgresDatabase != null && !options.keepDatabase()) {
            try (Connection c = DriverManager.getConnection(options.postgresUrl(), options.postgresUser(), "unused");
                 Statement s = c.createStatement()) {
                s.execute("DROP DATABASE IF EXISTS " + postgresDatabase + " WITH (FORCE)");
            } catch (SQLException e) {
                LOG.warning("Could not drop " + postgresDatabase + ": " + e.getMessage());
            }
        }
    }

    private static void createPostgresDatabase(BenchOptions o, String name) throws IOException {
        try (Connection c = DriverManager.getConnection(o.postgresUrl(), o.postgresUser(), "unused");
             Statement s = c.createStatement()) {
            s.execute("CREATE DATABASE " + name);
        } catch (SQLException e) {
            throw new IOException("bench.db=postgres needs PostgreSQL at " + o.postgresUrl() + ": " + e.getMessage(), e);
        }
    }

    /**
     * {@code java -jar} applies the jar manifest's Add-Opens / Add-Exports; started with {@code -cp} and the main class,
     * Payara Micro needs them as command-line options or it fails to deploy (InaccessibleObjectException).
     */
    private static List<String> manifestModuleOptions(Path jar) throws IOException {
        List<String> out = new ArrayList<>();
        try (JarFile j = new JarFile(jar.toFile())) {
            Attributes a = j.getManifest().getMainAttributes();
            for (String[] kind : new String[][] {{"Add-Opens", "--add-opens"}, {"Add-Exports", "--add-exports"}}) {
                String v = a.getValue(kind[0]);
                if (v != null) {
                    for (String pkg : v.trim().split("\\s+")) {
                        out.add(kind[1] + "=" + pkg + "=ALL-UNNAMED");
                    }
                }
            }
        }
        return out;
    }

    /** The ACCP jar the bench profile puts on this JVM's class path (the class is looked up, not initialised). */
    private static String accpJar() throws IOException {
        try {
            Class<?> c = Class.forName(ACCP_CLASS, false, BenchServer.class.getClassLoader());
            return Path.of(c.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
        } catch (ClassNotFoundException | java.net.URISyntaxException e) {
            throw new IOException("bench.accp=true needs ACCP on the class path (the bench profile adds it)", e);
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }
}
