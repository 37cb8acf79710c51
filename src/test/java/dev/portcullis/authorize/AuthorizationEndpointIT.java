package dev.portcullis.authorize;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.portcullis.account.PasswordHashers;
import dev.portcullis.crypto.Secrets;
import dev.portcullis.crypto.SplitToken;
import dev.portcullis.testing.Admin;
import dev.portcullis.testing.ClassServer;
import dev.portcullis.testing.Db;
import dev.portcullis.testing.Http;
import dev.portcullis.testing.ServerTestBase;
import dev.portcullis.testing.UserAgent;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The authorization endpoint, sign-in and consent pages over HTTP: every validation row (error page vs. redirect with
 * the right error, state and iss), prompt and max_age, SSO reuse, remembered consent, the sign-in form's answers,
 * brute-force throttling, CSRF, headers and statelessness (no JSESSIONID).
 */
class AuthorizationEndpointIT extends ServerTestBase {

    static final String CHALLENGE = "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM";
    static final String PASSWORD = "correct horse battery";

    private final Admin admin = admin();

    /** client_id, redirect_uri, response_type=code, scope=openid profile, state=st-1; then key/value overrides (null removes). */
    private static Map<String, String> params(Admin.TestClient c, String... overrides) {
        Map<String, String> p = new LinkedHashMap<>();
        p.put("client_id", c.clientId());
        p.put("redirect_uri", c.redirectUri());
        p.put("response_type", "code");
        p.put("scope", "openid profile");
        p.put("state", "st-1");
        return Http.overridden(p, overrides);
    }

    private Admin.TestClient confidential() {
        return admin.confidentialClient("openid profile email", "https://app.example.com/cb");
    }

    private Admin.TestClient publicClient() {
        return admin.publicClient("openid profile", "https://spa.example.com/cb", "http://127.0.0.1/cb");
    }

    private static void assertErrorPage(Http.Res r, String text) {
        assertEquals(400, r.status(), r::toString);
        assertNull(r.header("Location"), "never a redirect to an unverified URI");
        assertTrue(r.header("Content-Type").startsWith("text/html"), r::toString);
        assertTrue(r.body().contains(text), () -> "expected '" + text + "' in " + r.body());
        assertTrue(r.body().contains("/css/portcullis.css"));
        assertFalse(r.body().contains("<script"));
        assertSecureHtmlHeaders(r);
    }

    private static void assertSecureHtmlHeaders(Http.Res r) {
        assertEquals("DENY", r.header("X-Frame-Options"));
        assertTrue(r.header("Content-Security-Policy").contains("frame-ancestors 'none'"));
        assertNull(r.header("Server"), "no server banner (server-config/pre-boot-commands.asadmin)");
        assertNull(r.header("X-Powered-By"), "no X-Powered-By (server-config/pre-boot-commands.asadmin)");
        assertNoHttpSession(r);
    }

    private static void assertNoHttpSession(Http.Res r) {
        List<String> cookies = r.raw().headers().allValues("Set-Cookie");
        assertFalse(cookies.stream().anyMatch(c -> c.toUpperCase().startsWith("JSESSIONID")), cookies::toString);
        assertFalse(r.body().contains("jsessionid"));
    }

    /** Asserts a redirect to the client and returns its query parameters. */
    private static Map<String, String> assertClientRedirect(Http.Res r, int status, String redirectUri) {
        assertEquals(status, r.status(), r::toString);
        String location = r.header("Location");
        assertTrue(location.startsWith(redirectUri + "?"), location);
        Map<String, String> q = Http.query(location);
        assertEquals(BASE, q.get("iss"), "RFC 9207 iss on every redirect");
        return q;
    }

    private static Map<String, String> assertErrorRedirect(Http.Res r, String redirectUri, String error, String state) {
        Map<String, String> q = assertClientRedirect(r, 302, redirectUri);
        assertEquals(error, q.get("error"), r::toString);
        assertNotNull(q.get("error_description"));
        assertEquals(state, q.get("state"));
        assertNull(q.get("code"));
        return q;
    }

    /** A browser that signed in and consented once for {@code c}. */
    private UserAgent signedIn(Admin.TestClient c, Admin.TestUser u, String scope) {
        UserAgent ua = new UserAgent(BASE);
        Map<String, String> p = ua.authorizeAndGetRedirectParams(c, u, Map.of("scope", scope));
        assertNotNull(p.get("code"), p::toString);
        return ua;
    }

    // ---------------- step 1: error page, never a redirect ----------------

    @Test
    void unknownClientGetsAnErrorPage() {
        Admin.TestClient c = confidential();
        Http.Res r = new UserAgent(BASE).authorize(params(c, "client_id", "no-such-client"));
        assertErrorPage(r, "not registered with this sign-in service");
    }

    @Test
    void missingClientIdGetsAnErrorPage() {
        Http.Res r = new UserAgent(BASE).authorize(params(confidential(), "client_id", null));
        assertErrorPage(r, "client_id is missing");
    }

    @Test
    void unregisteredRedirectUriGetsAnErrorPageEvenWithOtherErrors() {
        Admin.TestClient c = confidential();
        for (String uri : List.of("https://evil.example.com/cb", "https://app.example.com/cb/",
                "https://app.example.com/CB", "https://app.example.com/cb?x=1", "http://app.example.com/cb")) {
            Http.Res r = new UserAgent(BASE).authorize(params(c, "redirect_uri", uri, "response_type", "token"));
            assertErrorPage(r, "not registered for it");
        }
    }

