package dev.portcullis.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The side-by-side peer's pure logic: its discovery, its token requests and session cookies, the ratio table. */
class PeerBenchTest {

    private static final String ISSUER = "http://localhost:4711";

    @Test
    void discoveryGivesTheEndpointsAsPathsOnTheIssuer() throws IOException {
        Target.Endpoints e = PeerServer.endpoints("{\"issuer\":\"" + ISSUER + "\",\"authorization_endpoint\":\"" + ISSUER
                + "/auth\",\"token_endpoint\":\"" + ISSUER + "/token\",\"userinfo_endpoint\":\"" + ISSUER + "/me\"}", ISSUER);
        assertEquals(new Target.Endpoints("/auth", "/token", "/me", List.of("_session", "_session.sig"), true), e);
    }

    @Test
    void discoveryOfAnotherIssuerOrEndpointsElsewhereIsRefused() {
        assertThrows(IOException.class, () -> PeerServer.endpoints("{\"issuer\":\"http://localhost:1\","
                + "\"authorization_endpoint\":\"http://localhost:1/auth\",\"token_endpoint\":\"http://localhost:1/token\","
                + "\"userinfo_endpoint\":\"http://localhost:1/me\"}", ISSUER));
        assertThrows(IOException.class, () -> PeerServer.endpoints("{\"issuer\":\"" + ISSUER + "\",\"authorization_endpoint\":\""
                + ISSUER + "/auth\",\"token_endpoint\":\"http://elsewhere/token\",\"userinfo_endpoint\":\"" + ISSUER + "/me\"}", ISSUER));
        assertThrows(IOException.class, () -> PeerServer.endpoints("{\"issuer\":\"" + ISSUER + "\",\"authorization_endpoint\":\""
                + ISSUER + "/auth\",\"token_endpoint\":\"" + ISSUER + "/token\"}", ISSUER));
        assertThrows(IOException.class, () -> PeerServer.endpoints("<html>", ISSUER));
    }

    @Test
    void tokenRequestsAreFormsForThePeerAndJsonForPortcullis() throws IOException {
        List<String> sent = new ArrayList<>();
        LoadHttp recorder = new LoadHttp() {
            @Override
            public Reply send(String method, String path, String contentType, String body, String... headers) {
                sent.add(method + " " + path + " " + contentType + " " + body);
                return new Reply(200, Map.of(), "{}");
            }

            @Override
            public void close() {
            }
        };
        Map<String, String> params = new java.util.LinkedHashMap<>();
        params.put("grant_type", "authorization_code");
        params.put("redirect_uri", "http://127.0.0.1/bench/callback");
        BenchOptions o = BenchOptions.fromSystemProperties();
        new Target(o, 4711, ISSUER, null, new Target.Endpoints("/auth", "/token", "/me", List.of("_session"), true))
                .postToken(recorder, params);
        new Target(o, 4711, "x").postToken(recorder, params);
        assertEquals(List.of("POST /token application/x-www-form-urlencoded "
                        + "grant_type=authorization_code&redirect_uri=http%3A%2F%2F127.0.0.1%2Fbench%2Fcallback",
                "POST /oauth/token application/json "
                        + "{\"grant_type\":\"authorization_code\",\"redirect_uri\":\"http://127.0.0.1/bench/callback\"}"), sent);
        Target peer = new Target(o, 4711, ISSUER, null, Target.PORTCULLIS);
        assertTrue(peer.isPeer());
        assertTrue(peer.authorizePath(new Target.BenchClient("c", null, "http://127.0.0.1/cb"), "s", null)
                .startsWith("/oauth/authorize?response_type=code&client_id=c&"));
    }

    @Test
    void adminReadAndSignInAreNotApplicableToThePeer() {
        Target peer = new Target(BenchOptions.fromSystemProperties(), 4711, ISSUER, null, Target.PORTCULLIS);
        for (String name : List.of("admin-read", "sign-in")) {
            ScenarioUnavailable e = assertThrows(ScenarioUnavailable.class, () -> Scenarios.byName(name).prepare(0, peer));
            assertTrue(e.getMessage().startsWith("n/a: "), e.getMessage());
        }
    }

