package dev.portcullis.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.portcullis.testing.Admin;
import dev.portcullis.testing.CodeFixture;
import dev.portcullis.testing.Db;
import dev.portcullis.testing.Http;
import dev.portcullis.testing.OwnPagesTestBase;
import dev.portcullis.testing.UserAgent;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.http.HttpRequest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;

/**
 * The admin console at {@code /admin/console/}: signed in through Portcullis's own login page as the built-in client
 * {@code portcullis-console}; only administrators get past the gate (403 on every page for everybody else, and a
 * user's access token gets 403 on every admin API operation). The main path of each page: clients (register, edit,
 * rotate the secret, delete after confirmation), users (disable, the detail page's edit, password and factor reset,
 * unlock, grant revocation), sessions, the audit log's filters, the signing keys' rotation, the dashboard.
 */
class ConsoleIT extends OwnPagesTestBase {

    /** Every console page, from the webapp directory (so a new page cannot be left out), as a browser opens it. */
    static final List<String> PAGES = consolePages();

    static List<String> consolePages() {
        try (Stream<Path> files = Files.list(Path.of("src/main/webapp/admin/console"))) {
            List<String> pages = files.map(f -> f.getFileName().toString()).filter(n -> n.endsWith(".xhtml")).sorted()
                    .map(n -> "/admin/console/" + n + "?id=x&username=x").collect(Collectors.toList());
            assertTrue(pages.size() >= 8, pages::toString);
            return pages;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Test
    void anonymousBrowsersAreSentToSignInAsTheConsoleClient() {
        UserAgent ua = new UserAgent(BASE);
        Http.Res root = ua.get("/admin/console/");
        assertEquals(302, root.status());
        assertEquals(BASE + "/admin/console/index.xhtml", root.header("Location"));
        for (String page : PAGES) {
            Http.Res r = ua.get(page);
            assertEquals(302, r.status(), page);
            assertEquals("no-store", r.header("Cache-Control"), page);
            assertEquals("portcullis-console", Http.query(r.header("Location")).get("client_id"), page);
        }
    }

    @Test
    void signedInUsersWithoutTheAdminRoleGet403OnEveryConsolePage() {
        Admin.TestUser u = admin.user(PASSWORD);
        UserAgent ua = new UserAgent(BASE);
        Http.Res first = ua.openSignedIn("/admin/console/index.xhtml", u);
        assertEquals(403, first.status(), first::toString);
        for (String page : PAGES) {
            Http.Res r = ua.get(page);
            assertEquals(403, r.status(), page);
            assertEquals("no-store", r.header("Cache-Control"), page);
            assertTrue(r.body().contains("id=\"forbidden-page\""), page);
        }
        for (String page : PAGES) {
            Http.Res post = ua.http().postForm(page, Map.of("toggle:submit", "Disable", "username", u.username(),
                    "enable", "false", "jakarta.faces.ViewState", "stateless"));
            assertEquals(403, post.status(), page);
        }
        assertEquals(200, ua.get("/account/index.xhtml").status()); // the same user's account page is open
    }

    /** Signs an administrator in to the clients page and fills its create form; {@code checkboxes} are ticked first. */
    private void fillClientForm(String name, String redirectUri, String... checkboxes) {
        Admin.TestUser boss = administrator();
        browser.forget(BASE);
        browser.open(BASE + "/admin/console/clients.xhtml");
        browser.signIn(boss.username(), PASSWORD);
        browser.visible("create:name").sendKeys(name);
        browser.driver().findElement(By.id("create:redirectUris")).sendKeys(redirectUri);
        for (String id : checkboxes) {
            browser.driver().findElement(By.id(id)).click();
        }
        browser.driver().findElement(By.id("create:submit")).click();
    }

    @Test
    void adminRequiresPushedRequestsOfAClientAndLiftsItAgain() {
        fillClientForm("Pushing app", "https://push.example/cb", "create:requirePushed");
        String clientId = browser.visible("created-id").getText();
        assertEquals(true, admin.get("/admin/clients/" + clientId).json().get("require_pushed_authorization_requests"));

        browser.driver().findElement(By.cssSelector("#client-" + clientId + " a")).click();
        WebElement required = browser.visible("edit:requirePushed");
        assertTrue(required.isSelected(), "the edit form shows the stored value");
        required.click();
        browser.driver().findElement(By.id("edit:submit")).click();
        assertEquals("Saved.", browser.visible("done").getText());
        assertFalse(browser.visible("edit:requirePushed").isSelected());
        assertEquals(false, admin.get("/admin/clients/" + clientId).json().get("require_pushed_authorization_requests"));
        assertEquals(1, Db.count("SELECT COUNT(*) FROM audit_events WHERE event_type = 'CLIENT_UPDATED' "
                + "AND client_id = ? AND detail LIKE ?", clientId, "%require_pushed_authorization_requests%"));
    }

    @Test
    void adminRegistersAClientEditsItsRedirectUriAndAUserSignsInToIt() {
        fillClientForm("Console-made app", "https://first.example/cb");
        String clientId = browser.visible("created-id").getText();
        String secret = browser.driver().findElement(By.id("created-secret")).getText();
        assertEquals(43, secret.length());
        browser.screenshot("console-client-created");

        browser.driver().findElement(By.cssSelector("#client-" + clientId + " a")).click();
        WebElement uris = browser.visible("edit:redirectUris");
        uris.clear();
        uris.sendKeys("https://second.example/cb");
        WebElement grantTypes = browser.visible("edit:grantTypes");
        assertEquals("authorization_code refresh_token", grantTypes.getAttribute("value"), "the default");
        grantTypes.sendKeys(" client_credentials");
        assertFalse(browser.visible("edit:idTokenClaims").isSelected(), "the default: claims at userinfo only");
        browser.driver().findElement(By.id("edit:idTokenClaims")).click();
        browser.driver().findElement(By.id("edit:submit")).click();
        assertEquals("Saved.", browser.visible("done").getText());
        assertEquals("https://second.example/cb", browser.visible("edit:redirectUris").getAttribute("value"));
        assertEquals(List.of("authorization_code", "refresh_token", "client_credentials"),
                admin.get("/admin/clients/" + clientId).json().get("grant_types"));
        assertEquals(true, admin.get("/admin/clients/" + clientId).json().get("id_token_claims"));
        browser.screenshot("console-client-edited");

        Admin.TestUser u = admin.user(PASSWORD);
        Admin.TestClient app = new Admin.TestClient(clientId, secret, "https://second.example/cb", "Console-made app");
        Map<String, String> back = new UserAgent(BASE).authorizeAndGetRedirectParams(app, u, Map.of());
        assertNotNull(back.get("code"), back::toString);
        Http.Res tokens = http.postForm("/oauth/token", Map.of("grant_type", "authorization_code", "code",
                back.get("code"), "redirect_uri", app.redirectUri(), "client_id", clientId, "client_secret", secret));
        assertEquals(200, tokens.status(), tokens::toString);
        Http.Res old = new UserAgent(BASE).authorize(Map.of("client_id", clientId, "redirect_uri",
                "https://first.example/cb", "response_type", "code", "scope", "openid"));
        assertEquals(400, old.status());
    }

    @Test
    void adminRegistersAnApiChangesItAndDeletesItOnceNoClientHoldsItsScopes() {
        Admin.TestUser boss = administrator();
        String tag = "console-" + Long.toHexString(System.nanoTime());
        browser.forget(BASE);
        browser.open(BASE + "/admin/console/apis.xhtml");
        browser.signIn(boss.username(), PASSWORD);
        browser.visible("create:identifier").sendKeys("https://" + tag + ".corp.example");
        browser.driver().findElement(By.id("create:name")).sendKeys("Console API");
        browser.driver().findElement(By.id("create:scopes")).sendKeys(tag + ".read " + tag + ".write");
        assertEquals("at+jwt", new org.openqa.selenium.support.ui.Select(browser.driver().findElement(
                By.id("create:accessTokenTyp"))).getFirstSelectedOption().getAttribute("value"), "the default");
        browser.driver().findElement(By.id("create:submit")).click();
        browser.visible("created");
        String apiId = ((List<?>) admin.get("/admin/apis").json().get("apis")).stream()
                .map(a -> (Map<?, ?>) a).filter(a -> ("https://" + tag + ".corp.example").equals(a.get("identifier")))
                .map(a -> (String) a.get("id")).findFirst().orElseThrow();
        browser.screenshot("console-api-created");

        String ledgerScope = tag + "-ledger.read";
        assertEquals(201, admin.post("/admin/apis", "{\"identifier\":\"https://" + tag + "-ledger.corp.example\","
                + "\"name\":\"Ledger\",\"scopes\":[\"" + ledgerScope + "\"]}").status());
        browser.driver().findElement(By.cssSelector("#api-" + apiId + " a")).click();
        WebElement exchange = browser.visible("edit:exchangeScopes");
        exchange.sendKeys("openid");
        browser.driver().findElement(By.id("edit:submit")).click();
        assertTrue(browser.visible("message").getText().contains("Exchange scopes"), "a built-in scope is refused");
        assertEquals(List.of(), admin.get("/admin/apis/" + apiId).json().get("exchange_scopes"));
        WebElement name = browser.visible("edit:name");
        name.clear();
        name.sendKeys("Payroll");
        new org.openqa.selenium.support.ui.Select(browser.driver().findElement(By.id("edit:signingAlg")))
                .selectByValue("RS256");
        new org.openqa.selenium.support.ui.Select(browser.driver().findElement(By.id("edit:accessTokenTyp")))
                .selectByValue("JWT");
        exchange = browser.driver().findElement(By.id("edit:exchangeScopes"));
        exchange.clear();
        exchange.sendKeys(ledgerScope);
        browser.driver().findElement(By.id("edit:submit")).click();
        assertEquals("Saved.", browser.visible("done").getText());
        assertEquals(ledgerScope, browser.visible("edit:exchangeScopes").getAttribute("value"));
        Http.Res shown = admin.get("/admin/apis/" + apiId);
        assertEquals("Payroll", shown.jsonString("name"));
        assertEquals("RS256", shown.jsonString("access_token_signing_alg"));
        assertEquals("JWT", shown.jsonString("access_token_typ"));
        assertEquals(List.of(ledgerScope), shown.json().get("exchange_scopes"), "the backend's decision, saved");

        Admin.TestClient holder = admin.confidentialClient("openid " + tag + ".read", "https://app.example/cb");
        browser.driver().findElement(By.id("delete:submit")).click();
        browser.visible("confirm:submit").click();
        assertTrue(browser.visible("message").getText().contains(holder.clientId()),
                "deletion refused while a client holds a scope");
        assertEquals(200, admin.get("/admin/apis/" + apiId).status());

        assertEquals(200, admin.patch("/admin/clients/" + holder.clientId(), "{\"scopes\":\"openid\"}").status());
        browser.open(BASE + "/admin/console/api.xhtml?id=" + apiId);
        browser.visible("delete:submit").click();
        browser.visible("confirm:submit").click();
        assertEquals("The API was deleted.", browser.visible("done").getText());
        assertEquals(404, admin.get("/admin/apis/" + apiId).status());
    }

    @Test
    void adminDisablesAUserAndTheirNextRefreshFails() {
        Admin.TestUser boss = administrator();
        Admin.TestUser u = admin.user(PASSWORD);
        Admin.TestClient app = admin.confidentialClient("openid", "https://app.example/cb");
        String code = CodeFixture.issue(app.clientId(), u.userId(), app.redirectUri(), "openid", null, null);
        Map<String, String> f = new LinkedHashMap<>(Map.of("grant_type", "authorization_code", "code", code,
                "redirect_uri", app.redirectUri(), "client_id", app.clientId(), "client_secret", app.secret()));
        String refresh = http.postForm("/oauth/token", f).jsonString("refresh_token");

        UserAgent ua = new UserAgent(BASE);
        Http.Res page = ua.openSignedIn("/admin/console/users.xhtml?q=" + u.username(), boss);
        assertEquals(200, page.status(), page::toString);
        String form = formIdOfRow(page.body(), "user-" + u.username());
        Map<String, String> fields = UserAgent.formFields(page.body(), form);
        fields.put(form + ":submit", "Disable");
        Http.Res done = ua.submit(page.body(), form, fields);
        assertEquals(303, done.status(), done::toString);
        assertTrue(ua.follow(done).body().contains("The user was disabled"));

        Http.Res r = http.postForm("/oauth/token", Map.of("grant_type", "refresh_token", "refresh_token", refresh,
                "client_id", app.clientId(), "client_secret", app.secret()));
        assertEquals(400, r.status(), r::toString);
        assertEquals("invalid_grant", r.jsonString("error"));
    }

    @Test
    void administratorsCannotDisableThemselves() {
        Admin.TestUser boss = administrator();
        UserAgent ua = new UserAgent(BASE);
        Http.Res page = ua.openSignedIn("/admin/console/users.xhtml?q=" + boss.username(), boss);
        String form = formIdOfRow(page.body(), "user-" + boss.username());
        Map<String, String> fields = UserAgent.formFields(page.body(), form);
        fields.put(form + ":submit", "Disable");
        Http.Res r = ua.submit(page.body(), form, fields);
        assertEquals(400, r.status());
        assertTrue(r.body().contains("You cannot disable your own account."));
        assertEquals(200, ua.get("/admin/console/index.xhtml").status());
    }

    @Test
    void formsWithoutTheBrowsersCsrfTokenChangeNothing() {
        Admin.TestUser boss = administrator();
        Admin.TestUser u = admin.user(PASSWORD);
        UserAgent ua = new UserAgent(BASE);
        Http.Res page = ua.openSignedIn("/admin/console/users.xhtml?q=" + u.username(), boss);
        String form = formIdOfRow(page.body(), "user-" + u.username());
        Map<String, String> fields = UserAgent.formFields(page.body(), form);
        fields.put(form + ":submit", "Disable");
        fields.put("csrf", "forged");
        assertEquals(403, ua.submit(page.body(), form, fields).status());
        assertTrue(new UserAgent(BASE).authorizeAndGetRedirectParams(
                admin.confidentialClient("openid", "https://app.example/cb"), u, Map.of()).containsKey("code"));
    }

    // ---- helpers ---------------------------------------------------------------------------------------------

    private static final String REDIRECT = "https://app.example/cb";

    /** Tokens of a confidential client for the user, through a stored code. */
    private Http.Res tokens(Admin.TestClient c, Admin.TestUser u, String scope) {
        String code = CodeFixture.issue(c.clientId(), u.userId(), c.redirectUri(), scope, null, null);
        return http.postForm("/oauth/token", new LinkedHashMap<>(Map.of("grant_type", "authorization_code", "code",
                code, "redirect_uri", c.redirectUri(), "client_id", c.clientId(), "client_secret", c.secret())));
    }

    private String accessToken(Admin.TestClient c, Admin.TestUser u) {
        Http.Res r = tokens(c, u, "openid profile");
        assertEquals(200, r.status(), r::toString);
        return r.jsonString("access_token");
    }

    /** One sign-in with a wrong password, through the account page's gate (a SIGN_IN_FAILURE for the user). */
    private void failSignIn(Admin.TestUser u) {
        UserAgent ua = new UserAgent(BASE);
        Http.Res r = ua.get("/account/index.xhtml");
        while (r.status() == 302 || r.status() == 303) {
            r = ua.follow(r);
        }
        assertTrue(r.body().contains("id=\"login\""), r::toString);
        Http.Res failed = ua.signIn(r, u.username(), "wrong password " + u.username());
        assertEquals(200, failed.status(), failed::toString);
    }

    /** Submits the form {@code formId} of {@code page} with its own fields, {@code extra} and its button. */
    private static Http.Res press(UserAgent ua, Http.Res page, String formId, Map<String, String> extra) {
        Map<String, String> f = UserAgent.formFields(page.body(), formId);
        f.putAll(extra);
        f.put(formId + ":submit", "x");
        return ua.submit(page.body(), formId, f);
    }

    private String userPage(Admin.TestUser u) {
        return "/admin/console/user.xhtml?username=" + u.username();
    }

    // ---- the gate and the admin API's answer to user tokens ----------------------------------------------------

    /**
     * A valid access token of a user without admin rights gets 403 {@code insufficient_scope} on every operation the
     * {@code /openapi} document lists under {@code /admin} (path parameters filled in, a JSON body where one may go);
     * the shared admin token still works.
     */
    @Test
    @Tag("mp-openapi")
    void aUsersAccessTokenGets403OnEveryAdminApiOperation() {
        Http.Res doc = http.get("/openapi?format=JSON", "Accept", "application/json");
        assertEquals(200, doc.status(), doc::toString);
        @SuppressWarnings("unchecked")
        Map<String, Object> paths = (Map<String, Object>) doc.json().get("paths");
        Admin.TestUser u = administrator(); // even an administrator's token is a user's token, not the admin token
        String token = accessToken(admin.confidentialClient("openid profile", REDIRECT), u);
        List<String> checked = new ArrayList<>();
        for (Map.Entry<String, Object> path : paths.entrySet()) {
            if (!path.getKey().startsWith("/admin")) {
                continue;
            }
            String concrete = path.getKey().replaceAll("\\{[^}]+}", "x");
            @SuppressWarnings("unchecked")
            Set<String> methods = ((Map<String, Object>) path.getValue()).keySet();
            for (String method : methods) {
                String m = method.toUpperCase(java.util.Locale.ROOT);
                if (!Set.of("GET", "POST", "PUT", "PATCH", "DELETE").contains(m)) {
                    continue;
                }
                HttpRequest.Builder b = http.request(concrete).header("Authorization", "Bearer " + token);
                b = Set.of("POST", "PUT", "PATCH").contains(m)
                        ? b.header("Content-Type", "application/json").method(m, HttpRequest.BodyPublishers.ofString("{}"))
                        : b.method(m, HttpRequest.BodyPublishers.noBody());
                Http.Res r = http.send(b.build());
                assertEquals(403, r.status(), () -> m + " " + concrete + ": " + r);
                assertTrue(r.header("WWW-Authenticate").contains("error=\"insufficient_scope\""), m + " " + concrete);
                assertEquals("insufficient_scope", r.jsonString("error"), m + " " + concrete);
                checked.add(m + " " + concrete);
            }
        }
        assertTrue(checked.size() >= 20, checked::toString);
        assertTrue(checked.contains("POST /admin/keys/rotate"), checked::toString);
        assertEquals(200, admin.get("/admin/clients").status(), "the shared admin token still works");
    }

    // ---- clients -------------------------------------------------------------------------------------------

    @Test
    void rotatingTheSecretInTheConsoleRefusesTheOldOneAtTheTokenEndpoint() {
        Admin.TestUser boss = administrator();
        Admin.TestClient app = admin.confidentialClient("openid", REDIRECT);
        browser.forget(BASE);
        browser.open(BASE + "/admin/console/client.xhtml?id=" + app.clientId());
        browser.signIn(boss.username(), PASSWORD);
        browser.visible("rotate:submit").click();
        String fresh = browser.visible("new-secret").getText();
        assertEquals(43, fresh.length());
        assertFalse(fresh.equals(app.secret()));
        browser.screenshot("console-client-secret-rotated");

        Admin.TestUser u = admin.user(PASSWORD);
        Http.Res old = tokens(app, u, "openid");
        assertEquals(401, old.status(), old::toString);
        assertEquals("invalid_client", old.jsonString("error"));
        Admin.TestClient rotated = new Admin.TestClient(app.clientId(), fresh, app.redirectUri(), app.name());
        assertEquals(200, tokens(rotated, u, "openid").status());
        browser.open(BASE + "/admin/console/client.xhtml?id=" + app.clientId());
        assertTrue(browser.driver().findElements(By.id("new-secret")).isEmpty(), "shown once, never again");
    }

    @Test
    void rotatingWithAnOverlapInTheConsoleKeepsTheOldSecretWorkingUntilTheChosenTime() {
        Admin.TestUser boss = administrator();
        Admin.TestClient app = admin.confidentialClient("openid", REDIRECT);
        browser.forget(BASE);
        browser.open(BASE + "/admin/console/client.xhtml?id=" + app.clientId());
        browser.signIn(boss.username(), PASSWORD);
        assertEquals("client_secret_basic", browser.visible("auth-method").getText());
        new org.openqa.selenium.support.ui.Select(browser.driver().findElement(By.id("overlap")))
                .selectByValue("86400");
        long before = java.time.Instant.now().getEpochSecond();
        browser.visible("rotate:submit").click();
        String fresh = browser.visible("new-secret").getText();
        assertEquals(43, fresh.length());

        Admin.TestUser u = admin.user(PASSWORD);
        assertEquals(200, tokens(app, u, "openid").status(), "the old secret during the overlap");
        Admin.TestClient rotated = new Admin.TestClient(app.clientId(), fresh, app.redirectUri(), app.name());
        assertEquals(200, tokens(rotated, u, "openid").status());
        long until = ((Number) admin.get("/admin/clients/" + app.clientId()).json().get("previous_secret_expires_at"))
                .longValue();
        assertTrue(until >= before + 86_400 && until <= java.time.Instant.now().getEpochSecond() + 86_400,
                "a day from the rotation: " + until);
    }

    @Test
    void aClientIsDeletedOnlyAfterTheConfirmationAndBuiltInClientsCannotBe() {
        Admin.TestUser boss = administrator();
        Admin.TestClient app = admin.confidentialClient("openid", REDIRECT);
        browser.forget(BASE);
        browser.open(BASE + "/admin/console/client.xhtml?id=" + app.clientId());
        browser.signIn(boss.username(), PASSWORD);
        browser.visible("delete:submit").click();
        browser.visible("confirm-delete");
        browser.screenshot("console-client-delete-confirmation");
        assertEquals(200, admin.get("/admin/clients/" + app.clientId()).status(), "the first button deletes nothing");
        browser.visible("confirm:submit").click();
        assertEquals("The application was deleted.", browser.visible("done").getText());
        assertEquals(404, admin.get("/admin/clients/" + app.clientId()).status());

        browser.open(BASE + "/admin/console/client.xhtml?id=portcullis-console");
        browser.visible("built-in");
        assertTrue(browser.driver().findElements(By.id("delete:submit")).isEmpty());
        assertTrue(browser.driver().findElements(By.id("toggle:submit")).isEmpty());
        UserAgent ua = new UserAgent(BASE);
        assertEquals(404, ua.openSignedIn("/admin/console/client.xhtml?id=" + app.clientId(), boss).status());
        assertEquals(409, admin.delete("/admin/clients/portcullis-console").status());
    }

    // ---- users ---------------------------------------------------------------------------------------------

    @Test
    void theUserPageEditsResetsThePasswordAndFactorsUnlocksAndRevokesAGrant() {
        Admin.TestUser boss = administrator();
        Admin.TestUser u = admin.user(PASSWORD);
        Admin.TestClient app = admin.confidentialClient("openid profile", REDIRECT);
        String token = accessToken(app, u);
        failSignIn(u);

        UserAgent ua = new UserAgent(BASE);
        Http.Res page = ua.openSignedIn(userPage(u), boss);
        assertEquals(200, page.status(), page::toString);
        assertTrue(page.body().contains("id=\"grant-" + app.clientId() + "\""), page::body);

        Http.Res saved = press(ua, page, "edit", Map.of("edit:name", "Renamed <b>User</b>", "edit:email",
                "renamed@example.com"));
        assertEquals(303, saved.status(), saved::toString);
        Http.Res shown = ua.follow(saved);
        assertTrue(shown.body().contains("Renamed &lt;b&gt;User&lt;/b&gt;"), shown::body);
        assertEquals("renamed@example.com", admin.get("/admin/users/" + u.username()).jsonString("email"));

        Http.Res revoked = press(ua, shown, formIdOfRow(shown.body(), "grant-" + app.clientId()), Map.of());
        assertEquals(303, revoked.status(), revoked::toString);
        assertEquals(401, http.get("/oauth/userinfo", "Authorization", "Bearer " + token).status(),
                "the revoked grant's access token stops at once");

        Http.Res unlocked = press(ua, ua.get(userPage(u)), "unlock", Map.of());
        assertEquals(303, unlocked.status(), unlocked::toString);
        Http.Res factors = press(ua, ua.get(userPage(u)), "factors", Map.of());
        assertEquals(303, factors.status(), factors::toString);
        assertTrue(ua.follow(factors).body().contains("recovery codes and passkeys were removed"));

        Http.Res reset = press(ua, ua.get(userPage(u)), "password", Map.of());
        assertEquals(200, reset.status(), reset::toString);
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("id=\"generated-password\">([^<]+)<")
                .matcher(reset.body());
        assertTrue(m.find(), reset::body);
        String generated = m.group(1);
        assertEquals(20, generated.length());
        assertFalse(ua.get(userPage(u)).body().contains(generated), "shown once");
        Http.Res withNew = new UserAgent(BASE).openSignedIn("/account/index.xhtml",
                new Admin.TestUser(u.username(), generated, u.userId()));
        assertEquals(200, withNew.status(), "the generated password signs in");

        Http.Res audit = ua.get("/admin/console/audit.xhtml?user=" + u.username());
        // administrative changes name the user by username, their own sign-in by user id: the filter finds both
        for (String type : List.of("USER_UPDATED", "GRANT_REVOKED", "USER_UNLOCKED", "SECOND_FACTORS_RESET",
                "USER_PASSWORD_CHANGED", "SIGN_IN_FAILURE", "SIGN_IN_SUCCESS")) {
            assertTrue(audit.body().contains(">" + type + "<"), type + " in " + audit.body());
        }
        assertTrue(audit.body().contains("user:" + boss.userId()), "audited with the administrator's id");
        assertTrue(audit.body().contains("throttle cleared"), "the failed sign-in had throttled the account");
    }

    @Test
    void theUserPageInTheBrowser() {
        Admin.TestUser boss = administrator();
        Admin.TestUser u = admin.user(PASSWORD);
        new UserAgent(BASE).openSignedIn("/account/index.xhtml", u);
        browser.forget(BASE);
        browser.open(BASE + "/admin/console/users.xhtml?q=" + u.username());
        browser.signIn(boss.username(), PASSWORD);
        browser.visible(By.linkText(u.username())).click();
        assertEquals(u.username(), browser.visible("username").getText());
        assertEquals("Local", browser.visible("source").getText());
        browser.visible("sessions");
        browser.screenshot("console-user");
        browser.visible("toggle:submit").click();
        assertEquals("The user was disabled; their sessions and tokens ended.", browser.visible("done").getText());
        assertEquals("Disabled", browser.visible("state").getText());
        browser.visible("no-sessions");
    }

    // ---- sessions, audit, keys, dashboard ----------------------------------------------------------------------

    @Test
    void anAdministratorEndsASessionOnTheSessionsPage() {
        Admin.TestUser boss = administrator();
        Admin.TestUser u = admin.user(PASSWORD);
        UserAgent users = new UserAgent(BASE);
        assertEquals(200, users.openSignedIn("/account/index.xhtml", u).status());
        Http.Res listed = admin.get("/admin/sessions?user=" + u.username());
        @SuppressWarnings("unchecked")
        String sessionId = (String) ((List<Map<String, Object>>) listed.json().get("sessions")).get(0).get("session_id");

        browser.forget(BASE);
        browser.open(BASE + "/admin/console/sessions.xhtml?user=" + u.username());
        browser.signIn(boss.username(), PASSWORD);
        WebElement row = browser.visible(By.id("session-" + sessionId));
        assertTrue(row.getText().contains(u.username()), row::getText);
        browser.screenshot("console-sessions");
        row.findElement(By.cssSelector("input[type=submit]")).click();
        assertEquals("The session was ended.", browser.visible("done").getText());
        assertEquals(302, users.get("/account/index.xhtml").status(), "the user must sign in again");
    }

    @Test
    void theAuditLogFiltersFindTheEventAndShowValuesEscaped() {
        Admin.TestUser boss = administrator();
        Admin.TestUser u = admin.user(PASSWORD);
        failSignIn(u);
        browser.forget(BASE);
        browser.open(BASE + "/admin/console/audit.xhtml");
        browser.signIn(boss.username(), PASSWORD);
        new org.openqa.selenium.support.ui.Select(browser.visible("type")).selectByValue("SIGN_IN_FAILURE");
        browser.driver().findElement(By.id("user")).sendKeys(u.username());
        browser.driver().findElement(By.id("from")).sendKeys(java.time.LocalDate.now(java.time.ZoneOffset.UTC)
                .toString());
        browser.clickAndWaitForNextPage(browser.driver().findElement(By.id("filter-submit")));
        List<WebElement> rows = browser.visible(By.id("events")).findElements(By.cssSelector("tr.event"));
        assertEquals(1, rows.size());
        assertEquals(u.username(), rows.get(0).findElement(By.className("user")).getText());
        assertEquals("SIGN_IN_FAILURE", rows.get(0).findElement(By.className("type")).getText());
        browser.screenshot("console-audit-filtered");

        UserAgent ua = new UserAgent(BASE);
        ua.openSignedIn("/admin/console/index.xhtml", boss);
        Http.Res none = ua.get("/admin/console/audit.xhtml?type=SIGN_IN_FAILURE&user=" + u.username() + "&to=2000-01-01");
        assertTrue(none.body().contains("id=\"no-events\""), "the time range filters");
        Http.Res escaped = ua.get("/admin/console/audit.xhtml?client=" + Http.enc("<b>x</b>"));
        assertEquals(200, escaped.status());
        assertTrue(escaped.body().contains("&lt;b&gt;x&lt;/b&gt;") && !escaped.body().contains("<b>x</b>"));
        assertEquals(400, ua.get("/admin/console/audit.xhtml?type=NO_SUCH_TYPE").status());
        assertEquals(400, ua.get("/admin/console/audit.xhtml?from=yesterday").status());
    }

    @Test
    void rotatingTheSigningKeysPublishesTheNewKidInTheJwks() {
        Admin.TestUser boss = administrator();
        browser.forget(BASE);
        browser.open(BASE + "/admin/console/keys.xhtml");
        browser.signIn(boss.username(), PASSWORD);
        Set<String> before = browser.visible(By.id("keys")).findElements(By.className("kid")).stream()
                .map(WebElement::getText).collect(Collectors.toSet());
        browser.visible("rotate:submit").click();
        assertEquals("New signing keys were published.", browser.visible("done").getText());
        List<WebElement> rows = browser.visible(By.id("keys")).findElements(By.cssSelector("tr.key"));
        List<String> fresh = rows.stream().filter(r -> !before.contains(r.findElement(By.className("kid")).getText()))
                .map(r -> r.findElement(By.className("kid")).getText()).toList();
        assertFalse(fresh.isEmpty());
        rows.stream().filter(r -> fresh.contains(r.findElement(By.className("kid")).getText()))
                .forEach(r -> assertEquals("next", r.findElement(By.className("state")).getText()));
        browser.screenshot("console-keys-rotated");
        String jwks = http.get("/oauth/discovery/keys").body();
        for (String kid : fresh) {
            assertTrue(jwks.contains("\"" + kid + "\""), kid + " in " + jwks);
        }
    }

    @Test
    void theDashboardCountsAndListsRecentSignInFailures() {
        Admin.TestUser boss = administrator();
        Admin.TestUser u = admin.user(PASSWORD);
        failSignIn(u);
        browser.forget(BASE);
        browser.open(BASE + "/admin/console/index.xhtml");
        browser.signIn(boss.username(), PASSWORD);
        assertTrue(Long.parseLong(browser.visible("count-users").getText()) >= 2);
        assertTrue(Long.parseLong(browser.visible("count-clients").getText()) >= 2, "the built-in clients at least");
        assertTrue(Long.parseLong(browser.visible("count-sessions").getText()) >= 1, "this very session");
        Long.parseLong(browser.visible("count-grants").getText());
        assertTrue(browser.visible("failures").getText().contains(u.username()));
        browser.screenshot("console-dashboard");
    }

    @Test
    void pagesSpeakGerman() {
        Admin.TestUser boss = administrator();
        UserAgent ua = new UserAgent(BASE);
        ua.openSignedIn("/admin/console/index.xhtml", boss);
        Http.Res de = ua.get("/admin/console/keys.xhtml", "Accept-Language", "de-DE");
        assertTrue(de.body().contains("Signaturschlüssel erneuern"), de::body);
        assertTrue(ua.get("/admin/console/sessions.xhtml", "Accept-Language", "de").body().contains("Sitzungen"));
    }
}