    @Test
    void redirectUriMayBeOmittedOnlyWithOneRegistered() {
        Admin.TestClient one = confidential();
        Http.Res r = new UserAgent(BASE).authorize(params(one, "redirect_uri", null, "scope", "profile"));
        assertEquals(302, r.status(), r::toString);
        assertTrue(r.header("Location").startsWith(BASE + "/login.xhtml?"));
        // OpenID requests always name it (OIDC Core 3.1.2.1)
        assertErrorPage(new UserAgent(BASE).authorize(params(one, "redirect_uri", null)), "redirect_uri is missing");

        Admin.TestClient two = admin.confidentialClient("openid", "https://a.example.com/cb", "https://b.example.com/cb");
        assertErrorPage(new UserAgent(BASE).authorize(params(two, "redirect_uri", null, "scope", "openid")),
                "redirect_uri is missing");
    }

    @Test
    void publicClientLoopbackRedirectMayUseAnyPort() {
        Admin.TestClient c = publicClient();
        Admin.TestUser u = admin.user(PASSWORD);
        Map<String, String> q = new UserAgent(BASE).authorizeAndGetRedirectParams(c, u, Map.of(
                "redirect_uri", "http://127.0.0.1:53124/cb", "code_challenge", CHALLENGE,
                "code_challenge_method", "S256"));
        assertNotNull(q.get("code"), q::toString);
        Map<String, Object> row = Db.rows("SELECT * FROM authorization_codes WHERE code_id = ?",
                SplitToken.parse(q.get("code")).id()).get(0);
        assertEquals("http://127.0.0.1:53124/cb", row.get("redirect_uri"));
    }

    @Test
    void duplicatedParametersGetAnErrorPage() {
        Admin.TestClient c = confidential();
        String q = Http.form(params(c));
        for (String dup : List.of("&state=again", "&client_id=" + c.clientId(), "&scope=openid")) {
            Http.Res r = new UserAgent(BASE).get("/oauth/authorize?" + q + dup);
            assertErrorPage(r, "malformed");
        }
    }

    // ---------------- step 2: errors go back to the client ----------------

    @Test
    void responseTypeOtherThanCode() {
        Admin.TestClient c = confidential();
        UserAgent ua = new UserAgent(BASE);
        assertErrorRedirect(ua.authorize(params(c, "response_type", "token")), c.redirectUri(),
                "unsupported_response_type", "st-1");
        assertErrorRedirect(ua.authorize(params(c, "response_type", "code id_token")), c.redirectUri(),
                "unsupported_response_type", "st-1");
        assertErrorRedirect(ua.authorize(params(c, "response_type", null)), c.redirectUri(), "invalid_request", "st-1");
    }

    @Test
    void scopeEmptyOrNotAllowed() {
        Admin.TestClient c = confidential();
        UserAgent ua = new UserAgent(BASE);
        assertErrorRedirect(ua.authorize(params(c, "scope", null)), c.redirectUri(), "invalid_scope", "st-1");
        assertErrorRedirect(ua.authorize(params(c, "scope", " ")), c.redirectUri(), "invalid_scope", "st-1");
        assertErrorRedirect(ua.authorize(params(c, "scope", "openid api")), c.redirectUri(), "invalid_scope", "st-1");
    }

    @Test
    void pkceRules() {
        Admin.TestClient pub = publicClient();
        UserAgent ua = new UserAgent(BASE);
        String cb = pub.redirectUri();
        assertErrorRedirect(ua.authorize(params(pub)), cb, "invalid_request", "st-1");
        assertErrorRedirect(ua.authorize(params(pub, "code_challenge", CHALLENGE, "code_challenge_method", "plain")),
                cb, "invalid_request", "st-1");
        assertErrorRedirect(ua.authorize(params(pub, "code_challenge", CHALLENGE)), cb, "invalid_request", "st-1");
        assertErrorRedirect(ua.authorize(params(pub, "code_challenge", CHALLENGE.substring(1),
                "code_challenge_method", "S256")), cb, "invalid_request", "st-1");
        assertErrorRedirect(ua.authorize(params(pub, "code_challenge", CHALLENGE.replace('-', '+'),
                "code_challenge_method", "S256")), cb, "invalid_request", "st-1");
        // valid PKCE: on to the sign-in page
        Http.Res ok = ua.authorize(params(pub, "code_challenge", CHALLENGE, "code_challenge_method", "S256"));
        assertEquals(302, ok.status());
        assertTrue(ok.header("Location").startsWith(BASE + "/login.xhtml?"));
        // confidential clients may omit PKCE, but if they send it the method rules apply
        Admin.TestClient conf = confidential();
        assertTrue(ua.authorize(params(conf)).header("Location").startsWith(BASE + "/login.xhtml?"));
        assertErrorRedirect(ua.authorize(params(conf, "code_challenge", CHALLENGE, "code_challenge_method", "plain")),
                conf.redirectUri(), "invalid_request", "st-1");
    }

    @Test
    void unsignedRequestObjectsAndForeignRequestUrisAreRefusedNotIgnored() {
        Admin.TestClient c = confidential();
        assertErrorRedirect(new UserAgent(BASE).authorize(params(c, "request", "eyJhbGciOiJub25lIn0.e30.")),
                c.redirectUri(), "invalid_request_object", "st-1");
        assertErrorRedirect(new UserAgent(BASE).authorize(params(c, "request_uri", "https://app.example.com/r")),
                c.redirectUri(), "request_uri_not_supported", "st-1");
    }

    @Test
    void errorRedirectWithoutStateHasNoState() {
        Admin.TestClient c = confidential();
        Map<String, String> q = assertErrorRedirect(new UserAgent(BASE).authorize(params(c, "state", null,
                "response_type", "token")), c.redirectUri(), "unsupported_response_type", null);
        assertFalse(q.containsKey("state"));
    }

