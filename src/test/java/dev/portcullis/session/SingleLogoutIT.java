package dev.portcullis.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.nimbusds.jwt.SignedJWT;
import dev.portcullis.crypto.Secrets;
import com.sun.net.httpserver.HttpServer;
import dev.portcullis.testing.Admin;
import dev.portcullis.testing.Browser;
import dev.portcullis.testing.Db;
import dev.portcullis.testing.Http;
import dev.portcullis.testing.ServerTestBase;
import dev.portcullis.testing.UserAgent;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Single logout end to end: the SSO session's {@code sid} in ID tokens and the discovery flags; the clients' logout
 * notification URIs in the admin API and the console; RP-initiated logout by POST beside the page's own confirmation
 * form, and a client's logout with its refresh token; front-channel logout from the signed-out page.
 */
class SingleLogoutIT extends ServerTestBase {

    private static final String REDIRECT = "https://rp.example.com/cb";

    private final Http http = http();
    private final Admin admin = admin();

    private static String sid(Object idToken) throws Exception {
        return SignedJWT.parse((String) idToken).getJWTClaimsSet().getStringClaim("sid");
    }

    @Test
    void everyIdTokenOfOneSessionCarriesItsSidWhateverTheClient() throws Exception {
        Admin.TestClient a = admin.client(true, "openid", true, REDIRECT);
        Admin.TestClient b = admin.client(true, "openid", true, REDIRECT);
        Admin.TestUser user = admin.user("correct horse battery");
        UserAgent ua = new UserAgent(BASE);

        Map<String, Object> atA = ua.codeFlow(a, user);
        String sid = sid(atA.get("id_token"));
        assertNotNull(sid, "the ID token names its session");
        String cookie = ua.cookie("portcullis_session").orElseThrow();
        assertEquals(sid, Db.rows("SELECT sid FROM sso_sessions WHERE session_hash = ?", Secrets.hash(cookie))
                .get(0).get("sid"), "the session's own sid");
        assertNotEquals(cookie, sid);
        assertNotEquals(Secrets.hash(cookie), sid);

        assertEquals(sid, sid(ua.codeFlow(b, user).get("id_token")), "the same for every client of the session");
        Http.Res refreshed = http.postForm("/oauth/token", Map.of("grant_type", "refresh_token",
                "refresh_token", (String) atA.get("refresh_token"), "client_id", a.clientId(),
                "client_secret", a.secret()));
        assertEquals(200, refreshed.status(), refreshed::toString);
        assertEquals(sid, sid(refreshed.jsonString("id_token")), "and for a refreshed ID token");

        UserAgent otherBrowser = new UserAgent(BASE);
        assertNotEquals(sid, sid(otherBrowser.codeFlow(a, user).get("id_token")), "another session, another sid");
    }

    @Test
    void discoveryStatesWhichLogoutIsSupported() {
        Http.Res d = http.get("/.well-known/openid-configuration");
        assertEquals(200, d.status(), d::toString);
        Map<String, Object> doc = d.json();
        assertEquals(Boolean.TRUE, doc.get("frontchannel_logout_supported"));
        assertEquals(Boolean.TRUE, doc.get("frontchannel_logout_session_supported"));
        assertEquals(Boolean.TRUE, doc.get("backchannel_logout_supported"));
        assertEquals(Boolean.TRUE, doc.get("backchannel_logout_session_supported"));
        assertEquals(true, ((java.util.List<?>) doc.get("claims_supported")).contains("sid"));
    }

    // ---- the clients' logout URIs ----

    private static final String BACK = "https://rp.example.com/logout/backchannel";
    private static final String FRONT = "https://rp.example.com/logout/frontchannel";

    private Http.Res register(String extra) {
        return admin.post("/admin/clients", "{\"client_name\":\"Logout RP\",\"redirect_uris\":[" + Http.q(REDIRECT)
                + "],\"scopes\":\"openid\"" + extra + "}");
    }

