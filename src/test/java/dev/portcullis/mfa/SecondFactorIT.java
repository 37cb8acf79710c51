package dev.portcullis.mfa;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.zxing.BinaryBitmap;
import com.google.zxing.RGBLuminanceSource;
import com.google.zxing.common.HybridBinarizer;
import com.google.zxing.qrcode.QRCodeReader;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.source.ImmutableJWKSet;
import com.nimbusds.jose.proc.JWSVerificationKeySelector;
import com.nimbusds.jose.proc.SecurityContext;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.proc.DefaultJWTProcessor;
import com.sun.net.httpserver.HttpServer;
import dev.portcullis.session.AuthMethods;
import dev.portcullis.testing.Admin;
import dev.portcullis.testing.BrowserSetup;
import dev.portcullis.testing.Db;
import dev.portcullis.testing.Http;
import dev.portcullis.testing.PayaraProcess;
import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.imageio.ImageIO;
import org.bouncycastle.util.encoders.Base32;
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
import org.openqa.selenium.virtualauthenticator.HasVirtualAuthenticator;
import org.openqa.selenium.virtualauthenticator.VirtualAuthenticator;
import org.openqa.selenium.virtualauthenticator.VirtualAuthenticatorOptions;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * Second factors in a real browser (headless Chromium) against a server of its own with
 * {@code portcullis.mfa.required=off}, so that each path is reached by what asks for the factor: the account page's
 * enrolment (QR code decoded here with zxing), a step-up by {@code acr_values}, a client with {@code require_mfa},
 * a replayed code, a recovery code, {@code prompt=login}, enrolment forced at sign-in and the administrator's reset;
 * passkeys through Chromium's virtual authenticator (CTAP2, resident keys, user verification) with
 * {@code portcullis.mfa.passwordless=true}: registered on the account page, as the second step, as a step-up, alone,
 * a sign count that goes backwards, deleted, reset. Every ID token is verified against the JWKS and its
 * {@code amr}/{@code acr} checked.
 */
@Tag("browser")
class SecondFactorIT {

    private static final String PASSWORD = "correct horse battery";
    private static final String VERIFIER = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk";
    private static final String CHALLENGE = "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM";
    private static final String INVALID = "That code is not valid";

    private static PayaraProcess server;
    private static Http http;
    private static Admin admin;
    private static WebDriver driver;
    private static HttpServer callback;
    private static String callbackUri;
    private WebDriverWait wait;

    @BeforeAll
    static void start() throws Exception {
        server = PayaraProcess.start("-Dportcullis.mfa.required=off", "-Dportcullis.mfa.passwordless=true");
        http = server.http();
        admin = new Admin(http, System.getProperty("portcullis.test.admin-token"));
        assertEquals(200, http.get("/health/ready").status(), server::output);
        callback = BrowserSetup.callbackServer();
        callbackUri = BrowserSetup.callbackUri(callback);
        driver = BrowserSetup.chromium();
    }

    @AfterAll
    static void stop() {
        if (driver != null) {
            driver.quit();
        }
        if (callback != null) {
            callback.stop(0);
        }
        if (server != null) {
            server.close();
        }
        Db.update("DELETE FROM login_throttle");
    }

    @BeforeEach
    void freshBrowser() {
        wait = new WebDriverWait(driver, Duration.ofSeconds(30));
        newBrowser();
    }

    private void newBrowser() {
        driver.get(server.base + "/css/portcullis.css");
        driver.manage().deleteAllCookies();
    }

    @Test
    void discoveryPublishesTheLevels() {
        Map<String, Object> d = http.get("/.well-known/openid-configuration").json();
        assertEquals(AuthMethods.ACR_VALUES, d.get("acr_values_supported"));
    }