    @Test
    void invalidPromptAndMaxAge() {
        Admin.TestClient c = confidential();
        UserAgent ua = new UserAgent(BASE);
        assertErrorRedirect(ua.authorize(params(c, "prompt", "none login")), c.redirectUri(), "invalid_request", "st-1");
        assertErrorRedirect(ua.authorize(params(c, "max_age", "-5")), c.redirectUri(), "invalid_request", "st-1");
    }

    // ---------------- sign-in, consent, code ----------------

    @Test
    void fullFlowForConfidentialClient() {
        Admin.TestClient c = confidential();
        Admin.TestUser u = admin.user(PASSWORD);
        UserAgent ua = new UserAgent(BASE);
        Http.Res r = ua.authorize(params(c, "nonce", "n-123"));
        assertEquals(302, r.status());
        assertNoHttpSession(r);

        Http.Res login = ua.follow(r);
        assertEquals(200, login.status(), login::toString);
        assertSecureHtmlHeaders(login);
        assertTrue(login.body().contains("Sign in to continue to " + c.name()), login::body);
        assertTrue(login.body().contains("<label for=\"login:username\""), login::body);
        assertTrue(login.body().contains("<label for=\"login:password\""), login::body);
        // no inline script; with passwordless sign-in on (the full servers' settings) the passkey script by URL
        assertFalse(login.body().replace("<script src=\"/js/passkeys.js\"></script>", "").contains("<script"));
        assertEquals("no-store", login.header("Cache-Control"));
        assertTrue(ua.cookie("portcullis_csrf").isPresent());
        String csrfCookie = login.raw().headers().allValues("Set-Cookie").stream()
                .filter(s -> s.startsWith("portcullis_csrf=")).findFirst().orElseThrow();
        assertTrue(csrfCookie.contains("HttpOnly") && csrfCookie.contains("SameSite=Lax") && csrfCookie.contains("Path=/"));

        Http.Res signedIn = ua.signIn(login, u.username(), u.password());
        assertEquals(303, signedIn.status(), signedIn::toString);
        assertNoHttpSession(signedIn);
        String sessionCookie = signedIn.raw().headers().allValues("Set-Cookie").stream()
                .filter(s -> s.startsWith("portcullis_session=")).findFirst().orElseThrow();
        assertTrue(sessionCookie.contains("HttpOnly"), sessionCookie);
        assertTrue(sessionCookie.contains("SameSite=Lax"), sessionCookie);
        assertTrue(sessionCookie.contains("Path=/"), sessionCookie);
        assertFalse(sessionCookie.contains("Secure"), "issuer is http in tests");
        String sessionId = ua.cookie("portcullis_session").orElseThrow();
        assertEquals(43, sessionId.length());
        assertEquals(1, Db.count("SELECT COUNT(*) FROM sso_sessions WHERE session_hash = ? AND user_id = ?",
                Secrets.hash(sessionId), u.userId()));

        assertTrue(signedIn.header("Location").startsWith(BASE + "/consent.xhtml?"), signedIn::toString);
        Http.Res consent = ua.follow(signedIn);
        assertEquals(200, consent.status(), consent::toString);
        assertSecureHtmlHeaders(consent);
        assertTrue(consent.body().contains(c.name()));
        assertTrue(consent.body().contains("Confirm your identity"), consent::body);
        assertTrue(consent.body().contains("See your name, username and profile details"), consent::body);
        assertFalse(consent.body().contains("See your email address"), "only the requested scopes");

        Http.Res done = ua.consent(consent, true);
        Map<String, String> q = assertClientRedirect(done, 303, c.redirectUri());
        assertEquals("st-1", q.get("state"));
        String code = q.get("code");
        assertTrue(code.matches("[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}"
                + "\\.[A-Za-z0-9_-]{43}"),
                "a UUIDv7 id and 256 random bits: " + code);

        SplitToken parts = SplitToken.parse(code);
        Map<String, Object> row = Db.rows("SELECT * FROM authorization_codes WHERE code_id = ?", parts.id()).get(0);
        assertEquals(Secrets.hash(parts.secret().orElseThrow()), row.get("secret_hash"), "only the secret's hash");
        assertEquals(c.clientId(), row.get("client_id"));
        assertEquals(u.userId(), row.get("user_id"));
        assertEquals(c.redirectUri(), row.get("redirect_uri"));
        assertEquals(true, row.get("redirect_uri_given"));
        assertEquals("openid profile", row.get("scope"));
        assertEquals("n-123", row.get("nonce"));
        assertNull(row.get("code_challenge"));
        assertEquals(Secrets.hash(sessionId), row.get("session_hash"));
        assertFalse(row.values().stream().anyMatch(v -> v != null && v.toString().contains(code)));
        assertEquals("openid profile", Db.rows("SELECT scope FROM consents WHERE user_id = ? AND client_id = ?",
                u.userId(), c.clientId()).get(0).get("scope"));
        assertEquals(1, Db.count("SELECT COUNT(*) FROM audit_events WHERE event_type = 'CODE_ISSUED' AND client_id = ?",
                c.clientId()));
        assertEquals(1, Db.count("SELECT COUNT(*) FROM audit_events WHERE event_type = 'CONSENT_GRANTED' AND client_id = ?",
                c.clientId()));
        assertEquals(1, Db.count("SELECT COUNT(*) FROM audit_events WHERE event_type = 'SIGN_IN_SUCCESS' AND subject = ?",
                u.userId()));
    }

    @Test
    void publicClientCodeIsBoundToTheChallenge() {
        Admin.TestClient c = publicClient();
        Admin.TestUser u = admin.user(PASSWORD);
        Map<String, String> q = new UserAgent(BASE).authorizeAndGetRedirectParams(c, u, Map.of(
                "redirect_uri", c.redirectUri(), "code_challenge", CHALLENGE, "code_challenge_method", "S256"));
        Map<String, Object> row = Db.rows("SELECT * FROM authorization_codes WHERE code_id = ?",
                SplitToken.parse(q.get("code")).id()).get(0);
        assertEquals(CHALLENGE, row.get("code_challenge"));
        assertEquals("S256", row.get("code_challenge_method"));
        assertEquals("openid", row.get("scope"));
    }

