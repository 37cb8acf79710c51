package dev.portcullis.signin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.portcullis.testing.Admin;
import dev.portcullis.testing.Db;
import dev.portcullis.testing.ForwardingProxy;
import dev.portcullis.testing.Http;
import dev.portcullis.testing.PayaraProcess;
import dev.portcullis.testing.UserAgent;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Sign-in throttling as an attacker meets it, over HTTP against a Payara Micro of its own: behind a reverse proxy
 * (the server trusts 127.0.0.1, where {@link ForwardingProxy} connects from), and under a burst of concurrent
 * attempts. Small limits (3 failures per account, the lock at once; 3 per address before it is slowed) so every
 * step is reached by requests, never by editing the counters.
 */
class SignInThrottlingIT {
    /** The counters of the proxy (127.0.0.1), of the attacker's own address and of the addresses it claims. */
    private static final String PROXY_AND_CLAIMED_COUNTERS = " WHERE throttle_key IN ('ip:127.0.0.1', "
            + "'ip:198.51.100.66') OR throttle_key LIKE 'ip:203.0.113.%'";
    private static final String PROXY_AND_CLAIMED_COUNTERS_DELETE = "DELETE FROM login_throttle"
            + PROXY_AND_CLAIMED_COUNTERS;

    private static final String PASSWORD = "correct horse battery";
    private static final int MAX_FAILURES = 3;
    private static final String INVALID = "Invalid username or password";
    private static final String WAIT = "Please wait a few seconds";
    private static final String BLOCKED = "Sign-in is blocked for a while";

    private static final long started = System.currentTimeMillis();
    private static PayaraProcess server;
    private static Admin admin;
    private static Admin.TestClient client;
    private static String othersAccessToken;
    private static String othersRefreshToken;
    private static final List<ForwardingProxy> proxies = new ArrayList<>();

    @BeforeAll
    static void start() {
        server = PayaraProcess.start("-Dportcullis.http.trusted-proxies=127.0.0.1/32,::1",
                "-Dportcullis.login.max-failures=" + MAX_FAILURES, "-Dportcullis.login.slowdown-after=" + MAX_FAILURES,
                "-Dportcullis.login.ip-max-failures=3");
        admin = new Admin(server.http(), System.getProperty("portcullis.test.admin-token"));
        assertEquals(200, server.http().get("/health/ready").status(), server::output);
        client = admin.confidentialClient("openid profile", "https://app.example.com/cb");
        // tokens of another user, to show the token and userinfo endpoints answer during the burst; signed in before
        // any test slows an address down (this browser connects from 127.0.0.1 itself, with no header: "unknown")
        Admin.TestUser other = admin.user(PASSWORD);
        Map<String, String> code = new UserAgent(server.base).authorizeAndGetRedirectParams(client, other, Map.of());
        Http.Res tokens = server.http().postJson("/oauth/token", client.codeExchangeJson(code.get("code")));
        assertEquals(200, tokens.status(), tokens::toString);
        othersAccessToken = tokens.jsonString("access_token");
        othersRefreshToken = tokens.jsonString("refresh_token");
    }

    @AfterAll
    static void stop() {
        proxies.forEach(ForwardingProxy::close);
        if (server != null) {
            server.close();
        }
        // the database is shared with the classes that run next: counters set under this class's strict limits
        // (an address slowed down after 3 failures) would make their servers refuse sign-ins from it
        Db.update("DELETE FROM login_throttle");
    }

    /** A browser on a machine at {@code address}, reaching the server through the load balancer. */
    private static UserAgent browserAt(String address) {
        ForwardingProxy p = new ForwardingProxy("http://127.0.0.1:" + server.port, address);
        proxies.add(p);
        return new UserAgent(p.base);
    }

    private static Http.Res loginPage(UserAgent ua) {
        Http.Res page = ua.get("/login.xhtml?" + Http.form(Map.of("client_id", client.clientId(), "redirect_uri",
                client.redirectUri(), "response_type", "code", "scope", "openid", "state", "s")));
        assertEquals(200, page.status(), page::toString);
        return page;
    }

    private static List<Map<String, Object>> audit(String type, String subject) {
        Http.Res r = admin.get("/admin/audit?limit=1000&since=" + started + "&type=" + type);
        assertEquals(200, r.status(), r::toString);
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> events = (List<Map<String, Object>>) (List<?>) r.json().get("events");
        return events.stream().filter(e -> subject.equals(e.get("subject"))).toList();
    }

