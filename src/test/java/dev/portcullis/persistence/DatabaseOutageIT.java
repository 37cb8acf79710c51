package dev.portcullis.persistence;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.portcullis.testing.Admin;
import dev.portcullis.testing.CodeFixture;
import dev.portcullis.testing.Db;
import dev.portcullis.testing.Http;
import dev.portcullis.testing.PayaraProcess;
import dev.portcullis.testing.TcpProxy;
import dev.portcullis.testing.UserAgent;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * PostgreSQL goes away mid-run and comes back: the server answers clean 503s (never a stack trace, never a
 * half-written row, never a good access token called invalid), readiness goes DOWN, and it recovers by itself.
 * Two outages are simulated by a TCP proxy between this one server and the PostgreSQL that every other test uses:
 * refused connections, then a database that accepts connections and never answers. During each, a code redemption,
 * a refresh, a revocation and a sign-in are refused cleanly; afterwards the rows of every table they write are as
 * before, and the same code, refresh token and credentials work.
 */
@Tag("postgres-only")
class DatabaseOutageIT {

    /** The JDBC socket time-out of this server, shorter than the 30 s default so the hanging phase is quick. */
    private static final int SOCKET_TIMEOUT_SECONDS = 2;
    /**
     * How long a request may take against a hanging database: a bounded number of socket time-outs (a code
     * redemption waits for about ten: the statement, then the retries and new connections that each time out).
     */
    private static final Duration HANG_BOUND = Duration.ofSeconds(SOCKET_TIMEOUT_SECONDS * 20L);

    @Test
    void outageGivesCleanErrorsAndServiceRecoversWithoutRestart() {
        String url = System.getProperty("portcullis.test.jdbc-url").replace("127.0.0.1:5432", "127.0.0.1:%d");
        try (TcpProxy proxy = new TcpProxy(5432);
             PayaraProcess server = PayaraProcess.start("-Dportcullis.db.url=" + String.format(url, proxy.port)
                     + (url.contains("?") ? "&" : "?") + "socketTimeout=" + SOCKET_TIMEOUT_SECONDS)) {
            Http http = server.http();
            Admin admin = new Admin(http, System.getProperty("portcullis.test.admin-token"));
            assertEquals(200, http.get("/health/ready").status(), server::output);
            Admin.TestUser user = admin.user("before outage pass");
            Admin.TestClient client = admin.confidentialClient("openid read_user", "https://rp.example.com/cb");
            Flow flow = new Flow(http, client, user);
            Http.Res tokens = flow.redeem(flow.newCode());
            assertEquals(200, tokens.status(), tokens::toString);
            String bearer = "Bearer " + tokens.jsonString("access_token");
            String toRefresh = tokens.jsonString("refresh_token");
            String toRevoke = flow.redeem(flow.newCode()).jsonString("refresh_token");
            String toRedeem = flow.newCode();
            UserAgent browser = new UserAgent(server.base);
            Http.Res loginPage = flow.loginPage(browser);
            long usersBefore = Db.count("SELECT COUNT(*) FROM users");
            Map<String, Long> rowsBefore = flow.rows();
            flow.assertConsistent();

            proxy.cut();

            Http.Res ready = http.get("/health/ready");
            assertEquals(503, ready.status(), ready::toString);
            assertTrue(ready.body().contains("DOWN"));
            Http.Res create = admin.post("/admin/users", "{\"username\":\"during-outage\",\"password\":\"during outage pass\"}");
            assertEquals(503, create.status(), create::toString);
            assertEquals("temporarily_unavailable", create.jsonString("error"));
            Http.Res list = admin.get("/admin/clients");
            assertEquals(503, list.status(), list::toString);
            assertFalse(list.body().contains("Exception"), "no stack trace or exception name reaches the client");
            // a good access token is not declared invalid because its record cannot be read: clients that are told
            // invalid_token throw their tokens away
            for (String path : new String[] {"/oauth/userinfo", "/api/v1/me"}) {
                Http.Res res = http.get(path, "Authorization", bearer);
                assertEquals(503, res.status(), () -> path + ": " + res);
                assertEquals("temporarily_unavailable", res.jsonString("error"), path);
            }
            flow.assertRefusedCleanly(toRedeem, toRefresh, toRevoke, browser, loginPage, Duration.ofSeconds(60));

            proxy.restore();

            assertEquals(200, http.get("/health/ready").status(), "recovers without a restart");
            assertEquals(200, admin.get("/admin/clients").status());
            assertEquals(200, http.get("/api/v1/me", "Authorization", bearer).status(), "the token is still good");
            assertEquals(usersBefore, Db.count("SELECT COUNT(*) FROM users"), "nothing half-written");
            assertEquals(0, Db.count("SELECT COUNT(*) FROM users WHERE username = 'during-outage'"));
            assertEquals(rowsBefore, flow.rows(), "no row of the refused redemption, refresh, revocation, sign-in");
            flow.assertConsistent();
            admin.user("after outage pass");

            // a database that accepts connections and never answers: bounded, clean refusals
            toRefresh = flow.assertStillWork(toRedeem, toRefresh, toRevoke, browser);
            toRedeem = flow.newCode();
            toRevoke = flow.redeem(flow.newCode()).jsonString("refresh_token");
            browser = new UserAgent(server.base);
            loginPage = flow.loginPage(browser);
            rowsBefore = flow.rows();

            proxy.hang();

            long start = System.nanoTime();
            Http.Res hungReady = http.get("/health/ready");
            assertEquals(503, hungReady.status(), hungReady::toString);
            assertTrue(Duration.ofNanos(System.nanoTime() - start).compareTo(HANG_BOUND) < 0, "readiness is bounded");
            Http.Res hungMe = http.get("/api/v1/me", "Authorization", bearer);
            assertEquals(503, hungMe.status(), hungMe::toString);
            assertEquals("temporarily_unavailable", hungMe.jsonString("error"));
            flow.assertRefusedCleanly(toRedeem, toRefresh, toRevoke, browser, loginPage, HANG_BOUND);

            proxy.restore();

            assertEquals(200, http.get("/health/ready").status(), "recovers from a hanging database too");
            assertEquals(rowsBefore, flow.rows(), "nothing half-written while the database hung");
            flow.assertConsistent();
            flow.assertStillWork(toRedeem, toRefresh, toRevoke, browser);
        }
    }

