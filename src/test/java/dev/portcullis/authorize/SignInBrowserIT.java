package dev.portcullis.authorize;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import dev.portcullis.testing.Admin;
import dev.portcullis.testing.ApacheHttpd;
import dev.portcullis.testing.BrowserSetup;
import dev.portcullis.testing.Http;
import dev.portcullis.testing.ServerTestBase;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The sign-in and consent pages in a real browser ({@link BrowserSetup}). The client is a public client with a
 * loopback redirect URI; the callback server plays the client, so the browser really arrives there. Screenshots of the
 * login, consent and error pages go to target/screenshots/.
 */
@Tag("browser")
class SignInBrowserIT extends ServerTestBase {

    private static final String PASSWORD = "correct horse battery";
    private static final String CHALLENGE = "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM";
    private static final Path SCREENSHOTS = Path.of("target", "screenshots");

    private static WebDriver driver;
    private static HttpServer callback;
    private static String callbackUri;

    private final Admin admin = admin();
    private WebDriverWait wait;

    @BeforeAll
    static void startBrowserAndCallback() throws IOException {
        callback = BrowserSetup.callbackServer();
        callbackUri = BrowserSetup.callbackUri(callback);
        driver = BrowserSetup.chromium();
        Files.createDirectories(SCREENSHOTS);
    }

    @AfterAll
    static void stop() {
        if (driver != null) {
            driver.quit();
        }
        if (callback != null) {
            callback.stop(0);
        }
    }

    @BeforeEach
    void freshBrowser() {
        wait = new WebDriverWait(driver, Duration.ofSeconds(20));
        driver.get(BASE + "/css/portcullis.css");
        driver.manage().deleteAllCookies();
    }

    private Admin.TestClient client() {
        return admin.publicClient("openid profile email", "http://127.0.0.1/cb");
    }

    private String authorizeUrl(Admin.TestClient c, String... extra) {
        Map<String, String> p = new LinkedHashMap<>();
        p.put("client_id", c.clientId());
        p.put("redirect_uri", callbackUri);
        p.put("response_type", "code");
        p.put("scope", "openid profile");
        p.put("state", "browser-state");
        p.put("code_challenge", CHALLENGE);
        p.put("code_challenge_method", "S256");
        for (int i = 0; i < extra.length; i += 2) {
            p.put(extra[i], extra[i + 1]);
        }
        return BASE + "/oauth/authorize?" + Http.form(p);
    }

    private WebElement visible(String id) {
        return wait.until(ExpectedConditions.visibilityOfElementLocated(By.id(id)));
    }

    private void signIn(String username, String password) {
        WebElement user = visible("login:username");
        user.clear();
        user.sendKeys(username);
        driver.findElement(By.id("login:password")).sendKeys(password);
        driver.findElement(By.id("login:submit")).click();
    }

    /** Waits until the browser is at the client's callback and returns the query parameters. */
    private Map<String, String> arrivedAtClient() {
        wait.until(ExpectedConditions.urlContains(callbackUri));
        visible("callback");
        return Http.query(driver.getCurrentUrl());
    }

    private static void screenshot(String name) throws IOException {
        File f = ((TakesScreenshot) driver).getScreenshotAs(OutputType.FILE);
        Files.copy(f.toPath(), SCREENSHOTS.resolve(name + ".png"), StandardCopyOption.REPLACE_EXISTING);
    }

    @Test
    void signInConsentThenRedirectedWithCodeAndSecondTimeNoLogin() throws IOException {
        Admin.TestClient c = client();
        Admin.TestUser u = admin.user(PASSWORD);
        driver.get(authorizeUrl(c));
        visible("login:username");
        assertTrue(driver.findElement(By.id("lead")).getText().contains(c.name()));
        screenshot("login");

        signIn(u.username(), "not the password");
        WebElement message = visible("login:message");
        assertEquals("Invalid username or password.", message.getText());
        assertEquals(u.username(), driver.findElement(By.id("login:username")).getAttribute("value"));
        assertEquals("", driver.findElement(By.id("login:password")).getAttribute("value"));
        screenshot("login-wrong-password");

        driver.findElement(By.id("login:password")).sendKeys(PASSWORD);
        driver.findElement(By.id("login:submit")).click();
        visible("consent:allow");
        assertTrue(driver.findElement(By.id("scopes")).getText().contains("See your name, username and profile details"));
        screenshot("consent");
        driver.findElement(By.id("consent:allow")).click();

        Map<String, String> q = arrivedAtClient();
        assertNotNull(q.get("code"));
        assertEquals("browser-state", q.get("state"));
        assertEquals(BASE, q.get("iss"));
        assertNull(driver.manage().getCookieNamed("JSESSIONID"));

        // second authorization: the SSO session and the remembered consent skip both pages
        driver.get(authorizeUrl(c, "state", "second"));
        Map<String, String> again = arrivedAtClient();
        assertNotNull(again.get("code"));
        assertEquals("second", again.get("state"));
    }

