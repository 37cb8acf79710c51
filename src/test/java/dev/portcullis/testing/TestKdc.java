package dev.portcullis.testing;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A real MIT Kerberos KDC (Debian's krb5-kdc) for the tests: its own kdc.conf and krb5.conf in a temporary
 * directory, realm {@value #REALM} on a free loopback port, a database made with {@code kdb5_util}, principals added
 * with {@code kadmin.local}, {@code krb5kdc -n} as a child process. The service principal is {@code HTTP/localhost}
 * (what curl and Chromium ask for at {@code http://localhost:port}, with host canonicalisation off); users get
 * tickets with {@code kinit} into file ticket caches. The same KDC serves two more realms, {@value #OTHER_REALM} and
 * {@value #PARTNER_REALM}, that trust nothing but are trusted by {@value #REALM} (a cross-realm key each), so their
 * users get tickets for {@code HTTP/localhost} too: partner forests. No system service or file outside the directory
 * is used.
 */
public final class TestKdc implements AutoCloseable {

    public static final String REALM = "PORTCULLIS.TEST";
    /** A second realm whose users reach {@value #REALM}'s services through a cross-realm key (krbtgt/REALM@OTHER). */
    public static final String OTHER_REALM = "OTHER.TEST";
    /** A third realm, trusted by {@value #REALM} as {@value #OTHER_REALM} is. */
    public static final String PARTNER_REALM = "PARTNER.TEST";
    public static final String SERVICE = "HTTP/localhost@" + REALM;
    private static final String MASTER_PASSWORD = "test kdc master key";

    public final Path dir;
    public final Path krb5Conf;
    public final Path kdcConf;
    public final Path keytab;
    public final int port;
    private final Process kdc;

    private TestKdc() {
        try {
            dir = Files.createTempDirectory("portcullis-kdc");
            port = ItEnvironment.freePort();
            krb5Conf = dir.resolve("krb5.conf");
            kdcConf = dir.resolve("kdc.conf");
            keytab = dir.resolve("http.keytab");
            Files.writeString(krb5Conf, """
                    [libdefaults]
                     default_realm = %1$s
                     dns_lookup_kdc = false
                     dns_lookup_realm = false
                     dns_canonicalize_hostname = false
                     rdns = false
                     udp_preference_limit = 1
                     ticket_lifetime = 1h
                    [realms]
                     %1$s = {
                      kdc = 127.0.0.1:%2$d
                     }
                     %3$s = {
                      kdc = 127.0.0.1:%2$d
                     }
                     %4$s = {
                      kdc = 127.0.0.1:%2$d
                     }
                    [domain_realm]
                     localhost = %1$s
                     .test = %1$s
                    [capaths]
                     %3$s = {
                      %1$s = .
                     }
                     %4$s = {
                      %1$s = .
                     }
                    """.formatted(REALM, port, OTHER_REALM, PARTNER_REALM));
            StringBuilder realms = new StringBuilder();
            for (String realm : List.of(REALM, OTHER_REALM, PARTNER_REALM)) {
                String db = dir.resolve(realm.toLowerCase(Locale.ROOT)).toString();
                realms.append("""
                         %s = {
                          database_name = %s-principal
                          key_stash_file = %s-stash
                          acl_file = %s/kadm5.acl
                          max_life = 10h
                          supported_enctypes = aes256-cts-hmac-sha1-96:normal aes128-cts-hmac-sha1-96:normal
                         }
                        """.formatted(realm, db, db, dir));
            }
            Files.writeString(kdcConf, """
                    [kdcdefaults]
                     kdc_listen = 127.0.0.1:%1$d
                     kdc_tcp_listen = 127.0.0.1:%1$d
                    [realms]
                    %2$s[logging]
                     kdc = FILE:%3$s/kdc.log
                    """.formatted(port, realms, dir));
            Files.writeString(dir.resolve("kadm5.acl"), "");
            run(List.of("kdb5_util", "create", "-s", "-P", MASTER_PASSWORD, "-r", REALM), null);
            kadmin(REALM, "addprinc -randkey " + SERVICE);
            kadmin(REALM, "ktadd -k " + keytab + " " + SERVICE);
            for (String trusted : List.of(OTHER_REALM, PARTNER_REALM)) {
                run(List.of("kdb5_util", "create", "-s", "-P", MASTER_PASSWORD, "-r", trusted), null);
                // the cross-realm key: the same password (so the same key) in both realms' databases
                String crossRealm = "addprinc -pw \"cross-realm key of the tests\" krbtgt/" + REALM + "@" + trusted;
                kadmin(REALM, crossRealm);
                kadmin(trusted, crossRealm);
            }
            ProcessBuilder pb = new ProcessBuilder("krb5kdc", "-n", "-r", REALM, "-r", OTHER_REALM, "-r",
                    PARTNER_REALM)
                    .redirectErrorStream(true)
                    .redirectOutput(dir.resolve("krb5kdc.out").toFile()).directory(dir.toFile());
            environment(pb);
            kdc = pb.start();
            waitForPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Starts a KDC with its service principal and keytab. */
    public static TestKdc start() {
        return new TestKdc();
    }

    /** Adds {@code name@REALM} with a password. */
    public void addUser(String name, String password) {
        addUser(REALM, name, password);
    }

    /** Adds {@code name@realm} (one of this KDC's realms) with a password. */
    public void addUser(String realm, String name, String password) {
        kadmin(realm, "addprinc -pw \"" + password + "\" " + name + "@" + realm);
    }

    /** Adds a service principal of another host (its key stays in the KDC). */
    public void addService(String principal) {
        kadmin(REALM, "addprinc -randkey " + principal);
    }

    /** Gets a ticket-granting ticket for {@code name@REALM} into a new file ticket cache; returns its path. */
    public Path kinit(String name, String password) {
        return kinit(REALM, name, password);
    }

    /** Gets a ticket-granting ticket for {@code name@realm} into a new file ticket cache; returns its path. */
    public Path kinit(String realm, String name, String password) {
        Path cache = dir.resolve("cc-" + name.replace('/', '_') + "-" + System.nanoTime());
        Map<String, String> env = Map.of("KRB5CCNAME", "FILE:" + cache);
        run(List.of("kinit", name + "@" + realm), password + "\n", env);
        return cache;
    }

    /**
     * The {@code Authorization} header curl sends with the ticket cache {@code cache} to {@code host} (the service
     * {@code HTTP/host}): a loopback server of this method's answers curl's first request with
     * {@code 401 Negotiate} and keeps the header of the second, so a test can send it where and as often as it likes.
     */
    public String negotiateHeader(Path cache, String host) {
        List<String> captured = new CopyOnWriteArrayList<>();
        HttpServer challenger;
        try {
            challenger = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        challenger.createContext("/", exchange -> {
            String authorization = exchange.getRequestHeaders().getFirst("Authorization");
            if (authorization == null) {
                exchange.getResponseHeaders().add("WWW-Authenticate", "Negotiate");
                exchange.sendResponseHeaders(401, -1);
            } else {
                captured.add(authorization);
                exchange.sendResponseHeaders(204, -1);
            }
            exchange.close();
        });
        challenger.start();
        try {
            int port = challenger.getAddress().getPort();
            ProcessBuilder pb = new ProcessBuilder("curl", "-s", "-o", "/dev/null", "-w", "%{http_code}",
                    "--negotiate", "-u", ":", "--max-time", "60", "--resolve", host + ":" + port + ":127.0.0.1",
                    "http://" + host + ":" + port + "/").redirectErrorStream(true);
            pb.environment().putAll(clientEnvironment(cache));
            Process p = pb.start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!p.waitFor(90, TimeUnit.SECONDS) || !out.equals("204") || captured.size() != 1) {
                throw new IllegalStateException("curl answered " + out + " with " + captured.size()
                        + " Negotiate headers; KDC log: " + log());
            }
            return captured.get(0);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        } finally {
            challenger.stop(0);
        }
    }

    /** The environment a Kerberos client of this KDC runs with (KRB5_CONFIG, KRB5CCNAME of {@code cache}). */
    public Map<String, String> clientEnvironment(Path cache) {
        return Map.of("KRB5_CONFIG", krb5Conf.toString(), "KRB5CCNAME", "FILE:" + cache);
    }

    public String log() {
        try {
            return Files.readString(dir.resolve("kdc.log"));
        } catch (IOException e) {
            return "(no kdc.log)";
        }
    }

    private void kadmin(String realm, String query) {
        run(List.of("kadmin.local", "-r", realm, "-q", query), null);
    }

    private void environment(ProcessBuilder pb) {
        pb.environment().put("KRB5_CONFIG", krb5Conf.toString());
        pb.environment().put("KRB5_KDC_PROFILE", kdcConf.toString());
    }

    private void run(List<String> command, String stdin) {
        run(command, stdin, Map.of());
    }

    private void run(List<String> command, String stdin, Map<String, String> env) {
        try {
            ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true).directory(dir.toFile());
            environment(pb);
            pb.environment().putAll(env);
            Process p = pb.start();
            if (stdin != null) {
                p.getOutputStream().write(stdin.getBytes(StandardCharsets.UTF_8));
            }
            p.getOutputStream().close();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
                throw new IllegalStateException(command + " failed: " + out);
            }
            if (out.contains(" while ")) { // kadmin.local exits 0 when its query fails
                throw new IllegalStateException(command + " reported: " + out);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private void waitForPort() {
        Instant deadline = Instant.now().plus(Duration.ofSeconds(30));
        while (Instant.now().isBefore(deadline)) {
            if (!kdc.isAlive()) {
                throw new IllegalStateException("krb5kdc exited: " + log());
            }
            try (Socket s = new Socket()) {
                s.connect(new InetSocketAddress("127.0.0.1", port), 200);
                return;
            } catch (IOException notYet) {
                pause();
            }
        }
        throw new IllegalStateException("krb5kdc did not listen on " + port + ": " + log());
    }

    private static void pause() {
        try {
            TimeUnit.MILLISECONDS.sleep(50); // between polls of the port, not instead of one
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close() {
        kdc.destroy();
        try {
            if (!kdc.waitFor(10, TimeUnit.SECONDS)) {
                kdc.destroyForcibly();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
        } catch (IOException ignored) {
            // a temporary directory; the OS cleans it
        }
    }
}