    /** The test's client and user, the requests of the flow, and the rows they own. */
    private record Flow(Http http, Admin.TestClient client, Admin.TestUser user) {

        String newCode() {
            return CodeFixture.issue(client.clientId(), user.userId(), client.redirectUri(), true, "openid read_user",
                    null, null, 600);
        }

        Http.Res redeem(String code) {
            return http.postJson("/oauth/token", client.codeExchangeJson(code));
        }

        Http.Res refresh(String refreshToken) {
            return http.postJson("/oauth/token", "{\"grant_type\":\"refresh_token\",\"refresh_token\":"
                    + Http.q(refreshToken) + ",\"client_id\":" + Http.q(client.clientId()) + ",\"client_secret\":"
                    + Http.q(client.secret()) + "}");
        }

        Http.Res revoke(String refreshToken) {
            return http.postForm("/oauth/revoke", Map.of("token", refreshToken, "token_type_hint", "refresh_token",
                    "client_id", client.clientId(), "client_secret", client.secret()));
        }

        /** The sign-in page of a fresh authorization request, fetched while the database is up. */
        Http.Res loginPage(UserAgent browser) {
            Http.Res r = browser.authorize(Map.of("client_id", client.clientId(), "redirect_uri",
                    client.redirectUri(), "response_type", "code", "scope", "openid", "state", "outage"));
            assertEquals(302, r.status(), r::toString);
            Http.Res page = browser.follow(r);
            assertTrue(page.status() == 200 && page.body().contains("id=\"login\""), page::toString);
            return page;
        }

        /** Each of redemption, refresh, revocation and sign-in answers a clean error within {@code bound}. */
        void assertRefusedCleanly(String code, String refreshToken, String revokeToken, UserAgent browser,
                                  Http.Res loginPage, Duration bound) {
            assertJsonRefusal("code redemption", () -> redeem(code), bound);
            assertJsonRefusal("refresh", () -> refresh(refreshToken), bound);
            assertJsonRefusal("revocation", () -> revoke(revokeToken), bound);
            Http.Res signIn = timed("sign-in", () -> browser.signIn(loginPage, user.username(), user.password()),
                    bound);
            assertEquals(503, signIn.status(), signIn::toString);
            assertTrue(signIn.header("Content-Type").startsWith("text/html"), signIn::toString);
            assertClean(signIn);
            assertTrue(browser.cookie("portcullis_session").isEmpty(), "no session cookie without a session row");
        }

        private static void assertJsonRefusal(String what, Supplier<Http.Res> request, Duration bound) {
            Http.Res r = timed(what, request, bound);
            assertEquals(503, r.status(), () -> what + ": " + r);
            assertEquals("temporarily_unavailable", r.jsonString("error"), what);
            assertClean(r);
        }

        private static void assertClean(Http.Res r) {
            assertFalse(r.body().contains("Exception") || r.body().contains("at dev.portcullis")
                    || r.body().contains("SQL"), () -> "no stack trace or exception reaches the client: " + r);
        }