    /**
     * One user's life with an authenticator: set up on the account page, a password-only sign-in stepped up by
     * acr_values, a client that requires the factor, a replayed code, a recovery code, prompt=login, the reset.
     */
    @Test
    void enrolStepUpReplayRecoveryAndReset() throws Exception {
        Admin.TestUser u = admin.user(PASSWORD);
        Admin.TestClient plain = client(false);
        Admin.TestClient strict = client(true);

        // the account page: sign in (password only: the policy is off), scan, confirm, recovery codes once
        driver.get(server.base + "/account/security.xhtml");
        signIn(u.username());
        String secret = scannedSecret();
        long step = Totp.step(Instant.now());
        submit("security:first-code", "000000".equals(code(secret, step)) ? "111111" : "000000", "security:confirm");
        assertTrue(visible("security:message").getText().contains(INVALID));
        submit("security:first-code", code(secret, step), "security:confirm");
        List<WebElement> recovery = wait.until(d -> {
            List<WebElement> li = d.findElements(By.cssSelector("#recovery-codes li"));
            return li.isEmpty() ? null : li;
        });
        assertEquals(10, recovery.size());
        List<String> recoveryCodes = recovery.stream().map(WebElement::getText).toList();
        driver.get(server.base + "/account/security.xhtml");
        assertTrue(visible("recovery-left").getText().contains("10"));
        assertTrue(driver.findElements(By.id("qr")).isEmpty(), "the seed is never shown again");

        // the same browser: the session holds the password only, which is all this client asks for (policy off)
        driver.get(authorizeUrl(plain));
        JWTClaimsSet pwdOnly = idToken(plain, arrivedWithCode());
        assertEquals(List.of("pwd"), pwdOnly.getStringListClaim("amr"));
        assertEquals(AuthMethods.ACR_PWD, pwdOnly.getStringClaim("acr"));

        // acr_values asks for more than the session has: a step-up without the password; the enrolment's code is
        // used up, a fresh one accepted
        driver.get(authorizeUrl(plain, "acr_values", "urn:example:unknown " + AuthMethods.ACR_MFA));
        submitCode(code(secret, step));
        assertTrue(visible("factor:message").getText().contains(INVALID), "a code is accepted once");
        submitCode(code(secret, Math.max(step + 1, Totp.step(Instant.now()))));
        JWTClaimsSet stepped = idToken(plain, arrivedWithCode());
        assertEquals(List.of("pwd", "otp", "mfa"), stepped.getStringListClaim("amr"));
        assertEquals(AuthMethods.ACR_MFA, stepped.getStringClaim("acr"));
        assertEquals(pwdOnly.getLongClaim("auth_time"), stepped.getLongClaim("auth_time"), "the same sign-in");

        // a new browser, a client that requires the factor: password, then a recovery code (typed in upper case)
        newBrowser();
        driver.get(authorizeUrl(strict));
        signIn(u.username());
        submitCode(recoveryCodes.get(0).toUpperCase());
        assertEquals(List.of("pwd", "otp", "mfa"), idToken(strict, arrivedWithCode()).getStringListClaim("amr"));

        // prompt=login runs every factor again; the used recovery code is refused, another accepted
        driver.get(authorizeUrl(strict, "prompt", "login"));
        signIn(u.username());
        submitCode(recoveryCodes.get(0));
        assertTrue(visible("factor:message").getText().contains(INVALID), "a recovery code is accepted once");
        submitCode(recoveryCodes.get(1));
        JWTClaimsSet again = idToken(strict, arrivedWithCode());
        assertEquals(AuthMethods.ACR_MFA, again.getStringClaim("acr"));
        assertTrue(again.getLongClaim("auth_time") >= stepped.getLongClaim("auth_time"));

        // the administrator resets the factors: the next sign-in for the strict client enrols a new one
        assertEquals(404, admin.delete("/admin/users/nobody-" + System.nanoTime() + "/factors").status());
        assertEquals(204, admin.delete("/admin/users/" + u.username() + "/factors").status());
        assertEquals(1, Db.count("SELECT COUNT(*) FROM audit_events WHERE event_type = 'SECOND_FACTORS_RESET' "
                + "AND subject = ?", u.username()));
        newBrowser();
        driver.get(authorizeUrl(strict));
        signIn(u.username());
        visible("factor:first-code");
        assertFalse(driver.findElements(By.id("qr")).isEmpty());
    }