    @Test
    void oneAttackerAddressIsSlowedWhileOthersBehindTheSameProxySignIn() {
        // the attacker rotates addresses inside one IPv6 /64 and sends a made-up X-Forwarded-For every time
        boolean slowed = false;
        List<String> answers = new ArrayList<>();
        for (int i = 1; i <= 12 && !slowed; i++) {
            UserAgent attacker = browserAt("2001:db8:66:1::" + Integer.toHexString(i));
            Http.Res page = loginPage(attacker);
            Map<String, String> f = UserAgent.formFields(page.body(), "login");
            f.put("login:username", "victim" + i + "x" + System.nanoTime()); // a new account each time
            f.put("login:password", "guess");
            f.put("login:submit", "Sign in");
            Http.Res r = attacker.submit(page.body(), "login", f, "X-Forwarded-For", "203.0.113." + i);
            assertEquals(200, r.status(), r::toString);
            assertFalse(r.body().contains(BLOCKED), "an address is slowed down, never locked out");
            answers.add(r.body().contains(WAIT) ? "wait" : r.body().contains(INVALID) ? "invalid" : r.body());
            slowed = r.body().contains(WAIT);
        }
        assertTrue(slowed, answers::toString);
        assertEquals(List.of("invalid", "invalid", "invalid"), answers.subList(0, 3), "3 failures before the delay");

        // the same proxy, other machines: nobody else waits
        for (String address : List.of("198.51.100.7", "198.51.100.8", "2001:db8:67::1")) {
            Admin.TestUser u = admin.user(PASSWORD);
            UserAgent ua = browserAt(address);
            Http.Res ok = ua.signIn(loginPage(ua), u.username(), u.password());
            assertEquals(303, ok.status(), () -> address + ": " + ok.body());
            assertEquals(address.contains(":") ? "2001:db8:67:0:0:0:0:1" : address,
                    audit("SIGN_IN_SUCCESS", u.userId()).get(0).get("ip"), "the audit trail names the client");
        }
    }

    @Test
    void contradictoryForwardedHeadersMakeAnUnknownClientNeverTheProxysAddress() {
        // the proxy appends X-Forwarded-For; the attacker adds a Forwarded header that names someone else. One of
        // the two is the client's own writing, so the client is unknown: a counter of its own, never 127.0.0.1,
        // the proxy's address that everyone behind it shares
        UserAgent attacker = browserAt("198.51.100.66");
        // other classes of the pass sign in wrongly straight from 127.0.0.1: start this test's counters from nothing
        Db.update(PROXY_AND_CLAIMED_COUNTERS_DELETE);
        List<Admin.TestUser> refused = new ArrayList<>();
        List<String> answers = new ArrayList<>();
        boolean slowed = false;
        // a wait of 1 s may be over before the next attempt on a busy machine; the delay doubles each time
        for (int i = 1; i <= 12 && !slowed; i++) {
            Admin.TestUser account = admin.user(PASSWORD); // one failure per account: only the address counts up
            Http.Res page = loginPage(attacker);
            Map<String, String> f = UserAgent.formFields(page.body(), "login");
            f.put("login:username", account.username());
            f.put("login:password", "guess");
            f.put("login:submit", "Sign in");
            Http.Res r = attacker.submit(page.body(), "login", f, "Forwarded", "for=203.0.113." + i);
            assertEquals(200, r.status(), r::toString);
            slowed = r.body().contains(WAIT);
            answers.add(slowed ? "wait" : r.body().contains(INVALID) ? "invalid" : r.body());
            if (!slowed) {
                refused.add(account);
            }
        }
        assertTrue(slowed, () -> "the unknown client is slowed down like any address: " + answers);
        assertEquals(List.of("invalid", "invalid", "invalid"), answers.subList(0, 3), "3 failures before the delay");
        for (Admin.TestUser account : refused) {
            List<Map<String, Object>> failures = audit("SIGN_IN_FAILURE", account.username());
            assertEquals(1, failures.size(), () -> String.valueOf(failures));
            assertEquals("unknown", failures.get(0).get("ip"), "neither header is believed, nor is the proxy");
        }
        assertEquals(0, Db.count("SELECT COUNT(*) FROM login_throttle" + PROXY_AND_CLAIMED_COUNTERS));

        // the attacker's own address and everyone else behind the proxy are not slowed by it
        for (String address : List.of("198.51.100.66", "198.51.100.67")) {
            Admin.TestUser u = admin.user(PASSWORD);
            UserAgent ua = browserAt(address);
            Http.Res ok = ua.signIn(loginPage(ua), u.username(), u.password());
            assertEquals(303, ok.status(), () -> address + ": " + ok.body());
            assertEquals(address, audit("SIGN_IN_SUCCESS", u.userId()).get(0).get("ip"));
        }
    }

