package dev.portcullis.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.stream.Stream;

/**
 * A real Apache httpd with Debian's {@code mod_auth_openidc} as relying parties of the server under test: one virtual
 * host per {@link Site} on its own loopback port, each an OpenID Connect client that protects {@code /protected/}
 * (an SSI page that prints the signed-in user's {@code preferred_username} as {@code <p id="who">}). The server writes
 * its own httpd.conf into a temp directory, loads only the modules it needs from /usr/lib/apache2/modules and runs in
 * the foreground until {@link #close}.
 */
public final class ApacheHttpd implements AutoCloseable {

    private static final Path MODULES = Path.of("/usr/lib/apache2/modules");
    private static final List<String> MODULE_NAMES = List.of("mpm_prefork", "authz_core", "authn_core", "authz_user",
            "mime", "include", "auth_openidc"); // unixd and log_config are built into Debian's apache2

    /**
     * One relying party: its host name as the browser uses it ({@code 127.0.0.1} or {@code localhost}, which decides
     * which site its cookies belong to), its port, and the client it signs in as.
     */
    public record Site(String host, int port, String clientId, String secret, String responseMode) {

        /** A site with mod_auth_openidc's default response mode (query). */
        public Site(String host, int port, String clientId, String secret) {
            this(host, port, clientId, secret, null);
        }

        public String base() {
            return "http://" + host + ":" + port;
        }

        /** mod_auth_openidc's redirect URI, which also serves its logout endpoints ({@code ?logout=...}). */
        public String redirectUri() {
            return base() + "/protected/redirect_uri";
        }

        public String protectedPage() {
            return base() + "/protected/index.shtml";
        }

        /** An unprotected page to return to after logout. */
        public String signedOutPage() {
            return base() + "/signed-out.html";
        }
    }

    /** The host and port of a site whose client is not registered yet (its redirect URI needs the port). */
    public static Site site(String host) {
        return new Site(host, ItEnvironment.freePort(), null, null);
    }

    private final Path dir;
    private final Process process;

    private ApacheHttpd(Path dir, Process process) {
        this.dir = dir;
        this.process = process;
    }

