package dev.portcullis.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.crypto.RSASSAVerifier;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.portcullis.testing.Admin;
import dev.portcullis.testing.Db;
import dev.portcullis.testing.Http;
import dev.portcullis.testing.ServerTestBase;
import dev.portcullis.testing.UserAgent;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Back-channel logout end to end (OIDC Back-Channel Logout 1.0): a receiver on a loopback port, registered as
 * clients' {@code backchannel_logout_uri}, gets a logout token whose every claim checks against the JWKS, for each
 * way a session ends; a client without a URI gets nothing; a receiver that fails first (5xx, 429) gets it on a retry;
 * one that answers what a retry would not change (400, a redirect) is given up at once; one that never answers holds
 * no logout and is given up after {@code portcullis.logout.backchannel.retry-for} (set short for
 * the test servers by {@code testing.ItEnvironment}).
 */
class BackchannelLogoutIT extends ServerTestBase {

    private static final String REDIRECT = "https://rp.example.com/cb";
    private static final String SIGNED_OUT = "https://rp.example.com/signed-out";
    private static final String EVENT = "http://schemas.openid.net/event/backchannel-logout";
    /** How long a test waits for an outcome: the give-up window of the test servers plus attempts' time-outs. */
    private static final Duration PATIENCE = Duration.ofSeconds(90);

    private static HttpServer receiver;
    private static final Map<String, Queue<Received>> RECEIVED = new ConcurrentHashMap<>();
    /** Per path, the statuses to answer in turn (the last one repeats); absent = 200; -1 = never answer. */
    private static final Map<String, List<Integer>> ANSWERS = new ConcurrentHashMap<>();
    private static final CountDownLatch RELEASE_HANGING = new CountDownLatch(1);

    private final Http http = http();
    private final Admin admin = admin();

    /** One request the receiver got. */
    record Received(String method, String contentType, String body) {
        String logoutToken() {
            assertTrue(body.startsWith("logout_token=") && !body.contains("&"), body);
            return URLDecoder.decode(body.substring("logout_token=".length()), StandardCharsets.UTF_8);
        }
    }