    @Test
    void theAdminApiRegistersShowsChangesAndRemovesTheLogoutUris() {
        Http.Res created = register(",\"backchannel_logout_uri\":" + Http.q(BACK));
        assertEquals(201, created.status(), created::toString);
        String id = created.jsonString("client_id");
        Map<String, Object> shown = admin.get("/admin/clients/" + id).json();
        assertEquals(BACK, shown.get("backchannel_logout_uri"));
        assertEquals(Boolean.TRUE, shown.get("backchannel_logout_session_required"), "the default");
        assertFalse(shown.containsKey("frontchannel_logout_uri"), "none registered");
        assertEquals(Boolean.TRUE, shown.get("frontchannel_logout_session_required"));

        Http.Res patched = admin.patch("/admin/clients/" + id, "{\"frontchannel_logout_uri\":" + Http.q(FRONT)
                + ",\"frontchannel_logout_session_required\":false,\"backchannel_logout_session_required\":false}");
        assertEquals(200, patched.status(), patched::toString);
        shown = admin.get("/admin/clients/" + id).json();
        assertEquals(BACK, shown.get("backchannel_logout_uri"), "a patch that does not name it keeps it");
        assertEquals(Boolean.FALSE, shown.get("backchannel_logout_session_required"));
        assertEquals(FRONT, shown.get("frontchannel_logout_uri"));
        assertEquals(Boolean.FALSE, shown.get("frontchannel_logout_session_required"));

        assertEquals(400, admin.patch("/admin/clients/" + id, "{\"frontchannel_logout_session_required\":null}")
                .status(), "a flag cannot be removed");
        assertEquals(200, admin.patch("/admin/clients/" + id, "{\"backchannel_logout_uri\":null}").status());
        shown = admin.get("/admin/clients/" + id).json();
        assertFalse(shown.containsKey("backchannel_logout_uri"), "null removes it");
        assertEquals(FRONT, shown.get("frontchannel_logout_uri"));
        assertTrue(Db.count("SELECT COUNT(*) FROM audit_events WHERE event_type = 'CLIENT_UPDATED' AND client_id = ? "
                + "AND detail LIKE '%logout notifications%'", id) >= 2, "audited");
    }

    @ParameterizedTest
    @ValueSource(strings = {"\"backchannel_logout_uri\":\"http://rp.example.com/bc\"",
        "\"backchannel_logout_uri\":\"https://rp.example.com/bc#f\"",
        "\"frontchannel_logout_uri\":\"/relative\"",
        "\"frontchannel_logout_uri\":\"com.example.app:/fc\"",
        "\"backchannel_logout_uri\":42",
        "\"backchannel_logout_session_required\":\"yes\""})
    void badLogoutFieldsAnswer400AndChangeNothing(String field) {
        long clients = Db.count("SELECT COUNT(*) FROM clients");
        Http.Res refused = register("," + field);
        assertEquals(400, refused.status(), refused::toString);
        assertEquals("invalid_request", refused.jsonString("error"));
        assertEquals(clients, Db.count("SELECT COUNT(*) FROM clients"), "nothing registered");

        Http.Res created = register(",\"backchannel_logout_uri\":" + Http.q(BACK));
        String id = created.jsonString("client_id");
        Map<String, Object> before = admin.get("/admin/clients/" + id).json();
        Http.Res patch = admin.patch("/admin/clients/" + id, "{" + field + "}");
        assertEquals(400, patch.status(), patch::toString);
        assertEquals("invalid_request", patch.jsonString("error"));
        assertEquals(before, admin.get("/admin/clients/" + id).json(), "nothing changed");
    }

    @Test
    void theConsoleEditsTheLogoutUris() {
        Admin.TestUser boss = admin.user("correct horse battery");
        assertEquals(200, admin.patch("/admin/users/" + boss.username(), "{\"roles\":[\"admin\"]}").status());
        Admin.TestClient app = admin.confidentialClient("openid", REDIRECT);
        UserAgent ua = new UserAgent(BASE);
        Http.Res page = ua.openSignedIn("/admin/console/client.xhtml?id=" + app.clientId(), boss);
        assertEquals(200, page.status(), page::toString);
        Map<String, String> f = new LinkedHashMap<>(UserAgent.formFields(page.body(), "edit"));
        assertEquals("", f.get("edit:backchannelLogoutUri"), "none registered");
        f.put("edit:redirectUris", REDIRECT);
        f.put("edit:backchannelLogoutUri", BACK);
        f.put("edit:backchannelLogoutSessionRequired", "on");
        f.remove("edit:frontchannelLogoutSessionRequired");
        f.put("edit:frontchannelLogoutUri", FRONT);
        f.put("edit:submit", "Save");
        Http.Res saved = ua.submit(page.body(), "edit", f);
        assertEquals(303, saved.status(), saved::toString);
        Map<String, Object> shown = admin.get("/admin/clients/" + app.clientId()).json();
        assertEquals(BACK, shown.get("backchannel_logout_uri"));
        assertEquals(Boolean.TRUE, shown.get("backchannel_logout_session_required"));
        assertEquals(FRONT, shown.get("frontchannel_logout_uri"));
        assertEquals(Boolean.FALSE, shown.get("frontchannel_logout_session_required"));
        assertEquals(List.of(REDIRECT), shown.get("redirect_uris"));

        Http.Res again = ua.get("/admin/console/client.xhtml?id=" + app.clientId());
        Map<String, String> g = new LinkedHashMap<>(UserAgent.formFields(again.body(), "edit"));
        assertEquals(BACK, g.get("edit:backchannelLogoutUri"), "the page shows what is registered");
        g.put("edit:redirectUris", REDIRECT);
        g.put("edit:backchannelLogoutUri", "http://rp.example.com/bc");
        g.put("edit:submit", "Save");
        Http.Res refused = ua.submit(again.body(), "edit", g);
        assertEquals(400, refused.status(), refused::toString);
        assertTrue(refused.body().contains("Back-channel logout address"), "the form says which field");
        assertEquals(BACK, admin.get("/admin/clients/" + app.clientId()).json().get("backchannel_logout_uri"));
    }