    /** Starts Apache with {@code sites} against the provider whose discovery document is at {@code issuer}. */
    public static ApacheHttpd start(String issuer, List<Site> sites) {
        Path dir;
        try {
            dir = Files.createTempDirectory(Path.of("/tmp"), "portcullis-httpd-");
            Path docs = Files.createDirectories(dir.resolve("htdocs/protected"));
            Files.writeString(docs.resolve("index.shtml"), "<!doctype html><html><body><p id=\"who\">"
                    + "<!--#echo var=\"OIDC_CLAIM_preferred_username\" --></p></body></html>\n");
            Files.writeString(dir.resolve("htdocs/signed-out.html"),
                    "<!doctype html><html><body><p id=\"apache-signed-out\">signed out</p></body></html>\n");
            Files.writeString(dir.resolve("httpd.conf"), config(dir, issuer, sites));
            // the workers run as www-data (Apache refuses to serve as root) and read the documents
            try (Stream<Path> all = Files.walk(dir)) {
                for (Path p : all.toList()) {
                    Files.setPosixFilePermissions(p, PosixFilePermissions.fromString(
                            Files.isDirectory(p) ? "rwxr-xr-x" : "rw-r--r--"));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Process process;
        try {
            // in a session of its own: stopping, Apache signals its whole process group, which would otherwise be
            // this JVM's and Maven's
            process = new ProcessBuilder("setsid", "/usr/sbin/apache2", "-f", dir.resolve("httpd.conf").toString(),
                    "-DFOREGROUND").redirectErrorStream(true).redirectOutput(dir.resolve("console.log").toFile())
                    .start();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        ApacheHttpd httpd = new ApacheHttpd(dir, process);
        HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
        Instant deadline = Instant.now().plusSeconds(30);
        for (Site site : sites) {
            while (true) {
                try {
                    client.send(HttpRequest.newBuilder(URI.create(site.signedOutPage()))
                            .timeout(Duration.ofSeconds(2)).build(), HttpResponse.BodyHandlers.discarding());
                    break;
                } catch (IOException e) {
                    if (!process.isAlive() || Instant.now().isAfter(deadline)) {
                        String log = httpd.log("console.log") + httpd.log("error.log");
                        httpd.close();
                        throw new IllegalStateException("Apache httpd did not start: " + log, e);
                    }
                    pause();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    httpd.close();
                    throw new IllegalStateException(e);
                }
            }
        }
        return httpd;
    }

    private static String config(Path dir, String issuer, List<Site> sites) {
        StringBuilder c = new StringBuilder();
        c.append("ServerRoot ").append(q(dir)).append('\n');
        for (String m : MODULE_NAMES) {
            c.append("LoadModule ").append(m).append("_module ").append(q(MODULES.resolve("mod_" + m + ".so")))
                    .append('\n');
        }
        c.append("""
                User www-data
                Group www-data
                ServerName 127.0.0.1
                DefaultRuntimeDir "%1$s"
                PidFile "%1$s/httpd.pid"
                ErrorLog "%1$s/error.log"
                LogLevel warn auth_openidc:info
                LogFormat "%%h \\"%%r\\" %%>s" plain
                CustomLog "%1$s/access.log" plain
                DocumentRoot "%1$s/htdocs"
                TypesConfig /dev/null
                AddType text/html .shtml .html
                AddOutputFilter INCLUDES .shtml
                StartServers 2
                <Directory "%1$s/htdocs">
                    Options +Includes
                    Require all granted
                </Directory>
                """.formatted(dir.toString()));
        for (Site s : sites) {
            c.append("Listen 127.0.0.1:").append(s.port()).append('\n');
        }
        for (Site s : sites) {
            c.append("""
                    <VirtualHost 127.0.0.1:%2$d>
                        ServerName %1$s
                        OIDCProviderMetadataURL %3$s/.well-known/openid-configuration
                        OIDCClientID %4$s
                        OIDCClientSecret %5$s
                        OIDCRedirectURI %6$s
                        OIDCCryptoPassphrase %7$s
                        OIDCScope "openid profile"
                        OIDCRemoteUserClaim sub
                        OIDCPassClaimsAs environment
                        OIDCSessionInactivityTimeout 3600
                        %8$s
                        <Location /protected/>
                            AuthType openid-connect
                            Require valid-user
                        </Location>
                    </VirtualHost>
                    """.formatted(s.host(), s.port(), issuer, s.clientId(), s.secret(), s.redirectUri(),
                    dev.portcullis.crypto.Secrets.newSecret(), s.responseMode() == null ? ""
                            // no SameSite=None on its state cookie: over plain http Chromium would drop it
                            : "OIDCResponseMode " + s.responseMode() + "\n    OIDCCookieSameSite Off"));
        }
        return c.toString();
    }

    private static String q(Path p) {
        return "\"" + p + "\"";
    }

    /** The lines of Apache's access log (client, request line, status). */
    public List<String> accessLog() {
        return log("access.log").lines().toList();
    }

    /** How many lines of the access log match. */
    public long accessLogCount(Predicate<String> line) {
        return accessLog().stream().filter(line).count();
    }

    /**
     * Waits until more than {@code seenBefore} lines of the access log match, or fails with the logs after
     * {@code timeout}; the last matching line.
     */
    public String awaitAccessLog(Predicate<String> line, long seenBefore, Duration timeout) {
        Instant deadline = Instant.now().plus(timeout);
        while (true) {
            List<String> matching = accessLog().stream().filter(line).toList();
            if (matching.size() > seenBefore) {
                return matching.get(matching.size() - 1);
            }
            if (Instant.now().isAfter(deadline)) {
                throw new AssertionError("no new such line in Apache's access log within " + timeout + ":\n"
                        + log("access.log") + "\nerror log:\n" + log("error.log"));
            }
            pause();
        }
    }

    /** The interval between two looks at a condition polled with a deadline. */
    private static void pause() {
        try {
            Thread.sleep(100);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** One of Apache's logs ({@code access.log}, {@code error.log}, {@code console.log}); empty when absent. */
    public String log(String name) {
        try {
            Path file = dir.resolve(name);
            return Files.exists(file) ? Files.readString(file, StandardCharsets.UTF_8) : "";
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void close() {
        process.destroy();
        try {
            if (!process.waitFor(20, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        try (Stream<Path> all = Files.walk(dir)) {
            all.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