    @Test
    void secondAuthorizationReusesSessionAndConsent() {
        Admin.TestClient c = confidential();
        Admin.TestUser u = admin.user(PASSWORD);
        UserAgent ua = signedIn(c, u, "openid profile");
        Http.Res r = ua.authorize(params(c, "state", "second"));
        Map<String, String> q = assertClientRedirect(r, 302, c.redirectUri());
        assertNotNull(q.get("code"));
        assertEquals("second", q.get("state"));
        // a subset of the granted scopes needs no new consent either
        assertNotNull(assertClientRedirect(ua.authorize(params(c, "scope", "openid")), 302, c.redirectUri()).get("code"));
        // more scopes than granted: consent again
        Http.Res more = ua.authorize(params(c, "scope", "openid email"));
        assertTrue(more.header("Location").startsWith(BASE + "/consent.xhtml?"), more::toString);
        // the same session from another browser (any instance reads it from the database)
        UserAgent other = new UserAgent(BASE);
        other.setCookie("portcullis_session", ua.cookie("portcullis_session").orElseThrow());
        assertNotNull(assertClientRedirect(other.authorize(params(c)), 302, c.redirectUri()).get("code"));
    }

    @Test
    void expiredOrIdleSessionsAskForSignInAgain() {
        Admin.TestClient c = confidential();
        Admin.TestUser u = admin.user(PASSWORD);
        UserAgent ua = signedIn(c, u, "openid profile");
        String hash = Secrets.hash(ua.cookie("portcullis_session").orElseThrow());
        // idle for longer than the idle timeout (default 8 h)
        Db.update("UPDATE sso_sessions SET last_seen_at = last_seen_at - 30000 WHERE session_hash = ?", hash);
        assertTrue(ua.authorize(params(c)).header("Location").startsWith(BASE + "/login.xhtml?"));
        assertEquals(0, Db.count("SELECT COUNT(*) FROM sso_sessions WHERE session_hash = ?", hash),
                "an expired session is deleted when met");
        // past the absolute end
        UserAgent again = signedIn(c, u, "openid profile");
        String hash2 = Secrets.hash(again.cookie("portcullis_session").orElseThrow());
        Db.update("UPDATE sso_sessions SET expires_at = ? WHERE session_hash = ?", System.currentTimeMillis() / 1000 - 1, hash2);
        assertErrorRedirect(again.authorize(params(c, "prompt", "none")), c.redirectUri(), "login_required", "st-1");
    }

    @Test
    void theSignInPostNeedsNoServerSideStateFromTheGet() {
        // the page is stateless: a different client connection with only the CSRF cookie can submit it
        Admin.TestClient c = confidential();
        Admin.TestUser u = admin.user(PASSWORD);
        UserAgent first = new UserAgent(BASE);
        Http.Res login = first.follow(first.authorize(params(c)));
        UserAgent second = new UserAgent(BASE);
        second.setCookie("portcullis_csrf", first.cookie("portcullis_csrf").orElseThrow());
        Map<String, String> f = UserAgent.formFields(login.body(), "login");
        assertEquals("stateless", f.get("jakarta.faces.ViewState"));
        f.put("login:username", u.username());
        f.put("login:password", u.password());
        f.put("login:submit", "Sign in");
        Http.Res r = second.submit(login.body(), "login", f);
        assertEquals(303, r.status(), r::toString);
        assertTrue(r.header("Location").startsWith(BASE + "/consent.xhtml?"));
        assertNoHttpSession(r);
    }

    @Test
    void postToTheEndpointRedirectsWith303() {
        Admin.TestClient c = confidential();
        Admin.TestUser u = admin.user(PASSWORD);
        UserAgent ua = signedIn(c, u, "openid profile");
        Map<String, String> q = assertClientRedirect(ua.authorizeByPost(params(c)), 303, c.redirectUri());
        assertNotNull(q.get("code"));
        Http.Res err = ua.authorizeByPost(params(c, "response_type", "token"));
        assertEquals("unsupported_response_type", assertClientRedirect(err, 303, c.redirectUri()).get("error"));
    }

    @Test
    void promptNone() {
        Admin.TestClient c = confidential();
        Admin.TestUser u = admin.user(PASSWORD);
        assertErrorRedirect(new UserAgent(BASE).authorize(params(c, "prompt", "none")), c.redirectUri(),
                "login_required", "st-1");
        UserAgent ua = signedIn(c, u, "openid");
        assertErrorRedirect(ua.authorize(params(c, "prompt", "none", "scope", "openid profile")), c.redirectUri(),
                "consent_required", "st-1");
        assertNotNull(assertClientRedirect(ua.authorize(params(c, "prompt", "none", "scope", "openid")), 302,
                c.redirectUri()).get("code"));
    }

    /**
     * Parameters the server need not act on still yield the code (OIDC Core 3.1.2.1, 3.1.2.2): display, claims_locales,
     * acr_values it cannot satisfy, an extension parameter it does not know, and an id_token_hint with prompt=none.
     */
    @ParameterizedTest
    @ValueSource(strings = {"display=page", "display=popup", "claims_locales=de fr", "acr_values=1 2",
        "extension_parameter=any value", "id_token_hint"})
    void parametersItNeedNotActOnStillYieldTheCode(String parameter) {
        Admin.TestClient c = confidential();
        Admin.TestUser u = admin.user(PASSWORD);
        UserAgent ua = signedIn(c, u, "openid");
        Map<String, String> request = parameter.equals("id_token_hint")
                ? params(c, "scope", "openid", "prompt", "none",
                        "id_token_hint", (String) ua.codeFlow(c, u).get("id_token"))
                : params(c, "scope", "openid", parameter.substring(0, parameter.indexOf('=')),
                        parameter.substring(parameter.indexOf('=') + 1));
        Map<String, String> answer = assertClientRedirect(ua.authorize(request), 302, c.redirectUri());
        assertNull(answer.get("error"), answer::toString);
        assertNotNull(answer.get("code"), answer::toString);
        assertEquals("st-1", answer.get("state"));
    }