    // ---- the end-session endpoint by POST ----

    private static final String SIGNED_OUT = "https://rp.example.com/signed-out";

    /** A confidential client that skips consent, with a post-logout redirect URI. */
    private Admin.TestClient logoutClient() {
        Http.Res r = admin.post("/admin/clients", "{\"client_name\":\"Logout RP\",\"redirect_uris\":[" + Http.q(REDIRECT)
                + "],\"post_logout_redirect_uris\":[" + Http.q(SIGNED_OUT) + "],\"confidential\":true,"
                + "\"scopes\":\"openid\",\"skip_consent\":true}");
        assertEquals(201, r.status(), r::toString);
        return new Admin.TestClient(r.jsonString("client_id"), r.jsonString("client_secret"), REDIRECT, "Logout RP");
    }

    private boolean signedIn(UserAgent ua, Admin.TestClient rp) {
        Http.Res r = ua.authorize(Map.of("client_id", rp.clientId(), "redirect_uri", REDIRECT, "response_type", "code",
                "scope", "openid", "state", "s"));
        assertEquals(302, r.status(), r::toString);
        return !r.header("Location").contains("/login.xhtml");
    }

    /** Without state, the redirect to the registered URI is that URI exactly: no empty state is made up. */
    @Test
    void aLogoutWithoutStateReturnsToTheRegisteredUriAsRegistered() {
        Admin.TestClient rp = logoutClient();
        Admin.TestUser user = admin.user("correct horse battery");
        UserAgent ua = new UserAgent(BASE);
        String idToken = (String) ua.codeFlow(rp, user).get("id_token");

        Http.Res out = ua.get("/oauth/logout?" + Http.form(Map.of("id_token_hint", idToken,
                "post_logout_redirect_uri", SIGNED_OUT)));
        assertEquals(302, out.status(), out::toString);
        assertEquals(SIGNED_OUT, out.header("Location"));
        assertFalse(signedIn(ua, rp), "the session ended");
    }

    @Test
    void aRelyingPartyPostsItsLogoutRequestAsAForm() {
        Admin.TestClient rp = logoutClient();
        Admin.TestUser user = admin.user("correct horse battery");
        UserAgent ua = new UserAgent(BASE);
        String idToken = (String) ua.codeFlow(rp, user).get("id_token");

        Http.Res out = ua.http().postForm("/oauth/logout", Map.of("id_token_hint", idToken,
                "post_logout_redirect_uri", SIGNED_OUT, "state", "by post"));
        assertEquals(303, out.status(), out::toString);
        assertEquals(SIGNED_OUT + "?state=by+post", out.header("Location"));
        assertFalse(signedIn(ua, rp), "the session ended");
    }