    /** A user without a factor meets a client that requires one: the sign-in enrols it, then goes on. */
    @Test
    void enrolmentForcedAtSignInThenCodeOnce() throws Exception {
        Admin.TestUser u = admin.user(PASSWORD);
        Admin.TestClient strict = client(true);
        driver.get(authorizeUrl(strict));
        signIn(u.username());
        String secret = scannedSecret();
        long step = Totp.step(Instant.now());
        visible("factor:first-code").sendKeys(code(secret, step));
        driver.findElement(By.id("factor:confirm")).click();
        assertEquals(10, wait.until(d -> {
            List<WebElement> li = d.findElements(By.cssSelector("#recovery-codes li"));
            return li.isEmpty() ? null : li;
        }).size());
        driver.findElement(By.id("factor:proceed")).click();
        JWTClaimsSet id = idToken(strict, arrivedWithCode());
        assertEquals(List.of("pwd", "otp", "mfa"), id.getStringListClaim("amr"));
        assertEquals(AuthMethods.ACR_MFA, id.getStringClaim("acr"));

        // prompt=none cannot step up: a session with the factor passes, a new one with the password alone does not
        newBrowser();
        driver.get(authorizeUrl(strict));
        signIn(u.username());
        visible("factor:code");
        driver.get(authorizeUrl(strict, "prompt", "none"));
        wait.until(ExpectedConditions.urlContains(callbackUri));
        assertEquals("login_required", Http.query(driver.getCurrentUrl()).get("error"));

        // wrong codes count in the password throttle: they lock the account (attempts during the growing delays
        // are refused uncounted), then even the right code and the right password are refused
        driver.get(authorizeUrl(strict));
        String wrong = wrongCode(secret);
        String message = "";
        for (int i = 0; i < 30 && !message.contains("blocked"); i++) {
            submitCode(wrong);
            message = visible("factor:message").getText();
            assertTrue(message.contains(INVALID) || message.contains("Too many"), message);
        }
        assertTrue(message.contains("Sign-in is blocked for a while"), message);
        submitCode(code(secret, Totp.step(Instant.now()) + 1));
        assertTrue(visible("factor:message").getText().contains("blocked"));
        newBrowser();
        driver.get(authorizeUrl(strict));
        signIn(u.username());
        assertTrue(visible("login:message").getText().contains("blocked"));
    }