    @Test
    void promptLoginAndConsentAskAgain() {
        Admin.TestClient c = confidential();
        Admin.TestUser u = admin.user(PASSWORD);
        UserAgent ua = signedIn(c, u, "openid profile");
        Http.Res login = ua.authorize(params(c, "prompt", "login"));
        assertTrue(login.header("Location").startsWith(BASE + "/login.xhtml?"), login::toString);
        Http.Res after = ua.signIn(ua.follow(login), u.username(), u.password());
        assertNotNull(assertClientRedirect(after, 303, c.redirectUri()).get("code"), "consent remembered");

        Http.Res consent = ua.authorize(params(c, "prompt", "consent"));
        assertTrue(consent.header("Location").startsWith(BASE + "/consent.xhtml?"), consent::toString);
        assertNotNull(assertClientRedirect(ua.consent(ua.follow(consent), true), 303, c.redirectUri()).get("code"));
    }

    @Test
    void maxAge() {
        Admin.TestClient c = confidential();
        Admin.TestUser u = admin.user(PASSWORD);
        UserAgent ua = signedIn(c, u, "openid profile");
        assertNotNull(assertClientRedirect(ua.authorize(params(c, "max_age", "3600")), 302, c.redirectUri()).get("code"));
        Http.Res r = ua.authorize(params(c, "max_age", "0"));
        assertTrue(r.header("Location").startsWith(BASE + "/login.xhtml?"), r::toString);
        // an old sign-in: move auth_time back an hour
        Db.update("UPDATE sso_sessions SET auth_time = auth_time - 3600 WHERE user_id = ?", u.userId());
        assertTrue(ua.authorize(params(c, "max_age", "600")).header("Location").startsWith(BASE + "/login.xhtml?"));
    }

    @Test
    void theConsentPageCannotSkipPromptLoginOrMaxAge() {
        Admin.TestClient c = confidential();
        Admin.TestUser u = admin.user(PASSWORD);
        UserAgent ua = signedIn(c, u, "openid");
        for (String[] rule : List.of(new String[] {"prompt", "login"}, new String[] {"max_age", "0"})) {
            Map<String, String> p = params(c, "scope", "openid profile", rule[0], rule[1]);
            // straight to the consent page with the live session: back to the endpoint, and so to sign-in
            Http.Res page = ua.get("/consent.xhtml?" + Http.form(p));
            assertEquals(302, page.status(), page::toString);
            assertTrue(page.header("Location").startsWith(BASE + "/oauth/authorize?"), page::toString);
            // the consent form of another request, posted with this request in it (valid CSRF pair): sign in first
            Http.Res other = ua.follow(ua.authorize(params(c, "scope", "openid profile", "state", "other")));
            Map<String, String> f = UserAgent.formFields(other.body(), "consent");
            f.put("consent:authz", Http.form(p));
            f.put("consent:allow", "Allow");
            Http.Res forged = ua.submit(other.body(), "consent", f);
            assertEquals(303, forged.status(), forged::toString);
            assertTrue(forged.header("Location").startsWith(BASE + "/login.xhtml?"), forged::toString);
        }
        assertEquals("openid", Db.rows("SELECT scope FROM consents WHERE client_id = ?", c.clientId()).get(0)
                .get("scope"), "nothing granted without the sign-in");
    }

    @Test
    void signingInForPromptLoginOrMaxAgeAllowsOneConsentForThatRequest() {
        Admin.TestClient c = confidential();
        Admin.TestUser u = admin.user(PASSWORD);
        UserAgent ua = signedIn(c, u, "openid");
        int n = 0;
        for (String[] rule : List.of(new String[] {"prompt", "login"}, new String[] {"max_age", "0"})) {
            String scope = n++ == 0 ? "openid profile" : "openid profile email";
            Map<String, String> p = params(c, "scope", scope, rule[0], rule[1]);
            Http.Res login = ua.follow(ua.authorize(p));
            assertTrue(login.body().contains("id=\"login\""), login::toString);
            Http.Res signedIn = ua.signIn(login, u.username(), u.password());
            assertTrue(signedIn.header("Location").startsWith(BASE + "/consent.xhtml?"), signedIn::toString);
            Http.Res consent = ua.follow(signedIn);
            assertEquals(200, consent.status(), consent::toString);
            assertNotNull(assertClientRedirect(ua.consent(consent, true), 303, c.redirectUri()).get("code"));
            // the same answer again: the sign-in was for one consent only
            Http.Res replay = ua.consent(consent, true);
            assertEquals(303, replay.status(), replay::toString);
            assertTrue(replay.header("Location").startsWith(BASE + "/login.xhtml?"), replay::toString);
        }
        // a sign-in older than the consent window does not count either
        Map<String, String> p = params(c, "prompt", "login consent", "state", "late");
        Http.Res consent = ua.follow(ua.signIn(ua.follow(ua.authorize(p)), u.username(), u.password()));
        Db.update("UPDATE sso_sessions SET auth_time = auth_time - 601 WHERE session_hash = ?",
                Secrets.hash(ua.cookie("portcullis_session").orElseThrow()));
        Http.Res late = ua.consent(consent, true);
        assertTrue(late.header("Location").startsWith(BASE + "/login.xhtml?"), late::toString);
    }