    @Test
    void aPostThatCarriesNoSessionCookieIsSentOnToTheGetWhichEndsTheSession() {
        Admin.TestClient rp = logoutClient();
        Admin.TestUser user = admin.user("correct horse battery");
        UserAgent ua = new UserAgent(BASE);
        String idToken = (String) ua.codeFlow(rp, user).get("id_token");

        // a cross-site form POST: the browser holds the session but sends no SameSite=Lax cookie with it
        Http.Res posted = http.postForm("/oauth/logout", Map.of("id_token_hint", idToken,
                "post_logout_redirect_uri", SIGNED_OUT, "state", "a b", "ignored", "x"));
        assertEquals(303, posted.status(), posted::toString);
        String location = posted.header("Location");
        assertTrue(location.startsWith(BASE + "/oauth/logout?"), location);
        assertEquals(Map.of("id_token_hint", idToken, "post_logout_redirect_uri", SIGNED_OUT, "state", "a b"),
                Http.query(location), "the request's own parameters only");
        assertTrue(signedIn(ua, rp), "nothing ended yet");

        Http.Res out = ua.get(location);
        assertEquals(302, out.status(), out::toString);
        assertEquals(SIGNED_OUT + "?state=a+b", out.header("Location"));
        assertFalse(signedIn(ua, rp), "the top-level GET carried the cookie and ended the session");

        Http.Res bad = http.postForm("/oauth/logout", Map.of("id_token_hint", "not-a-jwt"));
        assertEquals(400, bad.status(), "refused before it is sent on: " + bad);
        assertTrue(bad.body().contains("id=\"error-page\""), bad::toString);
    }

    /**
     * Chromium itself: a form posted to the end-session endpoint from another site (127.0.0.1 against the server's
     * localhost) carries no SameSite=Lax cookie, and the GET it is sent on to does, so the signed-in user is asked
     * to confirm instead of being told they are signed out while the session lives on.
     */
    @Test
    @Tag("browser")
    void aCrossSiteFormPostInChromiumReachesTheSessionThroughTheGet() throws Exception {
        Admin.TestClient rp = logoutClient();
        Admin.TestUser user = admin.user("correct horse battery");
        byte[] page = ("<!doctype html><html><body><form id=\"rp\" method=\"post\" action=\"" + BASE
                + "/oauth/logout\"><input type=\"hidden\" name=\"client_id\" value=\"" + rp.clientId()
                + "\"><button id=\"go\" type=\"submit\">Sign out</button></form></body></html>")
                .getBytes(StandardCharsets.UTF_8);
        HttpServer site = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        site.createContext("/", exchange -> {
            exchange.getResponseHeaders().set("Content-Type", "text/html; charset=utf-8");
            exchange.sendResponseHeaders(200, page.length);
            exchange.getResponseBody().write(page);
            exchange.close();
        });
        site.start();
        try (Browser browser = new Browser("en-US")) {
            browser.open(BASE + "/account/");
            browser.signIn(user.username(), "correct horse battery");
            assertEquals(user.username(), browser.visible("profile-username").getText());
            browser.open("http://127.0.0.1:" + site.getAddress().getPort() + "/");
            browser.visible("go").click();
            browser.visible("logout");
            assertTrue(browser.driver().getCurrentUrl().startsWith(BASE + "/oauth/logout?client_id="),
                    browser.driver().getCurrentUrl());
            assertEquals(1, Db.count("SELECT COUNT(*) FROM sso_sessions WHERE user_id = ?", user.userId()),
                    "asked, not ended");
            browser.visible("confirm").click();
            browser.visible("signed-out");
            assertEquals(0, Db.count("SELECT COUNT(*) FROM sso_sessions WHERE user_id = ?", user.userId()));
        } finally {
            site.stop(0);
        }
    }

    @Test
    void aPostWithoutHintAsksForConfirmationWhoseFormStaysCsrfProtected() {
        Admin.TestClient rp = logoutClient();
        Admin.TestUser user = admin.user("correct horse battery");
        UserAgent ua = new UserAgent(BASE);
        ua.codeFlow(rp, user);

        Http.Res page = ua.http().postForm("/oauth/logout", Map.of("client_id", rp.clientId(),
                "post_logout_redirect_uri", SIGNED_OUT, "state", "s2"));
        assertEquals(200, page.status(), page::toString);
        assertTrue(page.body().contains("id=\"logout\""), page::toString);
        assertTrue(signedIn(ua, rp), "asking ends nothing");

        Map<String, String> fields = UserAgent.formFields(page.body(), "logout");
        Map<String, String> forged = new LinkedHashMap<>(fields);
        forged.put("csrf", "forged-value-forged-value-forged-value-forg");
        Http.Res refused = ua.http().postForm("/oauth/logout", forged);
        assertEquals(403, refused.status(), refused::toString);
        assertTrue(signedIn(ua, rp), "a forged confirmation ends nothing");
        forged.put("csrf", "");
        assertEquals(403, ua.http().postForm("/oauth/logout", forged).status(), "an empty token is no token");
        assertTrue(signedIn(ua, rp));

        Http.Res done = ua.submit(page.body(), "logout", fields);
        assertEquals(303, done.status(), done::toString);
        assertEquals(SIGNED_OUT + "?state=s2", done.header("Location"));
        assertFalse(signedIn(ua, rp));
    }