    @Test
    void denyingConsentSendsAccessDenied() {
        Admin.TestClient c = client();
        Admin.TestUser u = admin.user(PASSWORD);
        driver.get(authorizeUrl(c));
        signIn(u.username(), PASSWORD);
        visible("consent:deny").click();
        Map<String, String> q = arrivedAtClient();
        assertEquals("access_denied", q.get("error"));
        assertEquals("browser-state", q.get("state"));
        assertNull(q.get("code"));
    }

    @Test
    void germanPagesWithUiLocales() throws IOException {
        Admin.TestClient c = client();
        Admin.TestUser u = admin.user(PASSWORD);
        driver.get(authorizeUrl(c, "ui_locales", "de"));
        visible("login:username");
        assertEquals("Anmelden", driver.findElement(By.tagName("h1")).getText());
        assertTrue(driver.findElement(By.cssSelector("label[for='login:password']")).getText().contains("Passwort"));
        screenshot("login-de");
        signIn(u.username(), "falsch");
        assertEquals("Benutzername oder Passwort ist falsch.", visible("login:message").getText());
        driver.findElement(By.id("login:password")).sendKeys(PASSWORD);
        driver.findElement(By.id("login:submit")).click();
        assertEquals("Erlauben", visible("consent:allow").getAttribute("value"));
        screenshot("consent-de");
    }

    @Test
    void unknownClientShowsTheErrorPage() throws IOException {
        Admin.TestClient c = client();
        driver.get(authorizeUrl(c).replace("client_id=" + c.clientId(), "client_id=unknown-app"));
        WebElement message = visible("error-message");
        assertTrue(message.getText().contains("not registered with this sign-in service"), message.getText());
        screenshot("error-unknown-client");
        driver.get(authorizeUrl(c).replace(Http.enc(callbackUri), Http.enc("https://evil.example.com/cb")));
        assertTrue(visible("error-message").getText().contains("not registered for it"));
        screenshot("error-redirect-uri");
    }

    @Test
    void formPostCarriesTheResponseToTheClientInAPostThatTheBrowserSubmits() throws IOException {
        Admin.TestClient c = client();
        Admin.TestUser u = admin.user(PASSWORD);
        driver.get(authorizeUrl(c, "response_mode", "form_post"));
        signIn(u.username(), PASSWORD);
        visible("consent:allow").click();
        visible("callback");
        assertEquals(callbackUri, driver.getCurrentUrl(), "posted to the bare redirect URI, nothing in its query");
        Map<String, String> posted = Http.query("?" + visible("posted").getText());
        assertNotNull(posted.get("code"), posted::toString);
        assertEquals("browser-state", posted.get("state"));
        assertEquals(BASE, posted.get("iss"));
        screenshot("form-post-arrived");

        // the session's second request goes straight from the endpoint's page to the client, errors alike
        driver.get(authorizeUrl(c, "response_mode", "form_post", "state", "second", "prompt", "none",
                "scope", "openid email"));
        visible("callback");
        Map<String, String> error = Http.query("?" + visible("posted").getText());
        assertEquals("consent_required", error.get("error"));
        assertEquals("second", error.get("state"));
    }

    /**
     * A relying party nobody here wrote, set to form_post: Apache's mod_auth_openidc ({@code OIDCResponseMode
     * form_post}) on localhost, the site of the server under test, signs its user in through the login page.
     */
    @Test
    void apacheWithResponseModeFormPostSignsItsUserIn() {
        ApacheHttpd.Site site = ApacheHttpd.site("localhost");
        Http.Res r = admin.post("/admin/clients", "{\"client_name\":\"Apache form_post\",\"redirect_uris\":["
                + Http.q(site.redirectUri()) + "],\"confidential\":true,\"scopes\":\"openid profile\","
                + "\"skip_consent\":true}");
        assertEquals(201, r.status(), r::toString);
        site = new ApacheHttpd.Site(site.host(), site.port(), r.jsonString("client_id"), r.jsonString("client_secret"),
                "form_post");
        Admin.TestUser u = admin.user(PASSWORD);
        try (ApacheHttpd apache = ApacheHttpd.start(BASE, List.of(site))) {
            driver.get(site.protectedPage());
            signIn(u.username(), PASSWORD);
            WebElement who = visible("who");
            assertEquals(u.username(), who.getText(), () -> apache.log("error.log"));
            assertEquals(1, apache.accessLogCount(l -> l.contains("\"POST /protected/redirect_uri ")
                    && l.endsWith(" 302")), () -> String.join("\n", apache.accessLog()));
        }
    }
}