    @Test
    void denyingConsentSendsAccessDenied() {
        Admin.TestClient c = confidential();
        Admin.TestUser u = admin.user(PASSWORD);
        UserAgent ua = new UserAgent(BASE);
        Http.Res signedIn = ua.signIn(ua.follow(ua.authorize(params(c))), u.username(), u.password());
        Http.Res denied = ua.consent(ua.follow(signedIn), false);
        Map<String, String> q = assertClientRedirect(denied, 303, c.redirectUri());
        assertEquals("access_denied", q.get("error"));
        assertEquals("st-1", q.get("state"));
        assertNull(q.get("code"));
        assertEquals(0, Db.count("SELECT COUNT(*) FROM consents WHERE client_id = ?", c.clientId()));
        assertEquals(1, Db.count("SELECT COUNT(*) FROM audit_events WHERE event_type = 'CONSENT_DENIED' AND client_id = ?",
                c.clientId()));
    }

    @Test
    void skipConsentClientGetsCodeRightAfterSignIn() {
        Admin.TestClient c = admin.client(true, "openid", true, "https://trusted.example.com/cb");
        Admin.TestUser u = admin.user(PASSWORD);
        UserAgent ua = new UserAgent(BASE);
        Http.Res signedIn = ua.signIn(ua.follow(ua.authorize(params(c, "scope", "openid"))), u.username(), u.password());
        assertNotNull(assertClientRedirect(signedIn, 303, c.redirectUri()).get("code"));
    }

    // ---------------- response modes ----------------

    /** Asserts the form post page of {@code response_mode=form_post} and returns the fields it posts. */
    private static Map<String, String> assertFormPost(Http.Res r, String redirectUri) {
        assertEquals(200, r.status(), r::toString);
        assertNull(r.header("Location"));
        assertTrue(r.header("Content-Type").startsWith("text/html"), r::toString);
        assertEquals("no-store", r.header("Cache-Control"));
        String csp = r.header("Content-Security-Policy");
        assertTrue(csp.contains("script-src 'self'") && !csp.contains("unsafe-inline") && !csp.contains("form-action"),
                csp);
        assertSecureHtmlHeaders(r);
        assertTrue(r.body().contains("<form id=\"form-post\" method=\"post\" action=\"" + redirectUri + "\">"),
                r::body);
        assertTrue(r.body().contains("<script src=\"/js/form-post.js\"></script>"), r::body);
        assertEquals(1, r.body().split("<script", -1).length - 1, "the one script is the external one");
        assertTrue(r.body().contains("<noscript>") && r.body().contains("<button type=\"submit\" id=\"continue\">"),
                "a button for browsers without scripts");
        Map<String, String> fields = UserAgent.formFields(r.body(), "form-post");
        assertEquals(BASE, fields.get("iss"));
        return fields;
    }

    @Test
    void formPostDeliversTheCodeFromTheSignInAndFromTheEndpoint() {
        Admin.TestClient c = admin.client(true, "openid", true, "https://trusted.example.com/cb");
        Admin.TestUser u = admin.user(PASSWORD);
        UserAgent ua = new UserAgent(BASE);
        Http.Res login = ua.follow(ua.authorize(params(c, "scope", "openid", "response_mode", "form_post")));
        Map<String, String> posted = assertFormPost(ua.signIn(login, u.username(), u.password()), c.redirectUri());
        assertEquals("st-1", posted.get("state"));
        Http.Res token = new Http(BASE).postForm("/oauth/token", Map.of("grant_type", "authorization_code",
                "code", posted.get("code"), "redirect_uri", c.redirectUri(), "client_id", c.clientId(),
                "client_secret", c.secret()));
        assertEquals(200, token.status(), token::toString);

        Map<String, String> again = assertFormPost(ua.authorizeByPost(params(c, "scope", "openid",
                "response_mode", "form_post", "state", "<\"&'>")), c.redirectUri());
        assertNotNull(again.get("code"));
        assertEquals("<\"&'>", again.get("state"), "escaped in the page, posted unchanged");
    }

    @Test
    void formPostCarriesErrorsAfterTheRedirectUriIsVerifiedAndNotBefore() {
        Admin.TestClient c = confidential();
        Map<String, String> e = assertFormPost(new UserAgent(BASE).authorize(params(c, "response_mode", "form_post",
                "response_type", "token")), c.redirectUri());
        assertEquals("unsupported_response_type", e.get("error"));
        assertEquals("st-1", e.get("state"));
        assertNull(e.get("code"));
        assertEquals("login_required", assertFormPost(new UserAgent(BASE).authorize(params(c,
                "response_mode", "form_post", "prompt", "none")), c.redirectUri()).get("error"));
        assertErrorPage(new UserAgent(BASE).authorize(params(c, "response_mode", "form_post",
                "redirect_uri", "https://evil.example.com/cb")), "not registered for it");

        Admin.TestUser u = admin.user(PASSWORD);
        UserAgent ua = new UserAgent(BASE);
        Http.Res consent = ua.follow(ua.signIn(ua.follow(ua.authorize(params(c, "response_mode", "form_post"))),
                u.username(), u.password()));
        assertEquals("access_denied", assertFormPost(ua.consent(consent, false), c.redirectUri()).get("error"));
    }