    /**
     * A valid hint with a {@code post_logout_redirect_uri} the client has not registered, character for character
     * (another address, another client's, or its own altered by class: query, fragment, case, trailing slash, scheme,
     * port, encoding, dot segment, user info, white space), by GET or by POST: the session lives on behind the
     * confirmation page, which names no address; once confirmed it ends and the signed-out page is shown, never a
     * redirect.
     */
    @ParameterizedTest
    @ValueSource(strings = {"https://evil.example.com/signed-out", "OTHER-CLIENT", SIGNED_OUT + "?next=x",
        SIGNED_OUT + "?", SIGNED_OUT + "#f", "https://RP.example.com/signed-out", "https://rp.example.com/Signed-Out",
        SIGNED_OUT + "/", "http://rp.example.com/signed-out", "https://rp.example.com:443/signed-out",
        "https://rp.example.com/signed%2Dout", "https://rp.example.com/x/../signed-out",
        "https://user@rp.example.com/signed-out", SIGNED_OUT + " ", "POST:" + SIGNED_OUT + "?next=x"})
    void aValidHintWithAnUnregisteredTargetAsksAndNeverRedirects(String input) {
        Admin.TestClient rp = logoutClient();
        boolean byPost = input.startsWith("POST:");
        String target = input.equals("OTHER-CLIENT") ? otherClientsTarget() : byPost ? input.substring(5) : input;
        Admin.TestUser user = admin.user("correct horse battery");
        UserAgent ua = new UserAgent(BASE);
        String idToken = (String) ua.codeFlow(rp, user).get("id_token");
        Map<String, String> request = Map.of("id_token_hint", idToken, "post_logout_redirect_uri", target,
                "state", "s4");

        Http.Res page = byPost ? ua.http().postForm("/oauth/logout", request)
                : ua.get("/oauth/logout?" + Http.form(request));
        assertEquals(200, page.status(), page::toString);
        assertEquals(null, page.header("Location"));
        assertTrue(page.body().contains("id=\"logout\"") && page.body().contains("id=\"target-not-registered\""),
                page::toString);
        assertFalse(page.body().contains(Http.enc(target)) || page.body().contains("example.com/"),
                "the page names no address");
        assertEquals(1, Db.count("SELECT COUNT(*) FROM sso_sessions WHERE user_id = ?", user.userId()),
                "asked, not ended");
        Map<String, String> fields = UserAgent.formFields(page.body(), "logout");
        assertFalse(fields.containsKey("post_logout_redirect_uri"), fields::toString);

        Http.Res done = ua.submit(page.body(), "logout", fields);
        assertEquals(200, done.status(), done::toString);
        assertEquals(null, done.header("Location"));
        assertTrue(done.body().contains("id=\"signed-out\""), done::toString);
        assertFalse(done.body().contains("id=\"continue\""), "no way on to the address");
        assertEquals(0, Db.count("SELECT COUNT(*) FROM sso_sessions WHERE user_id = ?", user.userId()));
    }

    /** A post-logout redirect URI registered, exactly, by another client. */
    private String otherClientsTarget() {
        String theirs = "https://other-rp.example.com/signed-out";
        Http.Res r = admin.post("/admin/clients", "{\"client_name\":\"Other RP\",\"redirect_uris\":[" + Http.q(REDIRECT)
                + "],\"post_logout_redirect_uris\":[" + Http.q(theirs) + "],\"scopes\":\"openid\"}");
        assertEquals(201, r.status(), r::toString);
        return theirs;
    }

    /** Nobody signed in: nothing to end and nothing to decide, so the signed-out page, and still no redirect. */
    @Test
    void anUnregisteredTargetWithoutASessionGetsTheSignedOutPage() {
        Admin.TestClient rp = logoutClient();
        Admin.TestUser user = admin.user("correct horse battery");
        String idToken = (String) new UserAgent(BASE).codeFlow(rp, user).get("id_token");
        Http.Res out = new UserAgent(BASE).get("/oauth/logout?" + Http.form(Map.of("id_token_hint", idToken,
                "post_logout_redirect_uri", SIGNED_OUT + "/")));
        assertEquals(200, out.status(), out::toString);
        assertEquals(null, out.header("Location"));
        assertTrue(out.body().contains("id=\"signed-out\""), out::toString);
    }