    @Test
    void onlyTheKnownPeerIsAccepted() {
        try {
            System.setProperty("bench.peer", "keycloak");
            assertThrows(IllegalArgumentException.class, BenchOptions::fromSystemProperties);
            System.setProperty("bench.peer", "node-oidc-provider");
            assertEquals("node-oidc-provider", BenchOptions.fromSystemProperties().peer());
            System.setProperty("bench.peer", "none");
            assertEquals(null, BenchOptions.fromSystemProperties().peer());
        } finally {
            System.clearProperty("bench.peer");
        }
    }

    @Test
    void sessionKeepsEveryOneOfItsCookiesUpToDate() {
        Scenarios.Session s = new Scenarios.Session("_session=a; _session.sig=b");
        s.update(new Reply(303, Map.of("set-cookie", List.of("_session.sig=c; path=/; httponly", "_interaction=x; path=/",
                "_session=; max-age=0")), ""));
        assertEquals("_session=a; _session.sig=c", s.cookieHeader);
        s.update(new Reply(303, Map.of(), ""));
        assertEquals("_session=a; _session.sig=c", s.cookieHeader);
    }

    @Test
    void ratiosArePortcullisOverThePeerAndNaWhereEitherHasNoFigure() {
        BenchOptions o = BenchOptions.fromSystemProperties();
        BenchReport.Run portcullis = run(o, null, 15000, 400 * 1024, List.of(
                result("sso-code-flow", 600, 2.0, 10.0, 40.0, 450 * 1024),
                result("refresh", 900, 1.0, 4.0, 20.0, 460 * 1024),
                ScenarioResult.skipped("admin-read", 8, "x"),
                result("userinfo", 3000, 0.3, 1.0, 5.0, 470 * 1024),
                result("sign-in", 10, 60, 90, 120, 470 * 1024)));
        BenchReport.Run peer = run(o, "node-oidc-provider 9.13.3", 500, 80 * 1024, List.of(
                result("sso-code-flow", 400, 2.5, 12.5, 32.0, 90 * 1024),
                new ScenarioResult("refresh", 8, 5, 0, 0, 0, 0, 0, 3, 0, Map.of(), 90 * 1024, 0, 0, 0, null),
                ScenarioResult.skipped("admin-read", 8, "n/a: the peer has no admin API"),
                result("userinfo", 2000, 0.6, 2.0, 4.0, 100 * 1024)));
        List<PeerComparison.Row> rows = PeerComparison.rows(portcullis, peer);
        assertEquals(new PeerComparison.Row("sso-code-flow", Optional.of(1.5), Optional.of(0.8), Optional.of(0.8),
                Optional.of(1.25), Optional.of(5.0), null), rows.get(0));
        assertEquals(Optional.empty(), rows.get(1).flowsPerSecond());
        assertEquals("peer: no successful flow", rows.get(1).note());
        assertEquals("Portcullis: x", rows.get(2).note());
        assertEquals(Optional.of(1.5), rows.get(3).flowsPerSecond());
        assertEquals("not run on the peer", rows.get(4).note());
        String md = PeerComparison.markdown(portcullis, peer);
        assertTrue(md.contains("15000 ms ÷ 500 ms = 30.00×"), md);
        assertTrue(md.contains("| sso-code-flow | 1.50× | 0.80× | 0.80× | 1.25× | 5.00× |  |"), md);
        assertTrue(md.contains("| refresh | n/a | n/a | n/a | n/a | n/a | peer: no successful flow |"), md);
        String json = PeerComparison.json(portcullis, peer);
        assertTrue(json.contains("{\"scenario\":\"sso-code-flow\",\"flows_per_second\":1.500,\"server_cpu_ms_per_flow\":0.800,"
                + "\"p50_ms\":0.800,\"p99_ms\":1.250,\"server_rss_max\":5.000,\"note\":null}"), json);
        assertTrue(json.contains("\"ready_ms\": 30.000"), json);
        assertEquals(Optional.empty(), PeerComparison.ratio(3, 0));
        assertEquals(Optional.empty(), PeerComparison.ratio(-1, 5));
    }

    private static BenchReport.Run run(BenchOptions o, String peer, long ready, long idleRss, List<ScenarioResult> results) {
        return new BenchReport.Run("h2", "t", ready, idleRss, "m", "0", "0", o, results, peer);
    }

    private static ScenarioResult result(String name, double flowsPerSecond, double cpu, double p50, double p99, long rss) {
        return new ScenarioResult(name, 8, 10, (long) (flowsPerSecond * 10), flowsPerSecond, p50, p99, p99 * 2, 0, 0,
                Map.of(), rss, cpu, 0, 0.1, null);
    }
}