        private static Http.Res timed(String what, Supplier<Http.Res> request, Duration bound) {
            long start = System.nanoTime();
            Http.Res r = request.get();
            Duration took = Duration.ofNanos(System.nanoTime() - start);
            assertTrue(took.compareTo(bound) < 0, () -> what + " took " + took + ": " + r);
            return r;
        }

        /**
         * After the outage the refused requests are exactly as if never sent: the code redeems, the refresh token
         * rotates (once; its predecessor is then refused), the revoked-during-outage token is still live and is
         * revoked now, and the sign-in succeeds. Returns the rotated refresh token.
         */
        String assertStillWork(String code, String refreshToken, String revokeToken, UserAgent browser) {
            Http.Res redeemed = redeem(code);
            assertEquals(200, redeemed.status(), () -> "the code was not half-redeemed: " + redeemed);
            Http.Res refreshed = refresh(refreshToken);
            assertEquals(200, refreshed.status(), () -> "the refresh token was not half-rotated: " + refreshed);
            Http.Res stillLive = refresh(revokeToken);
            assertEquals(200, stillLive.status(), () -> "the revocation did not half-happen: " + stillLive);
            Http.Res revoked = revoke(stillLive.jsonString("refresh_token"));
            assertEquals(200, revoked.status(), revoked::toString);
            Http.Res refused = refresh(stillLive.jsonString("refresh_token"));
            assertEquals(400, refused.status(), refused::toString);
            assertEquals("invalid_grant", refused.jsonString("error"));
            Http.Res signedIn = browser.signIn(loginPage(browser), user.username(), user.password());
            assertEquals(303, signedIn.status(), signedIn::toString);
            assertTrue(browser.cookie("portcullis_session").isPresent(), signedIn::toString);
            assertConsistent();
            return refreshed.jsonString("refresh_token");
        }

        /** Row counts of every table the flow writes, for this client and user only. */
        Map<String, Long> rows() {
            String grants = "SELECT grant_id FROM token_grants WHERE client_id = ?";
            Map<String, Long> rows = new LinkedHashMap<>();
            rows.put("codes", Db.count("SELECT COUNT(*) FROM authorization_codes WHERE client_id = ?", client.clientId()));
            rows.put("redeemed codes", Db.count("SELECT COUNT(*) FROM authorization_codes WHERE client_id = ? AND "
                    + "redeemed_at IS NOT NULL", client.clientId()));
            rows.put("grants", Db.count("SELECT COUNT(*) FROM token_grants WHERE client_id = ?", client.clientId()));
            rows.put("revoked grants", Db.count("SELECT COUNT(*) FROM token_grants WHERE client_id = ? AND "
                    + "revoked_at IS NOT NULL", client.clientId()));
            rows.put("access tokens", Db.count("SELECT COUNT(*) FROM access_tokens WHERE grant_id IN (" + grants + ")",
                    client.clientId()));
            rows.put("refresh tokens", Db.count("SELECT COUNT(*) FROM refresh_tokens WHERE grant_id IN (" + grants
                    + ")", client.clientId()));
            rows.put("rotated refresh tokens", Db.count("SELECT COUNT(*) FROM refresh_tokens WHERE used_at IS NOT NULL"
                    + " AND grant_id IN (" + grants + ")", client.clientId()));
            rows.put("sessions", Db.count("SELECT COUNT(*) FROM sso_sessions WHERE user_id = ?", user.userId()));
            rows.put("audit events", Db.count("SELECT COUNT(*) FROM audit_events WHERE client_id = ? OR subject IN "
                    + "(?, ?)", client.clientId(), user.userId(), user.username()));
            return rows;
        }

        /**
         * No half-written flow: every redeemed code has its grant and every grant its code; each grant holds one
         * refresh token plus one successor per rotation, and one access token per refresh token issued.
         */
        void assertConsistent() {
            Map<String, Long> rows = rows();
            assertEquals(rows.get("redeemed codes"), rows.get("grants"), rows::toString);
            assertEquals(0, Db.count("SELECT COUNT(*) FROM authorization_codes c WHERE c.client_id = ? AND "
                    + "(c.redeemed_at IS NULL) <> (c.grant_id IS NULL)", client.clientId()),
                    "a code is redeemed exactly when it names its grant");
            assertEquals(0, Db.count("SELECT COUNT(*) FROM token_grants g WHERE g.client_id = ? AND NOT EXISTS "
                    + "(SELECT 1 FROM authorization_codes c WHERE c.grant_id = g.grant_id)", client.clientId()),
                    "every grant comes from a redeemed code");
            assertEquals(rows.get("grants") + rows.get("rotated refresh tokens"), rows.get("refresh tokens"),
                    () -> "each rotation wrote its successor: " + rows);
            assertEquals(rows.get("refresh tokens"), rows.get("access tokens"),
                    () -> "one access token per token response: " + rows);
        }
    }
}