    // ---- a client's logout with its refresh token ----

    private static String basic(Admin.TestClient c) {
        return "Basic " + Base64.getEncoder().encodeToString((c.clientId() + ":" + c.secret())
                .getBytes(StandardCharsets.UTF_8));
    }

    private Http.Res refresh(Admin.TestClient c, String refreshToken) {
        return http.postForm("/oauth/token", Map.of("grant_type", "refresh_token", "refresh_token", refreshToken,
                "client_id", c.clientId(), "client_secret", c.secret()));
    }

    @Test
    void anAuthenticatedClientEndsTheSessionOfItsRefreshToken() {
        Admin.TestClient rp = logoutClient();
        Admin.TestUser user = admin.user("correct horse battery");
        UserAgent ua = new UserAgent(BASE);
        String refreshToken = (String) ua.codeFlow(rp, user).get("refresh_token");
        UserAgent elsewhere = new UserAgent(BASE);
        elsewhere.codeFlow(rp, user);

        Http.Res out = http.postForm("/oauth/logout", Map.of("refresh_token", refreshToken),
                "Authorization", basic(rp));
        assertEquals(204, out.status(), out::toString);
        assertEquals("no-store", out.header("Cache-Control"));
        assertFalse(signedIn(ua, rp), "the token's session ended");
        assertTrue(signedIn(elsewhere, rp), "the user's other session did not");
        Http.Res after = refresh(rp, refreshToken);
        assertEquals(400, after.status(), after::toString);
        assertEquals("invalid_grant", after.jsonString("error"), "its family ended with it");
        assertTrue(Db.count("SELECT COUNT(*) FROM audit_events WHERE event_type = 'SIGN_OUT' AND outcome = 'success' "
                + "AND client_id = ? AND detail LIKE 'refresh-token logout%1 SSO session ended'", rp.clientId()) == 1);

        Http.Res again = http.postForm("/oauth/logout", Map.of("refresh_token", refreshToken),
                "Authorization", basic(rp));
        assertEquals(400, again.status(), again::toString);
        assertEquals("invalid_grant", again.jsonString("error"));
    }

    @Test
    void aRefreshTokenLogoutThatIsNotTheClientsOwnLiveTokenIsRefusedAsJsonAndEndsNothing() {
        Admin.TestClient rp = logoutClient();
        Admin.TestClient other = logoutClient();
        Admin.TestUser user = admin.user("correct horse battery");
        UserAgent ua = new UserAgent(BASE);
        Map<String, Object> tokens = ua.codeFlow(rp, user);
        String refreshToken = (String) tokens.get("refresh_token");

        Http.Res notItsOwn = http.postForm("/oauth/logout", Map.of("refresh_token", refreshToken),
                "Authorization", basic(other));
        assertEquals(400, notItsOwn.status(), notItsOwn::toString);
        assertEquals("invalid_grant", notItsOwn.jsonString("error"));
        Http.Res wrongSecret = http.postForm("/oauth/logout", Map.of("refresh_token", refreshToken,
                "client_id", rp.clientId(), "client_secret", "not-the-secret"));
        assertEquals(401, wrongSecret.status(), wrongSecret::toString);
        assertEquals("invalid_client", wrongSecret.jsonString("error"));
        Http.Res anonymous = http.postForm("/oauth/logout", Map.of("refresh_token", refreshToken));
        assertEquals(401, anonymous.status(), anonymous::toString);
        Http.Res empty = http.postForm("/oauth/logout", Map.of("refresh_token", ""), "Authorization", basic(rp));
        assertEquals(400, empty.status(), empty::toString);
        assertEquals("invalid_request", empty.jsonString("error"));
        Http.Res twice = http.send(http.request("/oauth/logout").header("Authorization", basic(rp))
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(java.net.http.HttpRequest.BodyPublishers.ofString("refresh_token=" + refreshToken
                        + "&refresh_token=" + refreshToken)).build());
        assertEquals(400, twice.status(), twice::toString);
        assertEquals("invalid_request", twice.jsonString("error"));
        Http.Res unknown = http.postForm("/oauth/logout", Map.of("refresh_token", refreshToken + "x"),
                "Authorization", basic(rp));
        assertEquals(400, unknown.status(), unknown::toString);
        assertEquals("invalid_grant", unknown.jsonString("error"));
        assertTrue(signedIn(ua, rp), "no refusal ended the session");

        Http.Res rotated = refresh(rp, refreshToken);
        assertEquals(200, rotated.status(), "no refusal ended the family: " + rotated);
        Http.Res used = http.postForm("/oauth/logout", Map.of("refresh_token", refreshToken),
                "Authorization", basic(rp));
        assertEquals(400, used.status(), used::toString);
        assertEquals("invalid_grant", used.jsonString("error"), "a used refresh token is no longer held");
        assertTrue(signedIn(ua, rp));
        assertEquals(200, refresh(rp, rotated.jsonString("refresh_token")).status(), "and it revoked nothing");
    }

