package dev.portcullis.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.portcullis.testing.Admin;
import dev.portcullis.testing.Browser;
import dev.portcullis.testing.CodeFixture;
import dev.portcullis.testing.Http;
import dev.portcullis.testing.PortcullisIT;
import dev.portcullis.testing.UserAgent;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;

/**
 * The admin console at {@code /admin/console/}: signed in through Portcullis's own login page as the built-in client
 * {@code portcullis-console}; only users with the admin role get past the gate (403 on every page for everybody
 * else); an administrator registers a client, edits its redirect URI, and disables a user.
 */
@Tag("browser")
class ConsoleIT extends PortcullisIT {

    private static final String PASSWORD = "correct horse battery";
    /** Every console page, as a browser would open it. */
    static final List<String> PAGES = List.of("/admin/console/index.xhtml", "/admin/console/users.xhtml",
            "/admin/console/users.xhtml?q=a", "/admin/console/clients.xhtml", "/admin/console/client.xhtml?id=x");

    private static Browser browser;

    private final Admin admin = admin();
    private final Http http = http();

    @BeforeAll
    static void startBrowser() {
        browser = new Browser("en-US");
    }

    @AfterAll
    static void stopBrowser() {
        if (browser != null) {
            browser.close();
        }
    }

    private Admin.TestUser administrator() {
        Admin.TestUser u = admin.user(PASSWORD);
        Http.Res r = admin.patch("/admin/users/" + u.username(), "{\"roles\":[\"admin\"]}");
        assertEquals(200, r.status(), r::toString);
        return u;
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
        Http.Res post = ua.http().postForm("/admin/console/users.xhtml", Map.of("toggle:submit", "Disable",
                "username", u.username(), "enable", "false", "jakarta.faces.ViewState", "stateless"));
        assertEquals(403, post.status());
        assertEquals(200, ua.get("/account/index.xhtml").status()); // the same user's account page is open
    }

    @Test
    void adminRegistersAClientEditsItsRedirectUriAndAUserSignsInToIt() {
        Admin.TestUser boss = administrator();
        browser.forget(BASE);
        browser.open(BASE + "/admin/console/clients.xhtml");
        browser.signIn(boss.username(), PASSWORD);
        browser.visible("create:name").sendKeys("Console-made app");
        browser.driver().findElement(By.id("create:redirectUris")).sendKeys("https://first.example/cb");
        browser.driver().findElement(By.id("create:submit")).click();
        String clientId = browser.visible("created-id").getText();
        String secret = browser.driver().findElement(By.id("created-secret")).getText();
        assertEquals(43, secret.length());
        browser.screenshot("console-client-created");

        browser.driver().findElement(By.cssSelector("#client-" + clientId + " a")).click();
        WebElement uris = browser.visible("edit:redirectUris");
        uris.clear();
        uris.sendKeys("https://second.example/cb");
        browser.driver().findElement(By.id("edit:submit")).click();
        assertEquals("Saved.", browser.visible("done").getText());
        assertEquals("https://second.example/cb", browser.visible("edit:redirectUris").getAttribute("value"));
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

    /** The id of the first form after the element with id {@code rowId}. */
    static String formIdOfRow(String html, String rowId) {
        int row = html.indexOf("id=\"" + rowId + "\"");
        assertTrue(row > 0, html);
        int form = html.indexOf("<form id=\"", row);
        return html.substring(form + 10, html.indexOf('"', form + 10));
    }
}
