package dev.portcullis.accountpage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.portcullis.testing.Admin;
import dev.portcullis.testing.CodeFixture;
import dev.portcullis.testing.Http;
import dev.portcullis.testing.OwnPagesTestBase;
import dev.portcullis.testing.UserAgent;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;

/**
 * The account page at {@code /account/}: Portcullis's own relying party. A browser without a session signs in
 * through the ordinary authorization endpoint as the built-in client {@code portcullis-account} and comes back to
 * the page it asked for; there the user sees their profile and applications, withdraws one (its access token stops
 * working at once) and changes their password.
 */
class AccountPageIT extends OwnPagesTestBase {

    private static final String REDIRECT = "https://app.example/cb";

    /** An access token of a confidential client for the user, through a stored code. */
    private String accessToken(Admin.TestClient c, Admin.TestUser u) {
        String code = CodeFixture.issue(c.clientId(), u.userId(), REDIRECT, "openid profile", null, null);
        Map<String, String> f = new LinkedHashMap<>(Map.of("grant_type", "authorization_code", "code", code,
                "redirect_uri", REDIRECT, "client_id", c.clientId(), "client_secret", c.secret()));
        Http.Res r = http.postForm("/oauth/token", f);
        assertEquals(200, r.status(), r::toString);
        return r.jsonString("access_token");
    }

    private int userinfo(String token) {
        return http.get("/oauth/userinfo", "Authorization", "Bearer " + token).status();
    }

    @Test
    void anonymousBrowserSignsInAsTheBuiltInClientAndComesBack() {
        Admin.TestUser u = admin.user(PASSWORD);
        UserAgent ua = new UserAgent(BASE);
        Http.Res root = ua.get("/account/");
        assertEquals(302, root.status());
        assertEquals(BASE + "/account/index.xhtml", root.header("Location"));
        Http.Res gate = ua.follow(root);
        assertEquals(302, gate.status());
        assertEquals("no-store", gate.header("Cache-Control"));
        Map<String, String> q = Http.query(gate.header("Location"));
        assertEquals("portcullis-account", q.get("client_id"));
        assertEquals(BASE + "/account/callback", q.get("redirect_uri"));
        assertEquals("S256", q.get("code_challenge_method"));

        Http.Res page = ua.openSignedIn("/account/index.xhtml", u);
        assertEquals(200, page.status(), page::toString);
        assertEquals("no-store", page.header("Cache-Control"));
        assertTrue(page.body().contains(u.username()), page::body);
        assertFalse(ua.cookie("JSESSIONID").isPresent());
    }

    @Test
    void callbackWithoutTheBrowsersSignInIsRefused() {
        UserAgent ua = new UserAgent(BASE);
        Http.Res r = ua.get("/account/callback?code=x.y&state=forged");
        assertEquals(400, r.status());
        assertEquals("no-store", r.header("Cache-Control"));
        assertTrue(r.body().contains("id=\"error-page\""), r::body);
    }

    @Test
    void userSeesProfileRevokesAnApplicationAndItsTokenIsRejected() {
        Admin.TestUser u = admin.user(PASSWORD);
        Admin.TestClient app = admin.confidentialClient("openid profile", REDIRECT);
        String token = accessToken(app, u);
        assertEquals(200, userinfo(token));

        browser.forget(BASE);
        browser.open(BASE + "/account/");
        browser.signIn(u.username(), PASSWORD);
        assertEquals(u.username(), browser.visible("profile-username").getText());
        assertEquals("Test " + u.username(), browser.driver().findElement(By.id("profile-name")).getText());
        assertEquals(u.username() + "@example.com", browser.driver().findElement(By.id("profile-email")).getText());
        assertTrue(browser.visible("app-" + app.clientId()).getText().contains(app.name()));
        browser.screenshot("account-page");

        browser.driver().findElement(By.cssSelector("#app-" + app.clientId() + " input[type=submit]")).click();
        assertEquals("The application's access was withdrawn; its tokens no longer work.",
                browser.visible("done").getText());
        assertTrue(browser.driver().findElements(By.id("app-" + app.clientId())).isEmpty());
        browser.screenshot("account-page-revoked");
        assertEquals(401, userinfo(token));
    }

    @Test
    void formsWithoutTheBrowsersCsrfTokenChangeNothing() {
        Admin.TestUser u = admin.user(PASSWORD);
        Admin.TestClient app = admin.confidentialClient("openid profile", REDIRECT);
        String token = accessToken(app, u);
        UserAgent ua = new UserAgent(BASE);
        Http.Res page = ua.openSignedIn("/account/index.xhtml", u);
        String form = formIdOfRow(page.body(), "app-" + app.clientId());
        Map<String, String> f = UserAgent.formFields(page.body(), form);
        f.put("client", app.clientId());
        f.put("csrf", "forged");
        f.put(form + ":submit", "Withdraw access");
        Http.Res r = ua.submit(page.body(), form, f);
        assertEquals(403, r.status(), r::toString);
        assertEquals(200, userinfo(token));
    }