    // ---- front-channel logout ----

    /** A confidential client that skips consent, with a post-logout redirect URI and the given extra fields. */
    private Admin.TestClient frontClient(String redirect, String postLogout, String extra) {
        Http.Res r = admin.post("/admin/clients", "{\"client_name\":\"Front RP\",\"redirect_uris\":[" + Http.q(redirect)
                + "],\"post_logout_redirect_uris\":[" + Http.q(postLogout) + "],\"confidential\":true,"
                + "\"scopes\":\"openid\",\"skip_consent\":true" + extra + "}");
        assertEquals(201, r.status(), r::toString);
        return new Admin.TestClient(r.jsonString("client_id"), r.jsonString("client_secret"), redirect, "Front RP");
    }

    private static final Pattern FRAME = Pattern.compile("<iframe class=\"frontchannel-logout\" src=\"([^\"]*)\"");

    private String issuer() {
        return http.get("/.well-known/openid-configuration").jsonString("issuer");
    }

    @Test
    void theSignedOutPageFramesEachFrontChannelUriOfTheSessionsClientsAndAllowsExactlyTheirOrigins() throws Exception {
        Admin.TestClient a = frontClient(REDIRECT, SIGNED_OUT,
                ",\"frontchannel_logout_uri\":\"https://rp.example.com/logout/fc?app=a\"");
        Admin.TestClient b = frontClient(REDIRECT, SIGNED_OUT,
                ",\"frontchannel_logout_uri\":\"https://other.example.com:8443/fc\","
                + "\"frontchannel_logout_session_required\":false");
        Admin.TestClient none = frontClient(REDIRECT, SIGNED_OUT, "");
        Admin.TestClient notServed = frontClient(REDIRECT, SIGNED_OUT,
                ",\"frontchannel_logout_uri\":\"https://unused.example.com/fc\"");
        Admin.TestUser user = admin.user("correct horse battery");
        UserAgent ua = new UserAgent(BASE);
        String idToken = (String) ua.codeFlow(a, user).get("id_token");
        String sid = sid(idToken);
        ua.codeFlow(b, user);
        ua.codeFlow(none, user);

        Http.Res out = ua.get("/oauth/logout?id_token_hint=" + idToken + "&post_logout_redirect_uri="
                + java.net.URLEncoder.encode(SIGNED_OUT, StandardCharsets.UTF_8) + "&state=s+3");
        assertEquals(200, out.status(), "a page, not the redirect: " + out);
        assertFalse(signedIn(ua, a), "the session ended");
        List<String> frames = new ArrayList<>();
        Matcher m = FRAME.matcher(out.body());
        while (m.find()) {
            frames.add(m.group(1).replace("&amp;", "&"));
        }
        frames.sort(null);
        assertEquals(List.of("https://other.example.com:8443/fc",
                "https://rp.example.com/logout/fc?app=a&iss=" + java.net.URLEncoder.encode(issuer(),
                        StandardCharsets.UTF_8) + "&sid=" + sid), frames, out.body());
        assertFalse(out.body().contains(notServed.clientId()) || out.body().contains("unused.example.com"));
        String csp = out.header("Content-Security-Policy");
        assertTrue(csp.endsWith("; frame-src https://other.example.com:8443 https://rp.example.com"), csp);
        assertEquals(1, csp.split("frame-src", -1).length - 1, "one frame-src: " + csp);
        assertTrue(csp.contains("default-src 'none'") && csp.contains("script-src 'self'"), csp);
        assertTrue(out.body().contains("<script src=\"/js/logout.js\"></script>"), out::body);
        assertTrue(out.body().contains("id=\"continue\" href=\"" + SIGNED_OUT + "?state=s+3\""), out::body);

        UserAgent plain = new UserAgent(BASE);
        String plainHint = (String) plain.codeFlow(none, user).get("id_token");
        Http.Res redirected = plain.get("/oauth/logout?id_token_hint=" + plainHint);
        assertEquals(200, redirected.status(), redirected::toString);
        assertTrue(redirected.body().contains("id=\"signed-out\""), redirected::toString);
        assertFalse(redirected.body().contains("<iframe"), "no client to tell, no frame");
        assertTrue(redirected.header("Content-Security-Policy").contains("default-src 'none'"));
        assertFalse(redirected.header("Content-Security-Policy").contains("frame-src"));
    }