    @Test
    void anUnknownResponseModeIsInvalidRequestInTheQueryAndFragmentIsHonoured() {
        Admin.TestClient c = confidential();
        for (String mode : List.of("jwt", "form_post.jwt", "FORM_POST", "web_message")) {
            assertErrorRedirect(new UserAgent(BASE).authorize(params(c, "response_mode", mode)), c.redirectUri(),
                    "invalid_request", "st-1");
        }
        Http.Res fragment = new UserAgent(BASE).authorize(params(c, "response_mode", "fragment", "prompt", "none"));
        assertEquals(302, fragment.status(), fragment::toString);
        String location = fragment.header("Location");
        assertTrue(location.startsWith(c.redirectUri() + "#error=login_required&"), location);
        assertEquals(Map.of("error", "login_required", "error_description", "The user is not signed in",
                "state", "st-1", "iss", BASE), Http.query("?" + location.substring(location.indexOf('#') + 1)));
    }

    @Test
    void theFormPostScriptIsServedFromTheServer() {
        Http.Res js = new UserAgent(BASE).get("/js/form-post.js");
        assertEquals(200, js.status(), js::toString);
        assertTrue(js.body().contains("getElementById('form-post')"), js::body);
    }

    // ---------------- the sign-in form ----------------

    @Test
    void signInRehashesAPasswordStoredWithOtherArgon2Parameters() {
        Admin.TestUser u = admin.user(PASSWORD);
        // OWASP's 19 MiB x 2 line, Portcullis' default before 7 MiB x 5: what older installations have stored
        String older = PasswordHashers.withParameters(19_456, 2, 1).hash(PASSWORD);
        assertEquals(1, Db.update("UPDATE users SET password_hash = ? WHERE user_id = ?", older, u.userId()));

        signedIn(confidential(), u, "openid");
        String upgraded = storedPasswordHash(u);
        assertTrue(upgraded.startsWith("$argon2id$v=19$m=7168,t=5,p=1$"), upgraded);

        signedIn(confidential(), u, "openid"); // the new hash verifies, and stays
        assertEquals(upgraded, storedPasswordHash(u));
    }

    private static String storedPasswordHash(Admin.TestUser u) {
        return (String) Db.rows("SELECT password_hash FROM users WHERE user_id = ?", u.userId()).get(0).get("password_hash");
    }

    @Test
    void wrongPasswordAndUnknownUserGetTheSameGenericAnswer() {
        Admin.TestClient c = confidential();
        Admin.TestUser u = admin.user(PASSWORD);
        UserAgent ua = new UserAgent(BASE);
        Http.Res login = ua.follow(ua.authorize(params(c, "login_hint", u.username())));
        assertTrue(UserAgent.formFields(login.body(), "login").get("login:username").equals(u.username()),
                "login_hint prefills the username");

        Http.Res wrong = ua.signIn(login, u.username(), "Wrong-Secret-42");
        assertEquals(200, wrong.status(), wrong::toString);
        assertNull(wrong.header("Location"));
        assertTrue(wrong.body().contains("Invalid username or password"), wrong::body);
        assertEquals(u.username(), UserAgent.formFields(wrong.body(), "login").get("login:username"), "username kept");
        assertEquals("", UserAgent.formFields(wrong.body(), "login").get("login:password"));
        assertFalse(wrong.body().contains("Wrong-Secret-42"), "password never echoed");
        assertNoHttpSession(wrong);
        assertTrue(ua.cookie("portcullis_session").isEmpty());

        String typedForNoAccount = "nobody-" + System.nanoTime(); // e.g. a password typed into the wrong field
        Http.Res unknown = ua.signIn(wrong, typedForNoAccount, "Wrong-Secret-42");
        assertEquals(200, unknown.status());
        assertTrue(unknown.body().contains("Invalid username or password"));
        // field values and, with passwordless sign-in on, the passkey button's fresh challenge differ by nature
        String perPage = "(value|data-challenge)=\"[^\"]*\"";
        assertEquals(wrong.body().replaceAll(perPage, ""), unknown.body().replaceAll(perPage, ""),
                "same page apart from field values");

        // after a failure the form still works
        assertEquals(303, ua.signIn(unknown, u.username(), u.password()).status());
        assertEquals(1, Db.count("SELECT COUNT(*) FROM audit_events WHERE event_type = 'SIGN_IN_FAILURE' AND subject = ?",
                u.username()));
        String audit = Db.rows("SELECT * FROM audit_events WHERE event_type = 'SIGN_IN_FAILURE' AND subject = ?",
                u.username()).toString();
        assertFalse(audit.contains("Wrong-Secret-42"));
        // free text typed for no account is neither recorded nor logged (the trail is what the log gets)
        assertEquals(0, Db.count("SELECT COUNT(*) FROM audit_events WHERE subject LIKE ? OR detail LIKE ?",
                "%" + typedForNoAccount + "%", "%" + typedForNoAccount + "%"));
        assertTrue(Db.count("SELECT COUNT(*) FROM audit_events WHERE event_type = 'SIGN_IN_FAILURE' AND subject IS NULL "
                + "AND detail = 'no such account'") >= 1);
    }

    @Test
    void csrfTokenMustMatchTheCookie() {
        Admin.TestClient c = confidential();
        Admin.TestUser u = admin.user(PASSWORD);
        UserAgent ua = new UserAgent(BASE);
        Http.Res login = ua.follow(ua.authorize(params(c)));
        Map<String, String> f = UserAgent.formFields(login.body(), "login");
        f.put("login:username", u.username());
        f.put("login:password", u.password());
        f.put("login:submit", "Sign in");
        f.put("login:csrf", Secrets.newSecret());
        Http.Res r = ua.submit(login.body(), "login", f);
        assertEquals(403, r.status(), r::toString);
        assertTrue(r.body().contains("This form has expired"));
        assertTrue(ua.cookie("portcullis_session").isEmpty());
        // a browser without the cookie (cross-site POST) is refused too
        UserAgent attacker = new UserAgent(BASE);
        f.put("login:csrf", ua.cookie("portcullis_csrf").orElseThrow());
        assertEquals(403, attacker.submit(login.body(), "login", f).status());
    }