    @Test
    void theAccountLockIsPerAccountAndASuccessClearsTheCounter() {
        Admin.TestUser locked = admin.user(PASSWORD);
        Admin.TestUser neighbour = admin.user(PASSWORD);
        UserAgent ua = browserAt("198.51.100.20");
        Http.Res page = loginPage(ua);
        for (int i = 0; i < MAX_FAILURES; i++) {
            page = ua.signIn(page, locked.username(), "wrong-" + i);
            assertTrue(page.body().contains(INVALID), page::body);
        }
        Http.Res refused = ua.signIn(page, locked.username(), locked.password());
        assertTrue(refused.body().contains(BLOCKED), refused::body);
        assertTrue(ua.cookie("portcullis_session").isEmpty(), "even the right password is refused");
        // the same account from elsewhere is locked too; another account is not
        UserAgent elsewhere = browserAt("198.51.100.21");
        assertTrue(elsewhere.signIn(loginPage(elsewhere), locked.username(), locked.password()).body()
                .contains(BLOCKED));
        assertEquals(303, elsewhere.signIn(loginPage(elsewhere), neighbour.username(), neighbour.password()).status());
        assertEquals(MAX_FAILURES, audit("SIGN_IN_FAILURE", locked.username()).size());

        // an unknown account is treated the same (nothing reveals which names exist)
        String ghost = "ghost" + System.nanoTime();
        UserAgent g = browserAt("198.51.100.22");
        Http.Res gp = loginPage(g);
        for (int i = 0; i < MAX_FAILURES; i++) {
            gp = g.signIn(gp, ghost, "wrong-" + i);
            assertTrue(gp.body().contains(INVALID), gp::body);
        }
        assertTrue(g.signIn(gp, ghost, "x").body().contains(BLOCKED));

        // below the maximum, the right password signs in and clears the account's counter
        Admin.TestUser u = admin.user(PASSWORD);
        UserAgent ub = browserAt("198.51.100.23");
        Http.Res up = ub.signIn(loginPage(ub), u.username(), "wrong");
        assertTrue(up.body().contains(INVALID), up::body);
        assertEquals(303, ub.signIn(up, u.username(), u.password()).status());
        assertEquals(0, Db.count("SELECT COUNT(*) FROM login_throttle WHERE throttle_key = ?", "user:" + u.username()));
    }

    @Test
    void aBurstOfConcurrentGuessesVerifiesAtMostMaxFailuresPasswords() throws Exception {
        Admin.TestUser victim = admin.user(PASSWORD);

        int burst = 50;
        List<UserAgent> browsers = new ArrayList<>();
        List<Http.Res> pages = new ArrayList<>();
        ForwardingProxy attackersProxy = new ForwardingProxy("http://127.0.0.1:" + server.port, "198.51.100.50");
        proxies.add(attackersProxy);
        for (int i = 0; i < burst; i++) { // each guess with its own valid CSRF pair, from one attacker's machine
            UserAgent ua = new UserAgent(attackersProxy.base);
            browsers.add(ua);
            pages.add(loginPage(ua));
        }
        CyclicBarrier start = new CyclicBarrier(burst + 4);
        List<Callable<String>> tasks = new ArrayList<>();
        for (int i = 0; i < burst; i++) {
            UserAgent ua = browsers.get(i);
            Http.Res page = pages.get(i);
            int n = i;
            tasks.add(() -> {
                start.await();
                Http.Res r = ua.signIn(page, victim.username(), "guess-" + n);
                return r.status() + (r.body().contains(INVALID) ? " invalid" : r.body().contains(BLOCKED) ? " blocked"
                        : r.body().contains(WAIT) ? " wait" : " " + r.body());
            });
        }
        for (int i = 0; i < 3; i++) {
            tasks.add(() -> {
                start.await();
                return "userinfo " + server.http().get("/oauth/userinfo", "Authorization", "Bearer "
                        + othersAccessToken).status();
            });
        }
        tasks.add(() -> {
            start.await();
            Http.Res r = server.http().postForm("/oauth/token", Map.of("grant_type", "refresh_token",
                    "refresh_token", othersRefreshToken, "client_id", client.clientId(), "client_secret",
                    client.secret()));
            return "token " + r.status();
        });
        ExecutorService pool = Executors.newFixedThreadPool(tasks.size());
        List<String> answers = new ArrayList<>();
        try {
            for (Future<String> f : pool.invokeAll(tasks, 180, TimeUnit.SECONDS)) {
                answers.add(f.get());
            }
        } finally {
            pool.shutdownNow();
        }
        assertEquals(3, answers.stream().filter("userinfo 200"::equals).count(), answers::toString);
        assertTrue(answers.contains("token 200"), answers::toString);
        long invalid = answers.stream().filter("200 invalid"::equals).count();
        long refused = answers.stream().filter(a -> a.equals("200 blocked") || a.equals("200 wait")).count();
        assertEquals(burst, invalid + refused, answers::toString);
        assertTrue(invalid >= 1 && invalid <= MAX_FAILURES, answers::toString);
        assertTrue(audit("SIGN_IN_FAILURE", victim.username()).size() <= MAX_FAILURES,
                "at most max-failures passwords were verified");
        assertEquals(invalid, audit("SIGN_IN_FAILURE", victim.username()).size());
    }
}