    /**
     * Chromium loads the front-channel URI of the session's client (served by this JVM) with {@code iss} and the ID
     * token's {@code sid}, is not held by another client's unreachable URI, and ends at the post-logout redirect URI.
     */
    @Test
    @Tag("browser")
    void chromiumLoadsTheFrontChannelUrisAndContinuesToThePostLogoutRedirectUri() throws Exception {
        Queue<String> frontCalls = new ConcurrentLinkedQueue<>();
        Queue<String> codes = new ConcurrentLinkedQueue<>();
        HttpServer rp = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        rp.createContext("/", exchange -> {
            String path = exchange.getRequestURI().getPath();
            String query = exchange.getRequestURI().getRawQuery();
            String id = "rp-other";
            if (path.equals("/fc")) {
                frontCalls.add(query == null ? "" : query);
                id = "rp-fc";
            } else if (path.equals("/cb")) {
                codes.add(Http.query("http://x/?" + query).getOrDefault("code", ""));
                id = "rp-cb";
            } else if (path.equals("/signed-out")) {
                id = "rp-done";
            }
            byte[] page = ("<!doctype html><html><body><p id=\"" + id + "\">" + id + "</p></body></html>")
                    .getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", "text/html; charset=utf-8");
            exchange.sendResponseHeaders(200, page.length);
            exchange.getResponseBody().write(page);
            exchange.close();
        });
        rp.start();
        String site = "http://127.0.0.1:" + rp.getAddress().getPort();
        try (Browser browser = new Browser("en-US")) {
            Admin.TestClient app = frontClient(site + "/cb", site + "/signed-out",
                    ",\"frontchannel_logout_uri\":" + Http.q(site + "/fc"));
            // nothing listens on port 1 of the loopback host: the browser gets a connection refused in that frame
            Admin.TestClient unreachable = frontClient(site + "/cb", site + "/signed-out",
                    ",\"frontchannel_logout_uri\":\"http://127.0.0.1:1/fc\"");
            Admin.TestUser user = admin.user("correct horse battery");
            browser.open(BASE + "/oauth/authorize?client_id=" + app.clientId() + "&redirect_uri=" + site
                    + "/cb&response_type=code&scope=openid&state=s1");
            browser.signIn(user.username(), "correct horse battery");
            browser.visible("rp-cb");
            browser.open(BASE + "/oauth/authorize?client_id=" + unreachable.clientId() + "&redirect_uri=" + site
                    + "/cb&response_type=code&scope=openid&state=s2");
            browser.visible("rp-cb");
            Http.Res tokens = http.postForm("/oauth/token", Map.of("grant_type", "authorization_code",
                    "code", codes.peek(), "redirect_uri", site + "/cb", "client_id", app.clientId(),
                    "client_secret", app.secret()));
            assertEquals(200, tokens.status(), tokens::toString);
            String idToken = tokens.jsonString("id_token");

            browser.open(BASE + "/oauth/logout?id_token_hint=" + idToken + "&post_logout_redirect_uri=" + site
                    + "/signed-out&state=done");
            browser.visible("rp-done");
            assertEquals(site + "/signed-out?state=done", browser.driver().getCurrentUrl());
            assertEquals(1, frontCalls.size(), frontCalls::toString);
            Map<String, String> q = Http.query("http://x/?" + frontCalls.peek());
            assertEquals(issuer(), q.get("iss"));
            assertEquals(sid(idToken), q.get("sid"));
            assertEquals(0, Db.count("SELECT COUNT(*) FROM sso_sessions WHERE user_id = ?", user.userId()));
        } finally {
            rp.stop(0);
        }
    }
}