    @BeforeAll
    static void startReceiver() throws IOException {
        receiver = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 50);
        receiver.setExecutor(Executors.newCachedThreadPool());
        receiver.createContext("/", BackchannelLogoutIT::receive);
        receiver.start();
    }

    @AfterAll
    static void stopReceiver() {
        RELEASE_HANGING.countDown();
        receiver.stop(0);
    }

    private static void receive(HttpExchange ex) throws IOException {
        String path = ex.getRequestURI().getPath();
        String body = new String(ex.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
        Queue<Received> got = RECEIVED.computeIfAbsent(path, p -> new ConcurrentLinkedQueue<>());
        got.add(new Received(ex.getRequestMethod(), ex.getRequestHeaders().getFirst("Content-Type"), body));
        List<Integer> answers = ANSWERS.getOrDefault(path, List.of(200));
        int status = answers.get(Math.min(got.size(), answers.size()) - 1);
        if (status == -1) {
            try {
                RELEASE_HANGING.await(); // holds the connection open without a word until the class ends
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            ex.close();
            return;
        }
        if (status == 302) {
            ex.getResponseHeaders().add("Location", uri(path + "-redirected"));
        }
        ex.sendResponseHeaders(status, -1);
        ex.close();
    }

    private static String uri(String path) {
        return "http://127.0.0.1:" + receiver.getAddress().getPort() + path;
    }

    private static String newPath() {
        return "/bcl/" + Long.toHexString(System.nanoTime());
    }

    private static List<Received> received(String path) {
        return new ArrayList<>(RECEIVED.getOrDefault(path, new ConcurrentLinkedQueue<>()));
    }

    private static void await(String what, BooleanSupplier done) {
        Instant deadline = Instant.now().plus(PATIENCE);
        while (!done.getAsBoolean()) {
            assertTrue(Instant.now().isBefore(deadline), "timed out waiting for: " + what);
            try {
                Thread.sleep(50); // polling interval of a condition with a deadline, not a synchronisation
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError(e);
            }
        }
    }

    private static List<Received> awaitReceived(String path, int n) {
        await(n + " request(s) at " + path, () -> received(path).size() >= n);
        return received(path);
    }

    private static long audited(String type, String clientId) {
        return Db.count("SELECT COUNT(*) FROM audit_events WHERE event_type = ? AND client_id = ?", type, clientId);
    }

    /** A confidential client that skips consent, with a post-logout redirect URI and this back-channel URI. */
    private Admin.TestClient client(String backchannelUri, boolean sessionRequired) {
        String bcl = backchannelUri == null ? "" : ",\"backchannel_logout_uri\":" + Http.q(backchannelUri)
                + ",\"backchannel_logout_session_required\":" + sessionRequired;
        Http.Res r = admin.post("/admin/clients", "{\"client_name\":\"Back-channel RP\",\"redirect_uris\":["
                + Http.q(REDIRECT) + "],\"post_logout_redirect_uris\":[" + Http.q(SIGNED_OUT) + "],"
                + "\"confidential\":true,\"scopes\":\"openid\",\"skip_consent\":true" + bcl + "}");
        assertEquals(201, r.status(), r::toString);
        return new Admin.TestClient(r.jsonString("client_id"), r.jsonString("client_secret"), REDIRECT,
                "Back-channel RP");
    }

    private static JWTClaimsSet claims(Object idToken) throws Exception {
        return SignedJWT.parse((String) idToken).getJWTClaimsSet();
    }

    /**
     * Checks a logout token as a relying party must (sec. 2.6) against the issuer's JWKS, and that it names the
     * session of {@code idToken}; returns its claims.
     */
    private JWTClaimsSet verified(String logoutToken, Admin.TestClient rp, JWTClaimsSet idToken) throws Exception {
        SignedJWT jwt = SignedJWT.parse(logoutToken);
        assertEquals("logout+jwt", jwt.getHeader().getType().getType());
        assertEquals(JWSAlgorithm.RS256, jwt.getHeader().getAlgorithm());
        Http.Res jwks = http.get("/oauth/discovery/keys");
        assertEquals(200, jwks.status(), jwks::toString);
        RSAKey key = (RSAKey) JWKSet.parse(jwks.body()).getKeyByKeyId(jwt.getHeader().getKeyID());
        assertNotNull(key, "signed with a key of the JWKS");
        assertTrue(jwt.verify(new RSASSAVerifier(key)), "the signature checks");
        JWTClaimsSet c = jwt.getJWTClaimsSet();
        assertEquals(BASE, c.getIssuer());
        assertEquals(List.of(rp.clientId()), c.getAudience());
        assertNotNull(c.getIssueTime());
        assertNotNull(c.getExpirationTime());
        long iat = c.getIssueTime().toInstant().getEpochSecond();
        long exp = c.getExpirationTime().toInstant().getEpochSecond();
        assertTrue(exp > iat && exp <= iat + 120, "exp within 2 minutes of iat: " + iat + " " + exp);
        assertTrue(Math.abs(Instant.now().getEpochSecond() - iat) < 60, "issued now");
        assertNotNull(c.getJWTID());
        assertTrue(c.getJWTID().length() >= 16, "a random jti");
        assertEquals(idToken.getSubject(), c.getSubject(), "sub as in the ID token");
        assertEquals(idToken.getStringClaim("sid"), c.getStringClaim("sid"), "sid as in the ID token");
        assertEquals(Map.of(EVENT, Map.of()), c.getJSONObjectClaim("events"));
        assertFalse(c.getClaims().containsKey("nonce"), "never a nonce");
        return c;
    }

    @Test
    void anRpInitiatedLogoutTellsEachClientOfTheSessionWithAUriOnceWithAVerifiedLogoutToken() throws Exception {
        String pathA = newPath();
        String pathB = newPath();
        Admin.TestClient a = client(uri(pathA), true);
        Admin.TestClient b = client(uri(pathB), false);
        Admin.TestClient none = client(null, true);
        Admin.TestClient unused = client(uri(newPath()), true);
        Admin.TestUser user = admin.user("correct horse battery");
        UserAgent ua = new UserAgent(BASE);
        JWTClaimsSet idA = claims(ua.codeFlow(a, user).get("id_token"));
        JWTClaimsSet idB = claims(ua.codeFlow(b, user).get("id_token"));
        String hint = (String) ua.codeFlow(none, user).get("id_token");
        assertNotNull(idA.getStringClaim("sid"));
        String otherSessionsRefresh = (String) new UserAgent(BASE).codeFlow(a, user).get("refresh_token");

        Http.Res out = ua.http().get("/oauth/logout?id_token_hint=" + Http.enc(hint) + "&post_logout_redirect_uri="
                + Http.enc(SIGNED_OUT));
        assertEquals(302, out.status(), out::toString);

        Received atA = awaitReceived(pathA, 1).get(0);
        assertEquals("POST", atA.method());
        assertEquals("application/x-www-form-urlencoded", atA.contentType());
        JWTClaimsSet tokenA = verified(atA.logoutToken(), a, idA);
        JWTClaimsSet tokenB = verified(awaitReceived(pathB, 1).get(0).logoutToken(), b, idB);
        assertFalse(tokenA.getJWTID().equals(tokenB.getJWTID()), "each token its own jti");
        await("both deliveries audited", () -> audited("BACKCHANNEL_LOGOUT_DELIVERED", a.clientId()) == 1
                && audited("BACKCHANNEL_LOGOUT_DELIVERED", b.clientId()) == 1);
        assertEquals(0, Db.count("SELECT COUNT(*) FROM logout_deliveries WHERE client_id IN (?, ?)", a.clientId(),
                b.clientId()), "delivered rows are gone");
        assertEquals(0, Db.count("SELECT COUNT(*) FROM audit_events WHERE event_type LIKE 'BACKCHANNEL_LOGOUT%' "
                + "AND client_id IN (?, ?)", none.clientId(), unused.clientId()),
                "a client without a URI, or not of the session, is told nothing");
        assertEquals(1, received(pathA).size(), "told once");
        assertEquals(1, received(pathB).size(), "told once");
        assertEquals(200, refresh(a, otherSessionsRefresh).status(), "the user's other session keeps its tokens");
    }

    @ParameterizedTest
    @ValueSource(strings = {"admin-session", "admin-sessions-of-user", "user-disabled", "password-reset",
        "factors-reset", "user-deleted", "refresh-token-logout", "rp-logout-by-post"})
    void everyWayASessionEndsTellsTheClient(String trigger) throws Exception {
        String path = newPath();
        Admin.TestClient rp = client(uri(path), true);
        Admin.TestUser user = admin.user("correct horse battery");
        UserAgent ua = new UserAgent(BASE);
        Map<String, Object> tokens = ua.codeFlow(rp, user);
        JWTClaimsSet id = claims(tokens.get("id_token"));

        Http.Res r = switch (trigger) {
            case "admin-session" -> {
                Http.Res list = admin.get("/admin/sessions?user=" + user.username());
                assertEquals(200, list.status(), list::toString);
                @SuppressWarnings("unchecked")
                List<Map<String, Object>> sessions = (List<Map<String, Object>>) list.json().get("sessions");
                assertEquals(1, sessions.size());
                yield admin.delete("/admin/sessions/" + sessions.get(0).get("session_id"));
            }
            case "admin-sessions-of-user" -> admin.delete("/admin/sessions?user=" + user.username());
            case "user-disabled" -> admin.patch("/admin/users/" + user.username(), "{\"enabled\":false}");
            case "password-reset" -> http.send(http.request("/admin/users/" + user.username() + "/password")
                    .header("Authorization", admin.authorization()).header("Content-Type", "application/json")
                    .PUT(java.net.http.HttpRequest.BodyPublishers.ofString("{\"password\":\"the new passphrase\"}"))
                    .build());
            case "factors-reset" -> admin.delete("/admin/users/" + user.username() + "/factors");
            case "user-deleted" -> admin.delete("/admin/users/" + user.username());
            case "refresh-token-logout" -> http.postForm("/oauth/logout", Map.of("refresh_token",
                    (String) tokens.get("refresh_token")), "Authorization", "Basic " + Base64.getEncoder()
                    .encodeToString((rp.clientId() + ":" + rp.secret()).getBytes(StandardCharsets.UTF_8)));
            case "rp-logout-by-post" -> ua.http().postForm("/oauth/logout", Map.of("id_token_hint",
                    (String) tokens.get("id_token"), "post_logout_redirect_uri", SIGNED_OUT));
            default -> throw new IllegalArgumentException(trigger);
        };
        assertTrue(r.status() < 400, r::toString);
        assertEquals(0, Db.count("SELECT COUNT(*) FROM sso_sessions WHERE sid = ?", id.getStringClaim("sid")),
                "the session ended");

        Http.Res refreshed = refresh(rp, (String) tokens.get("refresh_token"));
        assertEquals(400, refreshed.status(), refreshed::toString);
        assertEquals("invalid_grant", refreshed.jsonString("error"), "the session's token family ended with it");

        verified(awaitReceived(path, 1).get(0).logoutToken(), rp, id);
        await("delivery audited", () -> audited("BACKCHANNEL_LOGOUT_DELIVERED", rp.clientId()) == 1);
    }

    private Http.Res refresh(Admin.TestClient c, String refreshToken) {
        return http.postForm("/oauth/token", Map.of("grant_type", "refresh_token", "refresh_token", refreshToken,
                "client_id", c.clientId(), "client_secret", c.secret()));
    }

    /** What may pass (a server error, "call later") is retried; the logout arrives once the receiver takes it. */
    @ParameterizedTest
    @ValueSource(ints = {500, 429})
    void aReceiverThatFailsFirstGetsTheLogoutOnARetry(int firstAnswer) throws Exception {
        String path = newPath();
        ANSWERS.put(path, List.of(firstAnswer, 200));
        Admin.TestClient rp = client(uri(path), true);
        Admin.TestUser user = admin.user("correct horse battery");
        UserAgent ua = new UserAgent(BASE);
        JWTClaimsSet id = claims(ua.codeFlow(rp, user).get("id_token"));

        assertEquals(200, admin.delete("/admin/sessions?user=" + user.username()).status());

        List<Received> got = awaitReceived(path, 2);
        JWTClaimsSet first = verified(got.get(0).logoutToken(), rp, id);
        JWTClaimsSet second = verified(got.get(1).logoutToken(), rp, id);
        assertFalse(first.getJWTID().equals(second.getJWTID()), "each attempt signs a fresh token");
        await("delivery audited", () -> audited("BACKCHANNEL_LOGOUT_DELIVERED", rp.clientId()) == 1);
        assertEquals(1, Db.count("SELECT COUNT(*) FROM audit_events WHERE event_type = 'BACKCHANNEL_LOGOUT_FAILED' "
                + "AND client_id = ? AND detail LIKE ?", rp.clientId(), "attempt 1: answered " + firstAnswer + ";%"));
        assertEquals(2, received(path).size(), "nothing after the 200");
    }

    @Test
    void aReceiverThatNeverAnswersHoldsNoLogoutAndIsGivenUpAfterTheWindow() throws Exception {
        String path = newPath();
        ANSWERS.put(path, List.of(-1));
        Admin.TestClient rp = client(uri(path), true);
        Admin.TestUser user = admin.user("correct horse battery");
        UserAgent ua = new UserAgent(BASE);
        String hint = (String) ua.codeFlow(rp, user).get("id_token");

        long started = System.nanoTime();
        Http.Res out = ua.http().get("/oauth/logout?id_token_hint=" + Http.enc(hint) + "&post_logout_redirect_uri="
                + Http.enc(SIGNED_OUT));
        Duration took = Duration.ofNanos(System.nanoTime() - started);
        assertEquals(302, out.status(), out::toString);
        assertTrue(took.compareTo(Duration.ofMillis(2_000)) < 0, "the logout waits for no delivery: " + took);

        awaitReceived(path, 1);
        await("given up", () -> audited("BACKCHANNEL_LOGOUT_GIVEN_UP", rp.clientId()) == 1);
        assertTrue(Db.count("SELECT COUNT(*) FROM audit_events WHERE event_type = 'BACKCHANNEL_LOGOUT_FAILED' "
                + "AND client_id = ? AND detail LIKE 'attempt 1: no answer within 5000 ms%'", rp.clientId()) == 1);
        assertEquals(0, audited("BACKCHANNEL_LOGOUT_DELIVERED", rp.clientId()));
        assertEquals(0, Db.count("SELECT COUNT(*) FROM logout_deliveries WHERE client_id = ?", rp.clientId()));
    }

    /**
     * An answer the receiver would give again ends the delivery at once, audited with the status: a 400 (it could not
     * validate the logout token), a 403, or a redirect (never followed).
     */
    @ParameterizedTest
    @ValueSource(ints = {400, 403, 302})
    void anAnswerARetryWouldNotChangeIsGivenUpAtOnce(int status) throws Exception {
        String path = newPath();
        ANSWERS.put(path, List.of(status, 200));
        Admin.TestClient rp = client(uri(path), true);
        Admin.TestUser user = admin.user("correct horse battery");
        UserAgent ua = new UserAgent(BASE);
        ua.codeFlow(rp, user);

        assertEquals(200, admin.delete("/admin/sessions?user=" + user.username()).status());

        await("given up", () -> audited("BACKCHANNEL_LOGOUT_GIVEN_UP", rp.clientId()) == 1);
        assertEquals(1, Db.count("SELECT COUNT(*) FROM audit_events WHERE event_type = 'BACKCHANNEL_LOGOUT_GIVEN_UP' "
                + "AND client_id = ? AND detail = ?", rp.clientId(), "given up at attempt 1: answered " + status
                + ", which a retry would not change"));
        assertEquals(0, audited("BACKCHANNEL_LOGOUT_FAILED", rp.clientId()), "no retry was planned");
        assertEquals(0, Db.count("SELECT COUNT(*) FROM logout_deliveries WHERE client_id = ?", rp.clientId()),
                "nothing is left to retry");
        assertEquals(1, received(path).size(), "asked once");
        assertEquals(List.of(), received(path + "-redirected"), "the Location was not followed");
    }

    @Test
    void aClientThatRemovedItsUriMeanwhileIsGivenUp() throws Exception {
        String path = newPath();
        ANSWERS.put(path, List.of(503));
        Admin.TestClient rp = client(uri(path), true);
        Admin.TestUser user = admin.user("correct horse battery");
        UserAgent ua = new UserAgent(BASE);
        ua.codeFlow(rp, user);
        assertEquals(200, admin.delete("/admin/sessions?user=" + user.username()).status());
        awaitReceived(path, 1);

        Http.Res patched = admin.patch("/admin/clients/" + rp.clientId(), "{\"backchannel_logout_uri\":null}");
        assertEquals(200, patched.status(), patched::toString);

        await("given up", () -> Db.count("SELECT COUNT(*) FROM audit_events WHERE event_type = "
                + "'BACKCHANNEL_LOGOUT_GIVEN_UP' AND client_id = ? AND detail LIKE '%no backchannel_logout_uri%'",
                rp.clientId()) == 1);
        assertEquals(0, Db.count("SELECT COUNT(*) FROM logout_deliveries WHERE client_id = ?", rp.clientId()));
    }

    /**
     * The test servers admit loopback alone ({@code portcullis.outbound.allowed-networks}): a back-channel URI at any
     * other address, in any spelling, is refused at registration and at a change, and the stored one stays.
     */
    @Test
    void aUriOutsideTheAllowedNetworksIsRefusedAtRegistrationAndChange() {
        for (String uri : List.of("https://169.254.169.254/latest/meta-data/", "https://192.168.1.20/bc",
                "https://[fe80::1]/bc", "https://[fe80::1%25eth0]/bc", "http://2130706433:" + receiver.getAddress()
                .getPort() + "/bc", "http://0177.0.0.1/bc", "https://224.0.0.1/bc", "https://0.0.0.0/bc",
                "http://user@127.0.0.1:" + receiver.getAddress().getPort() + "/bc")) {
            Http.Res r = admin.post("/admin/clients", "{\"client_name\":\"Back-channel RP\",\"redirect_uris\":["
                    + Http.q(REDIRECT) + "],\"confidential\":true,\"scopes\":\"openid\",\"backchannel_logout_uri\":"
                    + Http.q(uri) + "}");
            assertEquals(400, r.status(), () -> uri + " → " + r);
            assertEquals("invalid_request", r.jsonString("error"), r::toString);
            assertTrue(r.jsonString("error_description").startsWith("backchannel_logout_uri: "), r::toString);
        }
        Admin.TestClient rp = client(uri(newPath()), true);
        Http.Res patched = admin.patch("/admin/clients/" + rp.clientId(),
                "{\"backchannel_logout_uri\":\"https://169.254.169.254/bc\"}");
        assertEquals(400, patched.status(), patched::toString);
        assertEquals("backchannel_logout_uri: names an address outside portcullis.outbound.allowed-networks "
                + "(169.254.169.254)", patched.jsonString("error_description"), patched::toString);
        assertTrue(String.valueOf(admin.get("/admin/clients/" + rp.clientId()).jsonString("backchannel_logout_uri"))
                .startsWith("http://127.0.0.1:"), "the stored URI stays");
    }
}