    /**
     * A user's life with a passkey: registered (named) on the account page, used as a step-up by acr_values and as
     * the second step a client requires, then alone (passwordless, user verified); a sign count lower than the
     * stored one is refused and audited; deleted on the account page; registered again and reset by the
     * administrator; and registered instead of an app by a user who must set up a factor at sign-in.
     */
    @Test
    void passkeyRegisteredUsedAsSecondFactorStepUpAndAloneThenDeletedAndReset() throws Exception {
        Admin.TestUser u = admin.user(PASSWORD);
        Admin.TestClient plain = client(false);
        Admin.TestClient strict = client(true);
        VirtualAuthenticator authenticator = ((HasVirtualAuthenticator) driver).addVirtualAuthenticator(
                new VirtualAuthenticatorOptions().setProtocol(VirtualAuthenticatorOptions.Protocol.CTAP2)
                        .setTransport(VirtualAuthenticatorOptions.Transport.INTERNAL).setHasResidentKey(true)
                        .setHasUserVerification(true).setIsUserVerified(true).setIsUserConsenting(true));
        try {
            String userId = u.userId();

            // register on the account page (signed in with the password only: the policy is off)
            driver.get(server.base + "/account/security.xhtml");
            signIn(u.username());
            visible("passkeys:name").sendKeys("  Laptop ");
            visible("add-passkey").click();
            assertTrue(visible("passkey-done").getText().contains("added"), driver.getPageSource());
            assertEquals("Laptop", driver.findElement(By.cssSelector("#passkey-list .passkey-name")).getText());
            assertEquals("—", driver.findElement(By.cssSelector("#passkey-list .passkey-last-used")).getText());
            assertEquals(1, authenticator.getCredentials().size());
            assertTrue(authenticator.getCredentials().get(0).isResidentCredential(), "a discoverable credential");
            assertEquals(1, Db.count("SELECT COUNT(*) FROM webauthn_credentials WHERE user_id = ?", userId));
            screenshot("account-passkeys");
            driver.findElement(By.cssSelector("#passkey-list input[type=submit]")).click();
            assertTrue(visible("passkey-message").getText().contains("second factor"),
                    "the password alone deletes none");
            assertEquals(1, Db.count("SELECT COUNT(*) FROM webauthn_credentials WHERE user_id = ?", userId));

            // step-up by acr_values: the passkey, not the password again
            driver.get(authorizeUrl(plain, "acr_values", AuthMethods.ACR_MFA));
            assertTrue(driver.findElements(By.id("factor:code")).isEmpty(), "no code field without an app");
            visible("passkey-start").click();
            JWTClaimsSet stepped = idToken(plain, arrivedWithCode());
            assertEquals(List.of("pwd", "hwk", "mfa"), stepped.getStringListClaim("amr"));
            assertEquals(AuthMethods.ACR_MFA, stepped.getStringClaim("acr"));

            // a new browser, a client that requires the factor: password, then the passkey
            newBrowser();
            driver.get(authorizeUrl(strict));
            signIn(u.username());
            screenshot("factor-passkey");
            visible("passkey-start").click();
            assertEquals(List.of("pwd", "hwk", "mfa"), idToken(strict, arrivedWithCode()).getStringListClaim("amr"));

            // passwordless: the login page offers the passkey; user verification makes it two factors
            newBrowser();
            driver.get(authorizeUrl(strict));
            screenshot("login-passkey");
            visible("passkey-sign-in").click();
            JWTClaimsSet alone = idToken(strict, arrivedWithCode());
            assertEquals(List.of("hwk", "user", "mfa"), alone.getStringListClaim("amr"));
            assertEquals(AuthMethods.ACR_MFA, alone.getStringClaim("acr"));
            assertEquals(1, Db.count("SELECT COUNT(*) FROM audit_events WHERE event_type = 'SIGN_IN_SUCCESS' "
                    + "AND subject = ? AND detail LIKE 'passkey%'", userId));

            // a counter below the stored one (a cloned authenticator) is refused and audited
            Db.update("UPDATE webauthn_credentials SET sign_count = 1000000 WHERE user_id = ?", userId);
            newBrowser();
            driver.get(authorizeUrl(strict));
            signIn(u.username());
            visible("passkey-start").click();
            assertTrue(visible("factor:message").getText().contains("could not be verified"));
            assertEquals(1, Db.count("SELECT COUNT(*) FROM audit_events WHERE event_type = 'SECOND_FACTOR_FAILURE' "
                    + "AND subject = ? AND detail LIKE '%sign count%'", userId));
            Db.update("UPDATE webauthn_credentials SET sign_count = 0 WHERE user_id = ?", userId);
            Db.update("DELETE FROM login_throttle");
            visible("passkey-start").click();
            arrivedWithCode();

            // deleted on the account page (the session has the passkey, so the gate lets it in)
            driver.get(server.base + "/account/security.xhtml");
            assertFalse(visible("passkey-list").findElement(By.cssSelector(".passkey-last-used")).getText()
                    .equals("—"), "its last use is shown");
            driver.findElement(By.cssSelector("#passkey-list input[type=submit]")).click();
            WebElement deleted = visible("passkey-done");
            assertTrue(deleted.getText().contains("deleted"));
            assertEquals(0, Db.count("SELECT COUNT(*) FROM webauthn_credentials WHERE user_id = ?", userId));

            // registered again, then reset by the administrator with the other factors; the notice of the deletion
            // stays on screen until the registration's page replaces it, so only the new page's notice is read
            authenticator.removeAllCredentials();
            visible("add-passkey").click();
            wait.until(ExpectedConditions.stalenessOf(deleted));
            assertTrue(visible("passkey-done").getText().contains("added"));
            assertEquals(204, admin.delete("/admin/users/" + u.username() + "/factors").status());
            assertEquals(0, Db.count("SELECT COUNT(*) FROM webauthn_credentials WHERE user_id = ?", userId));
            assertEquals(1, Db.count("SELECT COUNT(*) FROM audit_events WHERE event_type = 'SECOND_FACTORS_RESET' "
                    + "AND subject = ? AND detail LIKE '%1 passkey(s) removed%'", u.username()));

            // a user without any factor meets the strict client: a passkey instead of an app satisfies it
            Admin.TestUser fresh = admin.user(PASSWORD);
            newBrowser();
            driver.get(authorizeUrl(strict));
            signIn(fresh.username());
            visible("factor:first-code");
            visible("add-passkey").click();
            JWTClaimsSet enrolled = idToken(strict, arrivedWithCode());
            assertEquals(List.of("pwd", "hwk", "mfa"), enrolled.getStringListClaim("amr"));
            assertEquals(1, Db.count("SELECT COUNT(*) FROM webauthn_credentials WHERE user_id = ?", fresh.userId()));
        } finally {
            ((HasVirtualAuthenticator) driver).removeVirtualAuthenticator(authenticator);
        }
    }

    // ---- helpers ----

    private void screenshot(String name) throws Exception {
        Path dir = Path.of("target", "screenshots");
        Files.createDirectories(dir);
        Files.write(dir.resolve(name + ".png"), ((TakesScreenshot) driver).getScreenshotAs(OutputType.BYTES));
    }

    private Admin.TestClient client(boolean requireMfa) {
        String name = "MFA app " + Long.toHexString(System.nanoTime());
        Http.Res r = admin.post("/admin/clients", "{\"client_name\":" + Http.q(name) + ",\"redirect_uris\":["
                + Http.q("http://127.0.0.1/cb") + "],\"confidential\":false,\"scopes\":\"openid profile\","
                + "\"skip_consent\":true,\"require_mfa\":" + requireMfa + "}");
        assertEquals(201, r.status(), r::toString);
        assertEquals(requireMfa, r.json().get("require_mfa"));
        return new Admin.TestClient(r.jsonString("client_id"), null, "http://127.0.0.1/cb", name);
    }

