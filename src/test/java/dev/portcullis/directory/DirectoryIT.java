package dev.portcullis.directory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import com.sun.net.httpserver.HttpServer;
import dev.portcullis.session.BrowserCookies;
import dev.portcullis.testing.Admin;
import dev.portcullis.testing.BrowserSetup;
import dev.portcullis.testing.Db;
import dev.portcullis.testing.Http;
import dev.portcullis.testing.PayaraProcess;
import dev.portcullis.testing.SoftAuthenticator;
import dev.portcullis.testing.TestDirectory;
import dev.portcullis.testing.UserAgent;
import java.net.URI;
import java.text.ParseException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * Directory sign-in end to end, against a Payara Micro of its own pointed at a real LDAP server in this JVM
 * ({@link TestDirectory}, the Active Directory-shaped tree): LDAPS with the test's CA file, the first URL of the
 * failover list dead, objectGUID as {@code sub}, nested groups from memberOf, Developers as the admin group, a
 * re-check interval of {@value #RECHECK_SECONDS} s that a test makes due by moving the user's last check back in the
 * database ({@link #recheckDue}), never by waiting. The OpenLDAP-shaped tree, StartTLS and group search are covered
 * against the same kind of server by {@link DirectoryTest}.
 */
class DirectoryIT {

    private static final String VERIFIER = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk";
    private static final String CHALLENGE = "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM";
    private static final String CAROL_DN = "cn=Carol Jones,cn=Users,dc=corp,dc=example,dc=com";
    private static final List<String> CAROL_GROUPS = List.of("Developers", "Engineering");
    private static final String UNAVAILABLE = "Sign-in is temporarily unavailable";
    private static final long RECHECK_SECONDS = 120;
    private static final Admin.TestUser CAROL = new Admin.TestUser("carol", TestDirectory.PASSWORD,
            TestDirectory.CAROL_GUID);

    private static TestDirectory ad;
    private static PayaraProcess server;
    private static Admin admin;
    private static Admin.TestClient confidential;

    @BeforeAll
    static void start() {
        ad = TestDirectory.activeDirectory();
        List<String> properties = new ArrayList<>(List.of(
                "-Dportcullis.ldap.url=ldaps://127.0.0.1:" + TestDirectory.deadPort() + " ldaps://127.0.0.1:"
                        + ad.ldapsPort,
                "-Dportcullis.ldap.ca-file=" + TestDirectory.CA_FILE,
                "-Dportcullis.ldap.user-base-dn=cn=Users," + ad.baseDn,
                "-Dportcullis.ldap.user-filter=(&(objectClass=user)(|(sAMAccountName={0})(userPrincipalName={0})))",
                "-Dportcullis.ldap.attribute.subject=objectGUID",
                "-Dportcullis.ldap.attribute.username=sAMAccountName",
                "-Dportcullis.ldap.attribute.name=displayName",
                "-Dportcullis.ldap.groups-from-member-of=true",
                "-Dportcullis.ldap.recheck-interval=" + RECHECK_SECONDS,
                "-Dportcullis.ldap.admin-group=cn=Developers,ou=Groups," + ad.baseDn,
                "-Dportcullis.ldap.claim-attributes=nickname=mailNickname,locale=",
                "-Dportcullis.ldap.connect-timeout=2",
                "-Dportcullis.ldap.response-timeout=3",
                "-Dportcullis.mfa.passwordless=true"));
        properties.addAll(ad.serviceAccount());
        server = PayaraProcess.start(properties.toArray(String[]::new));
        admin = new Admin(server.http(), System.getProperty("portcullis.test.admin-token"));
        // the tests compare the ID token's claims with userinfo's
        confidential = admin.withIdTokenClaims(admin.confidentialClient("openid profile email groups",
                "https://app.example.com/cb"));
    }

    @AfterAll
    static void stop() {
        if (server != null) {
            server.close();
        }
        if (ad != null) {
            ad.close();
        }
        // the database is shared with the classes that run next; the refused sign-ins here count against 127.0.0.1
        Db.update("DELETE FROM login_throttle");
    }

    private static Http.Res loginPage(UserAgent ua, Admin.TestClient c) {
        Http.Res page = ua.get("/login.xhtml?" + Http.form(Map.of("client_id", c.clientId(), "redirect_uri",
                c.redirectUri(), "response_type", "code", "scope", "openid", "state", "s")));
        assertEquals(200, page.status(), page::toString);
        return page;
    }

    private static Http.Res signIn(String username, String password) {
        UserAgent ua = new UserAgent(server.base);
        return ua.signIn(loginPage(ua, confidential), username, password);
    }

    private static Http.Res token(Map<String, String> form) {
        return server.http().postForm("/oauth/token", form);
    }

    private static Map<String, String> codeForm(Admin.TestClient c, String code) {
        Map<String, String> p = new LinkedHashMap<>(Map.of("grant_type", "authorization_code", "code", code,
                "redirect_uri", c.redirectUri(), "client_id", c.clientId()));
        if (c.secret() != null) {
            p.put("client_secret", c.secret());
        }
        return p;
    }

    private static Http.Res refresh(String refreshToken) {
        return token(Map.of("grant_type", "refresh_token", "refresh_token", refreshToken, "client_id",
                confidential.clientId(), "client_secret", confidential.secret()));
    }

    private static Http.Res userinfo(String accessToken) {
        return server.http().get("/oauth/userinfo", "Authorization", "Bearer " + accessToken);
    }

    /** Carol's tokens through the confidential client's code flow (the HTTP sign-in form). */
    private static Http.Res carolsTokens() {
        Map<String, String> q = new UserAgent(server.base).authorizeAndGetRedirectParams(confidential, CAROL,
                Map.of("scope", "openid profile email groups"));
        assertNotNull(q.get("code"), q::toString);
        Http.Res r = token(codeForm(confidential, q.get("code")));
        assertEquals(200, r.status(), r::toString);
        return r;
    }

    private static void assertCarolsClaims(Map<String, Object> claims) {
        assertEquals(TestDirectory.CAROL_GUID, claims.get("sub"));
        assertEquals("carol", claims.get("preferred_username"));
        assertEquals("Carol Jones", claims.get("name"));
        assertEquals("Carol", claims.get("given_name"));
        assertEquals("Jones", claims.get("family_name"));
        assertEquals("carol@corp.example.com", claims.get("email"));
        assertEquals(CAROL_GROUPS, claims.get("groups"));
    }

    /** Makes the directory re-check of a user due, as if the interval had passed since the last one. */
    private static void recheckDue(String userId) {
        assertEquals(1, Db.update("UPDATE users SET directory_checked_at = directory_checked_at - ? WHERE user_id = ?",
                RECHECK_SECONDS + 1, userId));
    }

    /** The browser's answer from the client: a code when its session serves the client, else login_required. */
    private static Map<String, String> silentAuthorization(UserAgent browser) {
        Http.Res r = browser.authorize(Map.of("client_id", confidential.clientId(), "redirect_uri",
                confidential.redirectUri(), "response_type", "code", "scope", "openid", "state", "silent", "prompt",
                "none"));
        assertEquals(302, r.status(), r::toString);
        assertTrue(r.header("Location").startsWith(confidential.redirectUri()), r::toString);
        return Http.query(r.header("Location"));
    }

    private static JWTClaimsSet idToken(Http.Res tokenResponse) throws ParseException {
        return SignedJWT.parse(tokenResponse.jsonString("id_token")).getJWTClaimsSet();
    }

    @Test
    @Tag("browser")
    void browserSignInThroughTheLoginPageThenPublicClientWithPkceGetsTheDirectoryClaims() throws Exception {
        HttpServer callback = BrowserSetup.callbackServer();
        String callbackUri = BrowserSetup.callbackUri(callback);
        WebDriver driver = BrowserSetup.chromium();
        try {
            Admin.TestClient spa = admin.withIdTokenClaims(admin.publicClient("openid profile email groups",
                    "http://127.0.0.1/cb"));
            WebDriverWait wait = new WebDriverWait(driver, Duration.ofSeconds(20));
            driver.get(server.base + "/oauth/authorize?" + Http.form(Map.of("client_id", spa.clientId(),
                    "redirect_uri", callbackUri, "response_type", "code", "scope", "openid profile email groups",
                    "state", "dir", "code_challenge", CHALLENGE, "code_challenge_method", "S256")));
            wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("login:username"))).sendKeys("carol");
            driver.findElement(By.id("login:password")).sendKeys("not her password");
            driver.findElement(By.id("login:submit")).click();
            assertEquals("Invalid username or password.", wait.until(ExpectedConditions
                    .visibilityOfElementLocated(By.id("login:message"))).getText());
            driver.findElement(By.id("login:password")).sendKeys(TestDirectory.PASSWORD);
            driver.findElement(By.id("login:submit")).click();
            wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("consent:allow")));
            assertTrue(driver.findElement(By.id("scopes")).getText().contains("See the groups you belong to"));
            driver.findElement(By.id("consent:allow")).click();
            wait.until(ExpectedConditions.urlContains(callbackUri));
            Map<String, String> q = Http.query(driver.getCurrentUrl());

            Map<String, String> form = codeForm(new Admin.TestClient(spa.clientId(), null, callbackUri, spa.name()),
                    q.get("code"));
            form.put("code_verifier", VERIFIER);
            Http.Res tokens = token(form);
            assertEquals(200, tokens.status(), tokens::toString);
            assertCarolsClaims(idToken(tokens).getClaims());
            Http.Res info = userinfo(tokens.jsonString("access_token"));
            assertEquals(200, info.status(), info::toString);
            assertCarolsClaims(info.json());
        } finally {
            driver.quit();
            callback.stop(0);
        }
    }

    /**
     * The standard claims come from the entry through portcullis.ldap.claim-attributes: the defaults (mobile when
     * there is no telephoneNumber, AD's streetAddress, l, st, postalCode, c), an added one (nickname) and one turned
     * off (locale, though carol has a preferredLanguage); each sign-in takes the directory's current values, and an
     * administrator cannot change what the directory supplies.
     */
    @Test
    void theEntrysAttributesAreTheStandardClaimsAtUserinfoAsTheClaimAttributesMapThem() {
        Admin.TestClient client = admin.confidentialClient("openid profile email address phone",
                "https://claims.example.com/cb");
        // the pass's database is shared: another class's directory (default map) may have stored carol's locale
        admin.patch("/admin/users/carol", "{\"locale\":null}");
        Map<String, Object> claims = userinfo(tokens(client)).json();
        assertEquals("+491701234567", claims.get("phone_number"), claims::toString);
        assertEquals(Map.of("street_address", "1 Main St", "locality", "Springfield", "region", "CA",
                "postal_code", "94105", "country", "US"), claims.get("address"));
        assertEquals("cj", claims.get("nickname"));
        assertEquals("Carol", claims.get("given_name"));
        assertFalse(claims.containsKey("locale"), "locale= turns the claim off");

        ad.replace(CAROL_DN, "l", "Shelbyville");
        try {
            Map<String, Object> after = userinfo(tokens(client)).json();
            assertEquals("Shelbyville", ((Map<?, ?>) after.get("address")).get("locality"), after::toString);
        } finally {
            ad.replace(CAROL_DN, "l", "Springfield");
        }
        for (String claim : List.of("phone_number", "nickname")) {
            Http.Res r = admin.patch("/admin/users/carol", "{\"" + claim + "\":\"+14155550100\"}");
            assertEquals(400, r.status(), r::toString);
            assertEquals(claim + ": a directory user's " + claim + " is the directory's",
                    r.jsonString("error_description"));
        }
        Http.Res locale = admin.patch("/admin/users/carol", "{\"locale\":\"de-DE\"}");
        assertEquals(200, locale.status(), "a claim the directory does not supply is the administrator's: " + locale);
        admin.patch("/admin/users/carol", "{\"locale\":null}");
    }

    /** Carol's access token for {@code client}, asking for every scope it has. */
    private static String tokens(Admin.TestClient client) {
        Map<String, String> q = new UserAgent(server.base).authorizeAndGetRedirectParams(client, CAROL,
                Map.of("scope", "openid profile email address phone"));
        assertNotNull(q.get("code"), q::toString);
        Http.Res r = token(codeForm(client, q.get("code")));
        assertEquals(200, r.status(), r::toString);
        return r.jsonString("access_token");
    }

    @Test
    void confidentialClientCodeFlowThenAdminSeesTheDirectoryUserAndRefreshReChecksTheEntry() throws Exception {
        Http.Res tokens = carolsTokens();
        assertCarolsClaims(idToken(tokens).getClaims());
        assertCarolsClaims(userinfo(tokens.jsonString("access_token")).json());

        Http.Res user = admin.get("/admin/users/carol");
        assertEquals(200, user.status(), user::toString);
        assertEquals("ldap", user.jsonString("source"));
        assertEquals(CAROL_DN, user.jsonString("dn"));
        assertEquals(TestDirectory.CAROL_GUID, user.jsonString("user_id"));

        Http.Res refreshed = refresh(tokens.jsonString("refresh_token"));
        assertEquals(200, refreshed.status(), refreshed::toString);
        assertCarolsClaims(idToken(refreshed).getClaims());

        ad.replace(CAROL_DN, "userAccountControl", "514");
        try {
            recheckDue(TestDirectory.CAROL_GUID);
            Http.Res refused = refresh(refreshed.jsonString("refresh_token"));
            assertEquals(400, refused.status(), refused::toString);
            assertEquals("invalid_grant", refused.jsonString("error"));
            Http.Res disabled = signIn("carol", TestDirectory.PASSWORD);
            assertEquals(200, disabled.status());
            assertTrue(disabled.body().contains("Your directory account is disabled"), disabled::body);
        } finally {
            ad.replace(CAROL_DN, "userAccountControl", "512");
        }
    }

    @Test
    void aDirectoryDisabledUsersLiveSessionGetsNoNewCodeOnceTheRecheckIsDueAndEnds() {
        UserAgent browser = new UserAgent(server.base);
        assertNotNull(browser.authorizeAndGetRedirectParams(confidential, CAROL, Map.of()).get("code"));
        String ended = "SELECT COUNT(*) FROM audit_events WHERE event_type = 'SESSION_ENDED' AND subject = ? "
                + "AND detail LIKE 'directory re-check:%'";
        long endedBefore = Db.count(ended, TestDirectory.CAROL_GUID);
        ad.replace(CAROL_DN, "userAccountControl", "514");
        try {
            assertNotNull(silentAuthorization(browser).get("code"), "within the interval the directory is not asked");
            recheckDue(TestDirectory.CAROL_GUID);
            Map<String, String> refused = silentAuthorization(browser);
            assertEquals("login_required", refused.get("error"), refused::toString);
            assertEquals(0, Db.count("SELECT COUNT(*) FROM sso_sessions WHERE user_id = ?", TestDirectory.CAROL_GUID));
            assertEquals(endedBefore + 1, Db.count(ended, TestDirectory.CAROL_GUID), "audited once");
            Http.Res again = browser.get("/login.xhtml?" + Http.form(Map.of("client_id", confidential.clientId(),
                    "redirect_uri", confidential.redirectUri(), "response_type", "code", "scope", "openid")));
            assertTrue(browser.signIn(again, "carol", TestDirectory.PASSWORD).body()
                    .contains("Your directory account is disabled"), "signing in again is refused");
        } finally {
            ad.replace(CAROL_DN, "userAccountControl", "512");
        }
        assertNotNull(browser.authorizeAndGetRedirectParams(confidential, CAROL, Map.of()).get("code"),
                "enabled again, she signs in again");
    }

    /**
     * A directory user's passkey (registered on the account page after the password step-up) signs her in alone
     * while her entry is enabled; once the directory disables the entry, the same passkey is refused on the login
     * page (the directory is asked at the passwordless sign-in, whatever the re-check interval), with no session,
     * and audited. Her passkey goes afterwards: with a factor, her password sign-ins in the other tests would owe it.
     */
    @Test
    void aDirectoryDisabledUserIsRefusedByAPasswordlessPasskey() throws Exception {
        SoftAuthenticator key = new SoftAuthenticator(URI.create(server.base).getHost());
        try {
            UserAgent owner = new UserAgent(server.base);
            Http.Res security = owner.stepUpWithPassword(owner.openSignedIn("/account/security.xhtml", CAROL),
                    TestDirectory.PASSWORD);
            assertEquals(200, security.status(), security::toString);
            Http.Res registered = postPasskey(owner, security, "passkeys", "passkeys:register",
                    key.create(challenge(security, "id=\"passkeys\""), server.base));
            assertEquals(303, registered.status(), registered::toString);
            assertEquals(List.of(Map.of("user_id", TestDirectory.CAROL_GUID)),
                    Db.rows("SELECT user_id FROM webauthn_credentials WHERE user_id = ?", TestDirectory.CAROL_GUID));
            long since = System.currentTimeMillis();

            // enabled: the passkey alone gives a code at the client
            UserAgent alone = new UserAgent(server.base);
            Http.Res accepted = carolsPasskeyAlone(alone, key, 1);
            assertEquals(303, accepted.status(), accepted::toString);
            Map<String, String> q = toClient(alone, accepted);
            assertNotNull(q.get("code"), q::toString);
            assertEquals(200, token(codeForm(confidential, q.get("code"))).status());

            // disabled in the directory: refused at once, the login page again with its message, no session
            ad.replace(CAROL_DN, "userAccountControl", "514");
            try {
                UserAgent again = new UserAgent(server.base);
                Http.Res refused = carolsPasskeyAlone(again, key, 2);
                assertEquals(400, refused.status(), refused::toString);
                assertNull(refused.header("Location"), refused::toString);
                assertTrue(refused.body().contains("id=\"login\""), refused::body);
                assertTrue(refused.body().contains("The passkey could not be verified"), refused::body);
                assertTrue(again.cookie(BrowserCookies.SESSION).isEmpty(), "no session");
            } finally {
                ad.replace(CAROL_DN, "userAccountControl", "512");
            }
            assertEquals(List.of(
                    Arrays.asList("SIGN_IN_SUCCESS", "success", confidential.clientId(), "passkey, passwordless"),
                    Arrays.asList("SECOND_FACTOR_FAILURE", "failure", confidential.clientId(),
                            "passkey: account disabled")),
                    Db.rows("SELECT event_type, outcome, client_id, detail FROM audit_events WHERE subject = ? "
                            + "AND occurred_at_ms >= ? AND detail LIKE 'passkey%' ORDER BY occurred_at_ms, event_id",
                            TestDirectory.CAROL_GUID, since).stream()
                            .map(r -> Arrays.asList(r.get("event_type"), r.get("outcome"), r.get("client_id"),
                                    r.get("detail")))
                            .toList());
        } finally {
            Db.update("DELETE FROM webauthn_credentials WHERE user_id = ?", TestDirectory.CAROL_GUID);
        }
    }

    /** Carol's passkey alone on a new login page of {@code ua} (the passwordless form), with {@code signCount}. */
    private static Http.Res carolsPasskeyAlone(UserAgent ua, SoftAuthenticator key, long signCount) throws Exception {
        Http.Res login = loginPage(ua, confidential);
        return postPasskey(ua, login, "login", "login:passkey-submit", key.get(
                challenge(login, "id=\"passkey-sign-in\""), server.base, signCount, true, TestDirectory.CAROL_GUID));
    }

    /** Posts a passkey answer ({@code json}, field {@code passkey}) with {@code button} of form {@code formId}. */
    private static Http.Res postPasskey(UserAgent ua, Http.Res page, String formId, String button, String json) {
        Map<String, String> f = UserAgent.formFields(page.body(), formId);
        f.put("passkey", json);
        f.put(button, "x");
        return ua.submit(page.body(), formId, f);
    }

    /** The passkey challenge of the element {@code marker} on {@code page}. */
    private static String challenge(Http.Res page, String marker) {
        int at = page.body().indexOf(marker);
        assertTrue(at >= 0, () -> "no " + marker + " on the page: " + page);
        int from = page.body().indexOf("data-challenge=\"", at);
        assertTrue(from >= 0, () -> "no passkey challenge after " + marker + ": " + page);
        return page.body().substring(from + 16, page.body().indexOf('"', from + 16));
    }

    /** Follows a signed-in browser's redirects (and consent) to the client; the query it gets there. */
    private static Map<String, String> toClient(UserAgent ua, Http.Res r) {
        for (int step = 0; step < 8; step++) {
            if (r.status() == 302 || r.status() == 303) {
                String location = r.header("Location");
                if (location.startsWith(confidential.redirectUri())) {
                    return Http.query(location);
                }
                r = ua.follow(r);
            } else if (r.status() == 200 && r.body().contains("id=\"consent\"")) {
                r = ua.consent(r, true);
            } else {
                break;
            }
        }
        throw new AssertionError("no redirect to the client: " + r);
    }

    @Test
    void anAdministratorRemovedFromTheAdminGroupLosesTheConsoleAtTheRecheck() {
        UserAgent browser = new UserAgent(server.base);
        assertEquals(200, browser.openSignedIn("/admin/console/index.xhtml", CAROL).status());
        ad.replace(CAROL_DN, "memberOf");
        try {
            assertEquals(200, browser.get("/admin/console/index.xhtml").status(), "not asked within the interval");
            recheckDue(TestDirectory.CAROL_GUID);
            Http.Res console = browser.get("/admin/console/index.xhtml");
            assertEquals(403, console.status(), console::toString);
            assertEquals(200, browser.get("/account/index.xhtml").status(), "still signed in, only not an admin");
            assertEquals(Boolean.FALSE, Db.rows("SELECT directory_admin FROM users WHERE user_id = ?",
                    TestDirectory.CAROL_GUID).get(0).get("directory_admin"));
        } finally {
            ad.replace(CAROL_DN, "memberOf", "cn=Developers,ou=Groups," + ad.baseDn);
        }
        recheckDue(TestDirectory.CAROL_GUID);
        assertEquals(200, browser.get("/admin/console/index.xhtml").status(), "back in the group at the re-check");
    }

    @Test
    void everySpellingOfADirectoryAccountCountsOnOneThrottleCounter() {
        Db.update("DELETE FROM login_throttle WHERE throttle_key LIKE 'user:carol%'");
        try {
            for (String spelling : List.of("carol", "carol@corp.example.com")) {
                assertTrue(signIn(spelling, "wrong password").body().contains("Invalid username or password"));
            }
            assertEquals(2, Db.count("SELECT failures FROM login_throttle WHERE throttle_key = 'user:carol'"));
            assertEquals(0, Db.count("SELECT COUNT(*) FROM login_throttle WHERE throttle_key = ?",
                    "user:carol@corp.example.com"));
        } finally {
            Db.update("DELETE FROM login_throttle WHERE throttle_key LIKE 'user:carol%'");
        }
    }

    @Test
    void wrongPasswordUnknownUserAndAccountStatesAreRefusedWithClearMessages() {
        assertTrue(signIn("carol", "wrong password").body().contains("Invalid username or password"));
        assertTrue(signIn("nobody", TestDirectory.PASSWORD).body().contains("Invalid username or password"));
        assertTrue(signIn("dave", TestDirectory.PASSWORD).body().contains("Your directory account is disabled"));
        assertTrue(signIn("erin", TestDirectory.PASSWORD).body().contains("Your directory account is locked"));
        assertTrue(signIn("frank", TestDirectory.PASSWORD).body().contains("Your directory password has expired"));
        assertEquals(404, admin.get("/admin/users/dave").status(), "a refused directory user gets no row");
    }

    @Test
    void filterInjectionUsernamesAreRefusedWithoutABindAsAnyone() {
        int before = ad.binds.size();
        for (String name : List.of("*", "admin)(uid=*", "*)(sAMAccountName=*", "car*", "carol)(|(objectClass=*",
                "\\2a")) {
            Http.Res r = signIn(name, TestDirectory.PASSWORD);
            assertEquals(200, r.status(), r::toString);
            assertTrue(r.body().contains("Invalid username or password"), name);
        }
        assertEquals(List.of(), ad.userBindsSince(before));
    }

    @Test
    void discoveryPublishesTheGroupsScopeAndClaims() {
        Map<String, Object> d = server.http().get("/.well-known/openid-configuration").json();
        assertTrue(((List<?>) d.get("scopes_supported")).contains("groups"), d::toString);
        assertTrue(((List<?>) d.get("claims_supported")).containsAll(List.of("groups", "given_name", "family_name")));
    }

    @Test
    void localUsersStillSignInFirst() {
        Admin.TestUser local = admin.user("local password 1");
        assertEquals(303, signIn(local.username(), local.password()).status());
        Http.Res u = admin.get("/admin/users/" + local.username());
        assertEquals("local", u.jsonString("source"));
        assertFalse(u.json().containsKey("dn"));
    }

    @Test
    void directoryStoppedMidRunThenSignInIs503ButTokensKeepWorkingThenItRecovers() {
        Http.Res tokens = carolsTokens();
        ad.stop();
        try {
            Http.Res down = signIn("carol", TestDirectory.PASSWORD);
            assertEquals(503, down.status(), down::toString);
            assertTrue(down.body().contains(UNAVAILABLE), down::body);
            Http.Res ready = server.http().get("/health/ready");
            assertEquals(200, ready.status(), ready::toString);
            assertTrue(ready.body().contains("degraded"), ready::body);
            assertEquals(200, userinfo(tokens.jsonString("access_token")).status());
            recheckDue(TestDirectory.CAROL_GUID);
            Http.Res refreshed = refresh(tokens.jsonString("refresh_token"));
            assertEquals(200, refreshed.status(), "the re-check fails open while the directory is down");
        } finally {
            ad.start();
        }
        assertEquals(303, signIn("carol", TestDirectory.PASSWORD).status());
        assertTrue(server.http().get("/health/ready").body().contains("\"directory\":\"up\""));
    }
}
