package dev.portcullis.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.portcullis.testing.Admin;
import dev.portcullis.testing.ClassServer;
import dev.portcullis.testing.Http;
import dev.portcullis.testing.ItEnvironment;
import dev.portcullis.testing.ServerTestBase;
import dev.portcullis.testing.UserAgent;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code GET /metrics} on every server: who may read it (by class of input: the endpoint off, no token, a wrong token,
 * the token in the query, another scheme, a foreign and an allowed network, other methods), and what it says, proved
 * with a real Prometheus (Debian's package) scraping a server of this class's own on loopback: after a scripted set of
 * sign-ins, failures, token requests, a refused authorization request and a logout, Prometheus' query API answers the
 * expected increases. The run's server has metrics off (the default); on Payara, where the server's own MicroProfile
 * Metrics and Health would answer {@code /metrics} and {@code /health}, those are switched off
 * (server-config/pre-boot-commands.asadmin), so both paths are the 404 of any unknown path there.
 */
class MetricsIT extends ServerTestBase {

    /** The network of {@code portcullis.metrics.networks}: a loopback address that the HTTP client never uses. */
    private static final String ALLOWED_ADDRESS = "127.0.0.2";
    private static final String TOKEN = newToken();
    private static final Duration DEADLINE = Duration.ofSeconds(90);

    private static ClassServer server;
    private static Process prometheus;
    private static String prometheusBase;
    private static Path prometheusDir;

    @BeforeAll
    static void start() throws IOException {
        server = ClassServer.startOwn("-Dportcullis.metrics.enabled=true", "-Dportcullis.metrics.token=" + TOKEN,
                "-Dportcullis.metrics.networks=" + ALLOWED_ADDRESS + "/32");
        prometheusDir = Files.createTempDirectory(Path.of("target").toAbsolutePath(), "prometheus-");
        int port = ItEnvironment.freePort();
        URI target = URI.create(server.base());
        Files.writeString(prometheusDir.resolve("prometheus.yml"), """
                global:
                  scrape_interval: 1s
                  scrape_timeout: 1s
                scrape_configs:
                  - job_name: portcullis
                    metrics_path: /metrics
                    authorization:
                      type: Bearer
                      credentials: %s
                    static_configs:
                      - targets: ['%s:%d']
                """.formatted(TOKEN, target.getHost(), target.getPort()));
        prometheus = new ProcessBuilder("prometheus", "--config.file=" + prometheusDir.resolve("prometheus.yml"),
                "--storage.tsdb.path=" + prometheusDir.resolve("data"), "--web.listen-address=127.0.0.1:" + port)
                .redirectErrorStream(true).redirectOutput(prometheusDir.resolve("prometheus.log").toFile()).start();
        prometheusBase = "http://127.0.0.1:" + port;
        Http p = new Http(prometheusBase);
        waitFor(() -> "Prometheus ready", () -> {
            try {
                return p.get("/-/ready").status() == 200;
            } catch (RuntimeException notYet) {
                return false;
            }
        });
    }

    @AfterAll
    static void stop() {
        if (prometheus != null) {
            prometheus.destroy();
        }
        if (server != null) {
            server.close();
        }
    }

    // ---- who may read it ----

    @Test
    void offByDefaultTheEndpointIsAnUnknownPathForEveryMethod() {
        Http run = http();
        Http.Res unknown = run.get("/no-such-path-" + System.nanoTime());
        assertEquals(404, unknown.status());
        for (String method : List.of("GET", "POST", "PUT", "DELETE", "HEAD")) {
            Http.Res r = send(run, method, "/metrics", "Authorization", "Bearer " + TOKEN);
            assertEquals(404, r.status(), method + ": " + r);
            assertEquals(unknown.header("Content-Type"), r.header("Content-Type"), method + " answers like any 404");
        }
        assertFalse(run.get("/metrics").body().contains("# TYPE"), "no server's own metrics either");
    }

    @Test
    void theServersOwnHealthEndpointIsOffAndTheWarsProbesAnswer() {
        Http run = http();
        assertEquals(404, run.get("/health").status(), "Payara's MicroProfile Health is off (pre-boot-commands)");
        assertEquals(200, run.get("/health/live").status());
        assertEquals(200, run.get("/health/ready").status());
    }

    @Test
    void withoutTheTokenOrFromAnotherNetworkItIsAnUnknownPath() {
        Http h = server.http();
        assertEquals(404, h.get("/metrics").status(), "no credentials, from 127.0.0.1 (not in the networks)");
        assertEquals(404, h.get("/metrics", "Authorization", "Bearer " + TOKEN + "x").status(), "a wrong token");
        assertEquals(404, h.get("/metrics", "Authorization", "Bearer " + TOKEN.substring(1)).status(), "a prefix");
        assertEquals(404, h.get("/metrics", "Authorization", "Bearer").status(), "an empty token");
        assertEquals(404, h.get("/metrics?access_token=" + TOKEN).status(), "the token in the query");
        assertEquals(404, h.get("/metrics", "Authorization", "Basic " + Base64.getEncoder()
                .encodeToString(("metrics:" + TOKEN).getBytes(StandardCharsets.UTF_8))).status(), "another scheme");
        assertEquals(404, h.get("/metrics", "X-Forwarded-For", ALLOWED_ADDRESS).status(),
                "a forwarded address from a peer that is no trusted proxy");
        assertEquals(404, send(h, "POST", "/metrics").status(), "another method without credentials");
    }

    @Test
    void withTheTokenItAnswersTheTextFormatOrOpenMetricsWhenAsked() {
        Http h = server.http();
        Http.Res text = h.get("/metrics", "Authorization", "Bearer " + TOKEN);
        assertEquals(200, text.status(), text::toString);
        assertTrue(text.header("Content-Type").startsWith("text/plain; version=0.0.4"), text.header("Content-Type"));
        assertEquals("no-store", text.header("Cache-Control"));
        assertTrue(text.body().contains("# TYPE portcullis_sign_ins_total counter"), text.body());
        assertTrue(text.body().contains("jvm_memory_used_bytes"), "the JVM's instrumentation");
        Http.Res open = h.get("/metrics", "Authorization", "bearer " + TOKEN, "Accept",
                "application/openmetrics-text; version=1.0.0; charset=utf-8");
        assertEquals(200, open.status(), open::toString);
        assertTrue(open.header("Content-Type").startsWith("application/openmetrics-text"), open.header("Content-Type"));
        assertTrue(open.body().endsWith("# EOF\n"), "an OpenMetrics document ends with # EOF");
        for (String method : List.of("POST", "PUT", "DELETE", "HEAD")) {
            Http.Res r = send(h, method, "/metrics", "Authorization", "Bearer " + TOKEN);
            assertEquals(405, r.status(), method + ": " + r);
            assertEquals("GET", r.header("Allow"), method);
        }
    }

    @Test
    void fromAnAllowedNetworkItAnswersWithoutTheToken() throws IOException {
        URI base = URI.create(server.base());
        try (Socket s = new Socket()) {
            s.bind(new InetSocketAddress(ALLOWED_ADDRESS, 0));
            s.connect(new InetSocketAddress("127.0.0.1", base.getPort()), 10_000);
            s.setSoTimeout(30_000);
            OutputStream out = s.getOutputStream();
            out.write(("GET /metrics HTTP/1.1\r\nHost: localhost:" + base.getPort() + "\r\nConnection: close\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            out.flush();
            InputStream in = s.getInputStream();
            String answer = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(answer.startsWith("HTTP/1.1 200"), answer.lines().findFirst().orElse(answer));
            assertTrue(answer.contains("portcullis_sign_ins_total"), "the metrics");
        }
    }

    // ---- what it says, as Prometheus reads it ----

    @Test
    void prometheusSeesTheIncreasesOfAScriptedSession() {
        // a scrape that began after now, with the token, has seen everything done before (the other tests' too)
        double started = System.currentTimeMillis() / 1000.0;
        waitFor(() -> "Prometheus scraping the server with the token",
                () -> value("max(up{job=\"portcullis\"})") == 1
                        && value("max(timestamp(up{job=\"portcullis\"}))") > started);
        Map<String, Integer> expected = new LinkedHashMap<>();
        expected.put("sum(portcullis_sign_ins_total{method=\"pwd\",outcome=\"success\"})", 2);
        expected.put("sum(portcullis_sign_ins_total{method=\"pwd\",reason=\"bad_password\"})", 1);
        expected.put("sum(portcullis_sign_ins_total{method=\"pwd\",reason=\"unknown_user\"})", 1);
        expected.put("sum(portcullis_tokens_issued_total{grant_type=\"authorization_code\"})", 2);
        expected.put("sum(portcullis_tokens_issued_total{grant_type=\"refresh_token\"})", 1);
        expected.put("sum(portcullis_token_errors_total{error=\"invalid_grant\"})", 1);
        expected.put("sum(portcullis_token_errors_total{error=\"unsupported_grant_type\"})", 1);
        expected.put("sum(portcullis_authorization_refusals_total{error=\"unsupported_response_type\"})", 1);
        expected.put("sum(portcullis_logouts_total{trigger=\"refresh_token\"})", 1);
        expected.put("sum(portcullis_http_request_duration_seconds_count{family=\"token\",status=\"2xx\"})", 3);
        // the two errors and the 413 that a filter answers before any endpoint (the timing filter is the first)
        expected.put("sum(portcullis_http_request_duration_seconds_count{family=\"token\",status=\"4xx\"})", 3);
        Map<String, Double> before = new LinkedHashMap<>();
        expected.keySet().forEach(q -> before.put(q, value(q)));

        scriptedSession();

        Map<String, Double> last = new LinkedHashMap<>();
        waitFor(() -> "Prometheus to see " + expected + " more than " + before + " (last seen: " + last + ")", () -> {
            boolean all = true;
            for (Map.Entry<String, Integer> e : expected.entrySet()) {
                double now = value(e.getKey());
                last.put(e.getKey(), now);
                all &= now == before.get(e.getKey()) + e.getValue();
            }
            return all;
        });
        assertTrue(value("max(portcullis_sso_sessions_active)") >= 1, "the signed-in session, from the database");
        assertEquals(0, value("max(portcullis_backchannel_queue_depth)"), "no client takes back-channel logouts");
        assertTrue(value("max(portcullis_signing_key_age_seconds)") >= 0, "a signing key signs");
    }

    @Test
    void everyMetricTheDashboardAndTheAlertRulesNameIsScraped() throws IOException {
        scriptedSession(); // so that the series that exist only after an event (grant types, errors) are there
        String scrape = server.http().get("/metrics", "Authorization", "Bearer " + TOKEN).body();
        Set<String> scraped = new TreeSet<>();
        Matcher sample = Pattern.compile("(?m)^([a-zA-Z_:][a-zA-Z0-9_:]*)[{ ]").matcher(scrape);
        while (sample.find()) {
            scraped.add(sample.group(1));
        }
        for (String doc : List.of("docs/grafana/portcullis.json", "docs/prometheus/alerts.yml")) {
            Set<String> named = metricNames(Files.readString(Path.of(doc)));
            assertFalse(named.isEmpty(), doc);
            Set<String> missing = new TreeSet<>(named);
            missing.removeAll(scraped);
            assertTrue(missing.isEmpty(), doc + " names metrics that no scrape has: " + missing);
        }
    }

    /** The metric names a dashboard or rule file uses: Portcullis's own and the JVM's. */
    static Set<String> metricNames(String doc) {
        Set<String> names = new TreeSet<>();
        Matcher m = Pattern.compile("\\b((?:portcullis|jvm|process)_[a-z0-9_]+)").matcher(doc);
        while (m.find()) {
            names.add(m.group(1));
        }
        return names;
    }

    /**
     * Two sign-ins with code redemptions, a wrong password and an unknown user, a refresh, a code that is no code, an
     * unknown grant type, a body over the limit, an authorization request with an unsupported response type, and a
     * refresh-token logout.
     */
    private static void scriptedSession() {
        Admin admin = new Admin(server.http(), ADMIN_TOKEN);
        Admin.TestClient client = admin.client(true, "openid", true, "https://app.example.com/cb");
        Admin.TestUser user = admin.user("correct horse battery");
        Http h = server.http();
        String basic = "Basic " + Base64.getEncoder().encodeToString((client.clientId() + ":" + client.secret())
                .getBytes(StandardCharsets.UTF_8));

        UserAgent failing = new UserAgent(server.base());
        Http.Res login = failing.follow(failing.authorize(Map.of("client_id", client.clientId(), "redirect_uri",
                client.redirectUri(), "response_type", "code", "scope", "openid", "state", "s")));
        Http.Res wrong = failing.signIn(login, user.username(), "not the password");
        assertTrue(wrong.status() == 200 && wrong.body().contains("id=\"login\""), wrong::toString);
        Http.Res nobody = failing.signIn(wrong, "nobody" + System.nanoTime(), "whatever it is");
        assertTrue(nobody.status() == 200 && nobody.body().contains("id=\"login\""), nobody::toString);

        new UserAgent(server.base()).codeFlow(client, user);
        String refreshToken = (String) new UserAgent(server.base()).codeFlow(client, user).get("refresh_token");
        Http.Res refreshed = h.postForm("/oauth/token", Map.of("grant_type", "refresh_token", "refresh_token",
                refreshToken), "Authorization", basic);
        assertEquals(200, refreshed.status(), refreshed::toString);
        Http.Res badCode = h.postForm("/oauth/token", Map.of("grant_type", "authorization_code", "code", "no-code",
                "redirect_uri", client.redirectUri()), "Authorization", basic);
        assertEquals("invalid_grant", badCode.jsonString("error"), badCode::toString);
        Http.Res badGrant = h.postForm("/oauth/token", Map.of("grant_type", "password"), "Authorization", basic);
        assertEquals("unsupported_grant_type", badGrant.jsonString("error"), badGrant::toString);
        Http.Res tooLarge = h.post("/oauth/token", "application/x-www-form-urlencoded", "grant_type=refresh_token&x="
                + "x".repeat(70_000));
        assertEquals(413, tooLarge.status(), tooLarge::toString);
        Http.Res implicit = new UserAgent(server.base()).authorize(Map.of("client_id", client.clientId(),
                "redirect_uri", client.redirectUri(), "response_type", "token", "scope", "openid", "state", "s"));
        assertTrue(String.valueOf(implicit.header("Location")).contains("error=unsupported_response_type"),
                implicit::toString);
        Http.Res logout = h.postForm("/oauth/logout", Map.of("refresh_token", (String) refreshed.json()
                .get("refresh_token")), "Authorization", basic);
        assertEquals(204, logout.status(), logout::toString);
    }

    /** The value of a PromQL expression that yields one sample; 0 when it yields none (a series not yet seen). */
    private static double value(String promql) {
        Http.Res r = new Http(prometheusBase).get("/api/v1/query?query=" + Http.enc(promql));
        assertEquals(200, r.status(), r::toString);
        Map<String, Object> data = asMap(r.json().get("data"));
        List<?> result = (List<?>) data.get("result");
        if (result.isEmpty()) {
            return 0;
        }
        List<?> v = (List<?>) asMap(result.get(0)).get("value");
        return Double.parseDouble(v.get(1).toString());
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> asMap(Object o) {
        return (Map<String, Object>) o;
    }

    private static Http.Res send(Http h, String method, String path, String... headers) {
        var b = h.request(path).method(method, java.net.http.HttpRequest.BodyPublishers.noBody());
        if (headers.length > 0) {
            b.headers(headers);
        }
        return h.send(b.build());
    }

    private static void waitFor(java.util.function.Supplier<String> what,
                                java.util.function.BooleanSupplier condition) {
        Instant deadline = Instant.now().plus(DEADLINE);
        while (!condition.getAsBoolean()) {
            if (Instant.now().isAfter(deadline)) {
                throw new AssertionError("Timed out waiting for " + what.get() + "\n" + prometheusLog());
            }
            try {
                Thread.sleep(200); // polling interval of a condition with a deadline, not a synchronisation
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
    }

    private static String prometheusLog() {
        try {
            String log = Files.readString(prometheusDir.resolve("prometheus.log"));
            return log.substring(Math.max(0, log.length() - 3000));
        } catch (IOException | RuntimeException e) {
            return "(no Prometheus log)";
        }
    }

    private static String newToken() {
        byte[] b = new byte[32];
        new SecureRandom().nextBytes(b);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(b);
    }
}