    private String authorizeUrl(Admin.TestClient c, String... extra) {
        Map<String, String> p = new LinkedHashMap<>();
        p.put("client_id", c.clientId());
        p.put("redirect_uri", callbackUri);
        p.put("response_type", "code");
        p.put("scope", "openid profile");
        p.put("state", "s");
        p.put("nonce", "n");
        p.put("code_challenge", CHALLENGE);
        p.put("code_challenge_method", "S256");
        for (int i = 0; i < extra.length; i += 2) {
            p.put(extra[i], extra[i + 1]);
        }
        return server.base + "/oauth/authorize?" + Http.form(p);
    }

    private WebElement visible(String id) {
        return wait.until(ExpectedConditions.visibilityOfElementLocated(By.id(id)));
    }

    /** Types a code on the factor page and submits it; returns once the answer's page has replaced this one. */
    private void submitCode(String code) {
        submit("factor:code", code, "factor:submit");
    }

    /**
     * Types {@code value} into a form field and presses the button; returns once the answer's page has replaced this
     * one, so what is read next (a message, the next field) is the answer's and never this page's.
     */
    private void submit(String fieldId, String value, String buttonId) {
        WebElement field = visible(fieldId);
        field.sendKeys(value);
        driver.findElement(By.id(buttonId)).click();
        wait.until(ExpectedConditions.stalenessOf(field));
    }

    private void signIn(String username) {
        visible("login:username").sendKeys(username);
        driver.findElement(By.id("login:password")).sendKeys(PASSWORD);
        driver.findElement(By.id("login:submit")).click();
    }

    /** Decodes the page's QR code as an authenticator app would and returns the seed of its otpauth URI. */
    private String scannedSecret() throws Exception {
        String src = visible("qr").getAttribute("src");
        assertTrue(src.startsWith("data:image/png;base64,"), src);
        BufferedImage img = ImageIO.read(new ByteArrayInputStream(
                Base64.getDecoder().decode(src.substring("data:image/png;base64,".length()))));
        int[] pixels = img.getRGB(0, 0, img.getWidth(), img.getHeight(), null, 0, img.getWidth());
        String uri = new QRCodeReader().decode(new BinaryBitmap(new HybridBinarizer(
                new RGBLuminanceSource(img.getWidth(), img.getHeight(), pixels)))).getText();
        assertTrue(uri.startsWith("otpauth://totp/"), uri);
        String secret = Http.query(uri).get("secret");
        assertEquals(20, Base32.decode(secret).length);
        assertEquals(secret, driver.findElement(By.id("manual-key")).getText().replace(" ", ""));
        return secret;
    }

    /** A code of none of the steps the server accepts now. */
    private static String wrongCode(String base32Secret) {
        long now = Totp.step(Instant.now());
        for (int n = 0; ; n++) {
            String candidate = String.format("%06d", n);
            if (!candidate.equals(code(base32Secret, now - 1)) && !candidate.equals(code(base32Secret, now))
                    && !candidate.equals(code(base32Secret, now + 1)) && !candidate.equals(code(base32Secret, now + 2))) {
                return candidate;
            }
        }
    }

    private static String code(String base32Secret, long step) {
        return Totp.code(Base32.decode(base32Secret), step, "HmacSHA1", Totp.DIGITS);
    }

    private String arrivedWithCode() {
        wait.until(ExpectedConditions.urlContains(callbackUri));
        Map<String, String> q = Http.query(driver.getCurrentUrl());
        assertNotNull(q.get("code"), driver.getCurrentUrl());
        return q.get("code");
    }

    /** Redeems the code and returns the ID token's claims, its signature verified against the JWKS. */
    private JWTClaimsSet idToken(Admin.TestClient c, String code) throws Exception {
        Http.Res t = http.postForm("/oauth/token", Map.of("grant_type", "authorization_code", "code", code,
                "redirect_uri", callbackUri, "client_id", c.clientId(), "code_verifier", VERIFIER));
        assertEquals(200, t.status(), t::toString);
        DefaultJWTProcessor<SecurityContext> p = new DefaultJWTProcessor<>();
        p.setJWSKeySelector(new JWSVerificationKeySelector<>(JWSAlgorithm.RS256,
                new ImmutableJWKSet<>(JWKSet.parse(http.get("/oauth/discovery/keys").body()))));
        JWTClaimsSet claims = p.process(t.jsonString("id_token"), null);
        assertEquals(server.base, claims.getIssuer());
        return claims;
    }
}