    @Test
    void signingInRotatesTheCsrfCookieAndBindsTheFormTokenToTheSession() {
        Admin.TestClient c = confidential();
        Admin.TestUser u = admin.user(PASSWORD);
        UserAgent ua = new UserAgent(BASE);
        Http.Res login = ua.follow(ua.authorize(params(c)));
        String before = ua.cookie("portcullis_csrf").orElseThrow();
        assertEquals(before, UserAgent.formFields(login.body(), "login").get("login:csrf"));
        Http.Res consent = ua.follow(ua.signIn(login, u.username(), u.password()));
        String after = ua.cookie("portcullis_csrf").orElseThrow();
        assertFalse(after.equals(before), "a new CSRF cookie at sign-in");
        Map<String, String> f = UserAgent.formFields(consent.body(), "consent");
        assertFalse(f.get("consent:csrf").equals(after), "signed in, the form token is bound to the session");
        // the cookie's value alone (all a planted or leaked CSRF cookie gives) is refused
        f.put("consent:csrf", after);
        f.put("consent:allow", "Allow");
        assertEquals(403, ua.submit(consent.body(), "consent", f).status());
        assertNotNull(assertClientRedirect(ua.consent(consent, true), 303, c.redirectUri()).get("code"));
    }

    @Test
    void tamperedPendingRequestIsValidatedAgain() {
        Admin.TestClient c = confidential();
        Admin.TestUser u = admin.user(PASSWORD);
        UserAgent ua = new UserAgent(BASE);
        Http.Res login = ua.follow(ua.authorize(params(c)));
        Map<String, String> f = UserAgent.formFields(login.body(), "login");
        f.put("login:username", u.username());
        f.put("login:password", u.password());
        f.put("login:submit", "Sign in");
        f.put("login:authz", Http.form(params(c, "redirect_uri", "https://evil.example.com/cb")));
        Http.Res r = ua.submit(login.body(), "login", f);
        assertErrorPage(r, "not registered for it");
        assertTrue(ua.cookie("portcullis_session").isEmpty(), "no sign-in on a tampered request");
        // the login page itself with a bad request
        assertErrorPage(ua.get("/login.xhtml?client_id=nope&response_type=code"), "not registered");
        assertErrorPage(ua.get("/login.xhtml"), "client_id is missing");
        // consent page without a session sends the browser to the endpoint (and so to sign-in)
        Http.Res consent = new UserAgent(BASE).get("/consent.xhtml?" + Http.form(params(c)));
        assertEquals(302, consent.status(), consent::toString);
        assertTrue(consent.header("Location").startsWith(BASE + "/oauth/authorize?"));
    }

    @Test
    void germanPagesByUiLocalesOrAcceptLanguage() {
        Admin.TestClient c = confidential();
        UserAgent ua = new UserAgent(BASE);
        Http.Res de = ua.follow(ua.authorize(params(c, "ui_locales", "de")));
        assertTrue(de.body().contains("Melden Sie sich an, um mit " + c.name() + " fortzufahren"), de::body);
        assertTrue(de.body().contains("lang=\"de\""));
        Http.Res byHeader = ua.follow(ua.authorize(params(c)), "Accept-Language", "de-DE,de;q=0.9,en;q=0.5");
        assertTrue(byHeader.body().contains("Passwort"), byHeader::body);
        Http.Res en = ua.follow(ua.authorize(params(c, "ui_locales", "fr en")), "Accept-Language", "de");
        assertTrue(en.body().contains("Password"), "ui_locales wins over Accept-Language");
        Http.Res errorDe = ua.authorize(params(c, "client_id", "nope", "ui_locales", "de"));
        assertErrorPage(errorDe, "nicht registriert");
    }

    @Test
    void messagesAreEscaped() {
        Admin.TestClient c = confidential();
        Http.Res r = new UserAgent(BASE).get("/oauth/authorize?client_id=%3Cscript%3Ealert(1)%3C%2Fscript%3E");
        assertErrorPage(r, "not registered");
        assertFalse(r.body().contains("<script>"));
        Http.Res login = new UserAgent(BASE).follow(new UserAgent(BASE).authorize(params(c,
                "login_hint", "\"><b>x</b>")));
        assertFalse(login.body().contains("<b>x</b>"), login::body);
    }

    // ---------------- brute-force throttling ----------------
    // (the slow-down, the lock, the address rule behind a proxy and concurrent guesses: SignInThrottlingIT, with a
    // server of its own whose small limits let requests alone reach every step)

    @Test
    void repeatedFailuresStartTheSlowDownForKnownAndUnknownAccountsAlike() {
        Admin.TestClient c = confidential();
        Admin.TestUser u = admin.user(PASSWORD);
        String ghost = "ghost" + System.nanoTime();
        UserAgent ua = new UserAgent(BASE);
        Http.Res page = ua.follow(ua.authorize(params(c)));
        int slowdownAfter = Integer.parseInt(ClassServer.runSetting("portcullis.login.slowdown-after", "3"));
        for (String name : List.of(u.username(), ghost)) {
            for (int i = 0; i < slowdownAfter; i++) {
                page = ua.signIn(page, name, "wrong-" + i);
                assertTrue(page.body().contains("Invalid username or password"), page::body);
            }
            Map<String, Object> row = Db.rows("SELECT * FROM login_throttle WHERE throttle_key = ?", "user:" + name)
                    .get(0);
            assertEquals(slowdownAfter, ((Number) row.get("failures")).intValue(), name);
            assertNotNull(row.get("locked_until"), "slow-down started, whether or not the account exists");
        }
        assertTrue(ua.cookie("portcullis_session").isEmpty());
    }
}