    @Test
    void passwordChangeNeedsTheCurrentPasswordEndsOtherSessionsAndKeepsThisOne() {
        Admin.TestUser u = admin.user(PASSWORD);
        UserAgent elsewhere = new UserAgent(BASE);
        assertEquals(200, elsewhere.openSignedIn("/account/index.xhtml", u).status());
        UserAgent ua = new UserAgent(BASE);
        Http.Res page = ua.openSignedIn("/account/index.xhtml", u);
        String before = ua.cookie("portcullis_session").orElseThrow();

        Http.Res wrong = changePassword(ua, page, "not the password", "a new password 1", "a new password 1");
        assertEquals(400, wrong.status());
        assertTrue(wrong.body().contains("The current password is not right."), wrong::body);
        Http.Res differ = changePassword(ua, page, PASSWORD, "a new password 1", "a new password 2");
        assertEquals(400, differ.status());

        Http.Res done = changePassword(ua, page, PASSWORD, "a new password 1", "a new password 1");
        assertEquals(303, done.status(), done::toString);
        assertNotEquals(before, ua.cookie("portcullis_session").orElseThrow());
        Http.Res after = ua.follow(done);
        assertEquals(200, after.status());
        assertTrue(after.body().contains("Your password was changed."), after::body);
        assertEquals(302, elsewhere.get("/account/index.xhtml").status()); // its session ended
        UserAgent fresh = new UserAgent(BASE);
        Admin.TestUser changed = new Admin.TestUser(u.username(), "a new password 1", u.userId());
        assertEquals(200, fresh.openSignedIn("/account/index.xhtml", changed).status());
    }

    @Test
    void userSeesTheirSessionsEndsOneAndThenAllOthers() {
        Admin.TestUser u = admin.user(PASSWORD);
        UserAgent phone = new UserAgent(BASE);
        UserAgent tablet = new UserAgent(BASE);
        phone.openSignedIn("/account/index.xhtml", u);
        tablet.openSignedIn("/account/index.xhtml", u);
        UserAgent ua = new UserAgent(BASE);
        Http.Res page = ua.openSignedIn("/account/index.xhtml", u);
        assertEquals(3, page.body().split("id=\"session-").length - 1, page::body);
        assertTrue(page.body().contains("This browser"));
        assertTrue(page.body().contains("Portcullis account"));

        String phoneRow = page.body().substring(page.body().indexOf("id=\"session-") + 12);
        String phoneId = phoneRow.substring(0, phoneRow.indexOf('"'));
        String form = formIdOfRow(page.body(), "session-" + phoneId);
        Map<String, String> f = UserAgent.formFields(page.body(), form);
        f.put(form + ":submit", "Sign out there");
        Http.Res ended = ua.submit(page.body(), form, f);
        assertEquals(303, ended.status(), ended::toString);
        assertEquals(302, phone.get("/account/index.xhtml").status()); // the first session, the phone's, ended
        assertEquals(200, tablet.get("/account/index.xhtml").status());

        page = ua.follow(ended);
        assertTrue(page.body().contains("The session was ended."));
        Map<String, String> all = UserAgent.formFields(page.body(), "others");
        all.put("others:submit", "Sign out everywhere else");
        assertEquals(303, ua.submit(page.body(), "others", all).status());
        assertEquals(302, tablet.get("/account/index.xhtml").status());
        Http.Res mine = ua.get("/account/index.xhtml");
        assertEquals(200, mine.status());
        assertEquals(1, mine.body().split("id=\"session-").length - 1);
    }

    @Test
    void germanBrowsersGetTheGermanPage() {
        Admin.TestUser u = admin.user(PASSWORD);
        UserAgent ua = new UserAgent(BASE);
        Http.Res page = ua.openSignedIn("/account/index.xhtml", u);
        Http.Res de = ua.get("/account/index.xhtml", "Accept-Language", "de-DE,de;q=0.9");
        assertTrue(page.body().contains("Your account"));
        assertTrue(de.body().contains("Ihr Konto"), de::body);
        assertTrue(de.body().contains("lang=\"de\""));
    }

    private static Http.Res changePassword(UserAgent ua, Http.Res page, String current, String fresh, String repeat) {
        Map<String, String> f = UserAgent.formFields(page.body(), "password");
        f.put("password:current", current);
        f.put("password:new", fresh);
        f.put("password:repeat", repeat);
        f.put("password:submit", "Change password");
        return ua.submit(page.body(), "password", f);
    }
}
