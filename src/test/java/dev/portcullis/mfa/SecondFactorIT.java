package dev.portcullis.mfa;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.zxing.BinaryBitmap;
import com.google.zxing.DecodeHintType;
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
import dev.portcullis.session.BrowserCookies;
import dev.portcullis.testing.Admin;
import dev.portcullis.testing.BrowserSetup;
import dev.portcullis.testing.ClassServer;
import dev.portcullis.testing.Concurrently;
import dev.portcullis.testing.Db;
import dev.portcullis.testing.Http;
import dev.portcullis.testing.SoftAuthenticator;
import dev.portcullis.testing.UserAgent;
import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.imageio.ImageIO;
import org.bouncycastle.util.encoders.Base32;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.openqa.selenium.By;
import org.openqa.selenium.NoSuchElementException;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebDriverException;
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
class SecondFactorIT {

    private static final String PASSWORD = "correct horse battery";
    private static final String VERIFIER = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk";
    private static final String CHALLENGE = "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM";
    private static final String INVALID = "That code is not valid";
    private static final String FACTOR_LOCKED = "The second step of this account is blocked";

    private static ClassServer server;
    private static Http http;
    private static Admin admin;
    private static WebDriver driver;
    private static HttpServer callback;
    private static String callbackUri;
    private WebDriverWait wait;

    @BeforeAll
    static void start() throws Exception {
        // no slow-down before the lock (5 failures), so every attempt up to the lock is checked and counted
        server = ClassServer.start("-Dportcullis.mfa.required=off", "-Dportcullis.mfa.passwordless=true",
                "-Dportcullis.login.slowdown-after=5");
        http = server.http();
        admin = new Admin(http, System.getProperty("portcullis.test.admin-token"));
        assertEquals(200, http.get("/health/ready").status(), server::output);
        callback = BrowserSetup.callbackServer();
        callbackUri = BrowserSetup.callbackUri(callback);
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
        Db.update("DELETE FROM second_factor_throttle");
    }

    /** Tests tagged {@code browser} get Chromium (started by the first of them), with no cookies. */
    @BeforeEach
    void freshBrowser(TestInfo test) {
        if (!test.getTags().contains("browser")) {
            return;
        }
        if (driver == null) {
            driver = BrowserSetup.chromium();
        }
        wait = new WebDriverWait(driver, Duration.ofSeconds(30));
        newBrowser();
    }

    private void newBrowser() {
        driver.get(server.base() + "/css/portcullis.css");
        driver.manage().deleteAllCookies();
    }

    @Test
    void discoveryPublishesTheLevels() {
        Map<String, Object> d = http.get("/.well-known/openid-configuration").json();
        assertEquals(AuthMethods.ACR_VALUES, d.get("acr_values_supported"));
    }

    /**
     * With passwordless on, viewing the login page offers a passkey challenge but writes no row: twenty views, by new
     * browsers and by one browser again, leave every row of every table exactly as it was.
     */
    @Test
    void viewingTheLoginPageWritesNothing() {
        Admin.TestClient c = client(false);
        long lastAuditEvent = Db.lastAuditEvent();
        Map<String, List<String>> before = Db.everyRow(Set.of());
        UserAgent same = new UserAgent(server.base());
        for (int i = 0; i < 20; i++) {
            UserAgent ua = i % 2 == 0 ? same : new UserAgent(server.base());
            Http.Res login = ua.follow(ua.get(authorizeUrl(c)));
            assertEquals(200, login.status(), login::toString);
            assertTrue(login.body().contains("id=\"passkey-sign-in\"") && login.body().contains("data-challenge=\""),
                    "the page offers the passkey");
        }
        assertEquals(before, Db.withoutPurge(before, Db.everyRow(Set.of()), lastAuditEvent),
                "viewing the login page changed rows");
    }

    /**
     * One user's life with an authenticator: set up on the account page, a password-only sign-in stepped up by
     * acr_values, a client that requires the factor, a replayed code, a recovery code, prompt=login, the reset.
     */
    @Test
    @Tag("browser")
    void enrolStepUpReplayRecoveryAndReset() throws Exception {
        Admin.TestUser u = admin.user(PASSWORD);
        Admin.TestClient plain = client(false);
        Admin.TestClient strict = client(true);

        // the account page: sign in (password only: the policy is off), which shows no set-up until the password
        // is entered again (the user has no factor); then scan, confirm, recovery codes once
        driver.get(server.base() + "/account/security.xhtml");
        signIn(u.username());
        assertTrue(driver.findElements(By.id("qr")).isEmpty(), "no seed before the step-up");
        assertTrue(driver.findElements(By.id("add-passkey")).isEmpty(), "no passkey registration either");
        submit("security:password", PASSWORD, "security:confirm-password");
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
        driver.get(server.base() + "/account/security.xhtml");
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
        assertEquals(0, Db.count("SELECT COUNT(*) FROM sso_sessions WHERE user_id = ?", u.userId()),
                "the reset ends the sessions that gave the removed factor");
        newBrowser();
        driver.get(authorizeUrl(strict));
        signIn(u.username());
        visible("factor:first-code");
        assertFalse(driver.findElements(By.id("qr")).isEmpty());
    }

    /** A user without a factor meets a client that requires one: the sign-in enrols it, then goes on. */
    @Test
    @Tag("browser")
    void enrolmentForcedAtSignInThenCodeOnce() throws Exception {
        Admin.TestUser u = admin.user(PASSWORD);
        Admin.TestClient strict = client(true);
        driver.get(authorizeUrl(strict));
        signIn(u.username());
        String secret = scannedSecret();
        long step = Totp.step(Instant.now());
        visible("factor:first-code").sendKeys(code(secret, step));
        driver.findElement(By.id("factor:confirm")).click();
        List<String> recoveryCodes = wait.until(d -> {
            List<WebElement> li = d.findElements(By.cssSelector("#recovery-codes li"));
            return li.isEmpty() ? null : li;
        }).stream().map(WebElement::getText).toList();
        assertEquals(10, recoveryCodes.size());
        assertEquals("pwd", Db.rows("SELECT amr FROM sso_sessions WHERE user_id = ?", u.userId()).get(0).get("amr"),
                "setting the factor up is not giving one");
        // the client requires a second factor: the session gets no code before it gives the new factor
        WebElement proceed = driver.findElement(By.id("factor:proceed"));
        proceed.click();
        wait.until(BrowserSetup.replaced(proceed));
        submitCode(recoveryCodes.get(0));
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

        // wrong codes count in the account's second-factor counter: they lock its codes, then even the right code is
        // refused; the right password still signs in, and clears nothing: the code after it is refused too
        driver.get(authorizeUrl(strict));
        String wrong = wrongCode(secret);
        String message = "";
        for (int i = 0; i < 30 && !message.contains("blocked"); i++) {
            submitCode(wrong);
            message = visible("factor:message").getText();
            assertTrue(message.contains(INVALID) || message.contains("Too many"), message);
        }
        assertTrue(message.contains(FACTOR_LOCKED), message);
        submitCode(code(secret, Totp.step(Instant.now()) + 1));
        assertTrue(visible("factor:message").getText().contains(FACTOR_LOCKED));
        newBrowser();
        driver.get(authorizeUrl(strict));
        signIn(u.username());
        submitCode(code(secret, Totp.step(Instant.now()) + 1));
        assertTrue(visible("factor:message").getText().contains(FACTOR_LOCKED));
    }

    /**
     * A sign-in whose password is older than 10 minutes sets up no factor of its own: the factor page asks for the
     * password again (a forged set-up before it, even with the challenge the page gave earlier, writes nothing; a
     * wrong password opens nothing), and the right one opens the set-up.
     */
    @Test
    void enrolmentAtSignInWithAnOldPasswordAsksForItAgain() throws Exception {
        Admin.TestUser u = admin.user(PASSWORD);
        Admin.TestClient strict = client(true);
        UserAgent ua = new UserAgent(server.base());
        Http.Res fresh = factorPage(ua, strict, u);
        assertTrue(fresh.body().contains("id=\"manual-key\""), "a password just given opens the set-up");
        assertFalse(fresh.body().contains("id=\"factor:password\""));
        Db.update("UPDATE sso_sessions SET auth_time = auth_time - 601 WHERE user_id = ?", u.userId());

        Http.Res old = ua.follow(ua.get(authorizeUrl(strict)));
        assertEquals(200, old.status(), old::toString);
        assertTrue(old.body().contains("id=\"factor:password\""), old::toString);
        assertFalse(old.body().contains("id=\"manual-key\""), "no set-up before the password");
        assertFalse(old.body().contains("data-passkey=\"create\""));
        SoftAuthenticator key = new SoftAuthenticator(URI.create(server.base()).getHost());
        assertTrue(postPasskey(ua, old, "factor", "factor:register-passkey",
                key.create(challenge(fresh), server.base())).status() < 500);
        Map<String, String> forged = UserAgent.formFields(old.body(), "factor");
        forged.put("factor:first-code", "123456");
        forged.put("factor:confirm", "Confirm");
        assertTrue(ua.submit(old.body(), "factor", forged).status() < 500);
        Map<String, String> wrong = UserAgent.formFields(old.body(), "factor");
        wrong.put("factor:password", "not " + PASSWORD);
        wrong.put("factor:confirm-password", "Confirm");
        Http.Res refused = ua.submit(old.body(), "factor", wrong);
        assertTrue(refused.body().contains("id=\"factor:password\""), refused::toString);
        assertEquals(0, Db.count("SELECT COUNT(*) FROM webauthn_credentials WHERE user_id = ?", u.userId()));
        assertEquals(0, Db.count("SELECT COUNT(*) FROM totp_factors WHERE user_id = ? AND confirmed_at IS NOT NULL",
                u.userId()));

        Map<String, String> right = UserAgent.formFields(old.body(), "factor");
        right.put("factor:password", PASSWORD);
        right.put("factor:confirm-password", "Confirm");
        Http.Res again = ua.submit(old.body(), "factor", right);
        assertEquals(303, again.status(), again::toString);
        Http.Res open = ua.follow(again);
        assertTrue(open.body().contains("id=\"manual-key\""), open::toString);
        assertEquals(303, postPasskey(ua, open, "factor", "factor:register-passkey",
                key.create(challenge(open), server.base())).status());
        assertEquals(1, Db.count("SELECT COUNT(*) FROM webauthn_credentials WHERE user_id = ?", u.userId()));
    }

    /**
     * A user's life with a passkey: registered (named) on the account page, used as a step-up by acr_values and as
     * the second step a client requires, then alone (passwordless, user verified); a sign count lower than the
     * stored one is refused and audited; deleted on the account page; registered again and reset by the
     * administrator; and registered instead of an app by a user who must set up a factor at sign-in.
     */
    @Test
    @Tag("browser")
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

            // register on the account page (signed in with the password only: the policy is off; the user has no
            // factor, so the password again opens the set-up)
            driver.get(server.base() + "/account/security.xhtml");
            signIn(u.username());
            submit("security:password", PASSWORD, "security:confirm-password");
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
            driver.get(server.base() + "/account/security.xhtml");
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
            wait.until(BrowserSetup.replaced(deleted));
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
            WebElement add = visible("add-passkey");
            add.click();
            // the new passkey is not a second factor yet: the page asks for it
            wait.until(BrowserSetup.replaced(add));
            visible("passkey-start").click();
            JWTClaimsSet enrolled = idToken(strict, arrivedWithCode());
            assertEquals(List.of("pwd", "hwk", "mfa"), enrolled.getStringListClaim("amr"));
            assertEquals(1, Db.count("SELECT COUNT(*) FROM webauthn_credentials WHERE user_id = ?", fresh.userId()));
        } finally {
            ((HasVirtualAuthenticator) driver).removeVirtualAuthenticator(authenticator);
        }
    }

    /**
     * The account page over plain HTTP: a password-only session is shown the step-up, not the set-up, and what it
     * posts adds nothing; a seed belongs to the session it was shown to and expires after 10 minutes; adding a
     * factor ends the user's other session; once the user has a factor, the password opens nothing and a step-up
     * older than 10 minutes is asked again.
     */
    @Test
    void accountPageChangesNeedAStepUpSeedsStayWithTheirSessionAndOtherSessionsEnd() {
        Admin.TestUser u = admin.user(PASSWORD);
        UserAgent a = new UserAgent(server.base());
        Http.Res page = opened(a, "/account/security.xhtml", u);
        assertTrue(page.body().contains("id=\"security:password\""), "the step-up asks for the password");
        assertFalse(page.body().contains("id=\"qr\""), "no seed before the step-up");
        assertFalse(page.body().contains("data-passkey=\"create\""), "no passkey registration either");
        Map<String, String> forged = UserAgent.formFields(page.body(), "security");
        forged.put("security:first-code", "123456");
        forged.put("security:confirm", "Confirm");
        forged.put("passkeys", "passkeys");
        forged.put("passkeys:register", "Add");
        forged.put("passkey", "{}");
        assertTrue(a.submit(page.body(), "security", forged).status() < 500);
        assertEquals(List.of(), Db.rows("SELECT * FROM totp_factors WHERE user_id = ?", u.userId()),
                "neither the page nor the forged set-up wrote a seed");
        assertEquals(0, Db.count("SELECT COUNT(*) FROM webauthn_credentials WHERE user_id = ?", u.userId()));

        // the password again opens the set-up in this session only; another browser gets another seed
        Http.Res pageA = a.stepUpWithPassword(page, PASSWORD);
        String seedA = manualKey(pageA);
        UserAgent b = new UserAgent(server.base());
        Http.Res pageB = b.stepUpWithPassword(b.openSignedIn("/account/security.xhtml", u), PASSWORD);
        String seedB = manualKey(pageB);
        assertNotEquals(seedA, seedB, "a seed shown to one session is never handed to another");
        Http.Res wrongSession = confirm(a, a.get("/account/security.xhtml"), code(seedB, Totp.step(Instant.now())));
        assertFalse(wrongSession.body().contains("recovery-codes"), "nor confirmed by another");
        assertFalse(manualKey(b.get("/account/security.xhtml")).equals(seedA));

        // ten minutes later the seed is gone: a new one is shown and the old one confirms nothing
        pageB = b.get("/account/security.xhtml");
        seedB = manualKey(pageB);
        Db.update("UPDATE totp_factors SET created_at = created_at - 601 WHERE user_id = ?", u.userId());
        Http.Res late = b.get("/account/security.xhtml");
        String seedB2 = manualKey(late);
        assertNotEquals(seedB, seedB2, "an expired seed is not shown");
        Http.Res done = confirm(b, late, code(seedB2, Totp.step(Instant.now())));
        assertTrue(done.body().contains("recovery-codes"), done::toString);
        List<String> recovery = recoveryCodes(done.body());
        assertEquals(SecondFactorService.RECOVERY_CODES, recovery.size());

        // the other browser's session ended with the new factor; this one stays
        Http.Res ended = a.get("/account/index.xhtml");
        assertEquals(302, ended.status(), ended::toString);
        assertTrue(String.valueOf(ended.header("Location")).contains("/oauth/authorize"), ended::toString);
        assertEquals(1, Db.count("SELECT COUNT(*) FROM sso_sessions WHERE user_id = ?", u.userId()));
        assertEquals(1, Db.count("SELECT COUNT(*) FROM audit_events WHERE event_type = 'SESSION_ENDED' "
                + "AND subject = ? AND detail = 'authenticator added: 1 other SSO session ended'", u.userId()));

        // the user has a factor now: the set-up asks for it (the password opens nothing), and a step-up holds
        // 10 minutes
        Http.Res stepUp = b.get("/account/security.xhtml");
        assertTrue(stepUp.body().contains("id=\"security:step-up-code\""), stepUp::toString);
        assertFalse(stepUp.body().contains("data-passkey=\"create\""));
        Map<String, String> f = UserAgent.formFields(stepUp.body(), "security");
        f.put("security:step-up-code", recovery.get(0));
        f.put("security:confirm-code", "Confirm");
        assertEquals(303, b.submit(stepUp.body(), "security", f).status());
        assertTrue(b.get("/account/security.xhtml").body().contains("data-passkey=\"create\""), "open now");
        Db.update("UPDATE sso_sessions SET factor_at = factor_at - 601 WHERE user_id = ?", u.userId());
        Http.Res stale = b.get("/account/security.xhtml");
        assertFalse(stale.body().contains("data-passkey=\"create\""), "closed again after 10 minutes");
        assertTrue(stale.body().contains("id=\"security:step-up-code\""));
    }

    /** The account page's own client honours require_mfa like any client: a password-only session is sent on. */
    @Test
    void builtInAccountClientWithRequireMfaAsksForTheFactor() {
        Admin.TestUser u = admin.user(PASSWORD);
        UserAgent ua = new UserAgent(server.base());
        assertFalse(opened(ua, "/account/", u).body().contains("id=\"factor\""));
        assertEquals(200, admin.patch("/admin/clients/portcullis-account", "{\"require_mfa\":true}").status());
        try {
            Http.Res owed = ua.openSignedIn("/account/", u);
            assertTrue(owed.body().contains("id=\"factor\""), "the sign-in asks for a second factor: " + owed);
        } finally {
            assertEquals(200, admin.patch("/admin/clients/portcullis-account", "{\"require_mfa\":false}").status());
        }
    }

    private static Http.Res opened(UserAgent ua, String path, Admin.TestUser u) {
        Http.Res r = ua.openSignedIn(path, u);
        assertEquals(200, r.status(), r::toString);
        return r;
    }

    private static String manualKey(Http.Res page) {
        Matcher m = Pattern.compile("id=\"manual-key\">([^<]*)<").matcher(page.body());
        assertTrue(m.find(), "no seed on the page: " + page);
        return m.group(1).replace(" ", "");
    }

    private static List<String> recoveryCodes(String html) {
        Matcher m = Pattern.compile("<li><code>([a-z0-9-]+)</code></li>").matcher(html);
        List<String> out = new java.util.ArrayList<>();
        while (m.find()) {
            out.add(m.group(1));
        }
        return out;
    }

    private static Http.Res confirm(UserAgent ua, Http.Res page, String code) {
        Map<String, String> f = UserAgent.formFields(page.body(), "security");
        f.put("security:first-code", code);
        f.put("security:confirm", "Confirm");
        Http.Res r = ua.submit(page.body(), "security", f);
        assertEquals(200, r.status(), r::toString);
        return r;
    }

    /**
     * Over HTTP, on every database: a fresh password before each pair of wrong codes gives no fresh guesses; after
     * portcullis.login.max-failures codes in all, the account's codes are locked, the right password still signs in
     * and the right code is refused, audited.
     */
    @Test
    void passwordThenWrongCodesCyclesGetNoMoreThanTheLimitOfGuesses() {
        Admin.TestUser u = admin.user(PASSWORD);
        Admin.TestClient strict = client(true);
        Enrolled app = enrolledOverHttp(u, strict);
        int checked = 0;
        String last = "";
        for (int cycle = 0; cycle < 6 && !last.contains(FACTOR_LOCKED); cycle++) {
            UserAgent ua = new UserAgent(server.base());
            Http.Res page = factorPage(ua, strict, u);
            for (int i = 0; i < 2 && !last.contains(FACTOR_LOCKED); i++) {
                Http.Res r = postCode(ua, page, wrongCode(app.secret()));
                assertEquals(200, r.status(), r::toString);
                last = r.body();
                checked += last.contains(INVALID) ? 1 : 0;
            }
        }
        assertTrue(last.contains(FACTOR_LOCKED), "never locked after " + checked + " wrong codes");
        assertEquals(5, checked, "portcullis.login.max-failures codes in all, however many passwords");

        UserAgent ua = new UserAgent(server.base());
        Http.Res refused = postCode(ua, factorPage(ua, strict, u), app.nextCode());
        assertEquals(200, refused.status(), refused::toString);
        assertTrue(refused.body().contains(FACTOR_LOCKED), "the right code while the codes are locked");
        assertEquals(1, Db.count("SELECT COUNT(*) FROM audit_events WHERE event_type = 'SIGN_IN_LOCKED' "
                + "AND subject = ? AND detail = 'second factor locked'", u.userId()));
        assertTrue(Db.count("SELECT COUNT(*) FROM audit_events WHERE event_type = 'SIGN_IN_LOCKED' AND subject = ? "
                + "AND detail = 'locked (second factor)'", u.userId()) >= 2);
    }

    /** Two submissions of one code at the same moment, from two copies of one browser: exactly one is accepted. */
    @Test
    void twoConcurrentSubmissionsOfOneCodeAcceptExactlyOne() throws Exception {
        Admin.TestUser u = admin.user(PASSWORD);
        Admin.TestClient strict = client(true);
        Enrolled app = enrolledOverHttp(u, strict);
        UserAgent ua = new UserAgent(server.base());
        Http.Res page = factorPage(ua, strict, u);
        UserAgent twin = new UserAgent(server.base());
        for (String cookie : List.of(BrowserCookies.SESSION, BrowserCookies.CSRF)) {
            twin.setCookie(cookie, ua.cookie(cookie).orElseThrow());
        }
        String code = app.nextCode();
        Queue<UserAgent> browsers = new ConcurrentLinkedQueue<>(List.of(ua, twin));
        List<Http.Res> answers = Concurrently.run(2, () -> postCode(browsers.remove(), page, code));
        List<Integer> statuses = answers.stream().map(Http.Res::status).sorted().toList();
        assertEquals(List.of(200, 303), statuses, answers::toString);
        Http.Res accepted = answers.stream().filter(r -> r.status() == 303).findFirst().orElseThrow();
        assertTrue(accepted.header("Location").contains("code="), accepted::toString);
        Http.Res other = answers.stream().filter(r -> r.status() == 200).findFirst().orElseThrow();
        assertTrue(other.body().contains(INVALID), other::toString);
        assertEquals(1, Db.count("SELECT COUNT(*) FROM audit_events WHERE event_type = 'SECOND_FACTOR_SUCCESS' "
                + "AND subject = ?", u.userId()));
    }

    /**
     * A locked account is refused by its own passkey, as the second factor after the password and passwordless on
     * the login page: locked by wrong second factors (here wrong passkeys), and locked by wrong passwords. Each
     * refusal names the lock and is audited.
     */
    @Test
    void lockedAccountIsRefusedByPasskeyAsSecondFactorAndPasswordless() throws Exception {
        Admin.TestClient strict = client(true);

        // the second factors locked by wrong passkeys (another authenticator's assertions, 400 each)
        Admin.TestUser u = admin.user(PASSWORD);
        SoftAuthenticator key = passkeyOverHttp(u, strict);
        SoftAuthenticator stranger = new SoftAuthenticator(URI.create(server.base()).getHost());
        UserAgent ua = new UserAgent(server.base());
        Http.Res page = factorPage(ua, strict, u);
        for (int i = 0; i < 5; i++) {
            Http.Res r = postPasskey(ua, page, "factor", "factor:use-passkey",
                    stranger.get(challenge(page), server.base(), i + 1, true));
            assertEquals(400, r.status(), r::toString);
        }
        assertPasskeyRefused(u, key, ua, page, 10);

        // the account locked by wrong passwords while a browser waits on the factor page
        Admin.TestUser v = admin.user(PASSWORD);
        SoftAuthenticator vKey = passkeyOverHttp(v, strict);
        UserAgent waiting = new UserAgent(server.base());
        Http.Res vPage = factorPage(waiting, strict, v);
        UserAgent attacker = new UserAgent(server.base());
        Http.Res login = attacker.follow(attacker.get(authorizeUrl(strict)));
        for (int i = 0; i < 5; i++) {
            assertEquals(200, attacker.signIn(login, v.username(), "wrong " + i).status());
        }
        assertTrue(attacker.signIn(login, v.username(), PASSWORD).body().contains("blocked"), "the account is locked");
        assertPasskeyRefused(v, vKey, waiting, vPage, 10);
    }

    // ---- helpers ----

    /** An authenticator app confirmed over HTTP, and the time-step of its first code. */
    private record Enrolled(String secret, long firstStep) {
        /** A code the server has not seen yet: the step after the first one, or the current one. */
        String nextCode() {
            return code(secret, Math.max(firstStep + 1, Totp.step(Instant.now())));
        }
    }

    /** A user without a factor meets the strict client over HTTP and sets up an app with its first code. */
    private Enrolled enrolledOverHttp(Admin.TestUser u, Admin.TestClient strict) {
        UserAgent ua = new UserAgent(server.base());
        Http.Res page = factorPage(ua, strict, u);
        Matcher key = Pattern.compile("<code id=\"manual-key\">([^<]+)</code>").matcher(page.body());
        assertTrue(key.find(), page::toString);
        String secret = key.group(1).replace(" ", "");
        long step = Totp.step(Instant.now());
        Map<String, String> f = UserAgent.formFields(page.body(), "factor");
        f.put("factor:first-code", code(secret, step));
        f.put("factor:confirm", "Confirm");
        Http.Res confirmed = ua.submit(page.body(), "factor", f);
        assertTrue(confirmed.body().contains("recovery-codes"), confirmed::toString);
        return new Enrolled(secret, step);
    }

    /** A user without a factor meets the strict client over HTTP and registers a software authenticator's passkey. */
    private SoftAuthenticator passkeyOverHttp(Admin.TestUser u, Admin.TestClient strict) throws Exception {
        SoftAuthenticator key = new SoftAuthenticator(URI.create(server.base()).getHost());
        UserAgent ua = new UserAgent(server.base());
        Http.Res page = factorPage(ua, strict, u);
        Http.Res r = postPasskey(ua, page, "factor", "factor:register-passkey",
                key.create(challenge(page), server.base()));
        assertEquals(303, r.status(), r::toString);
        return key;
    }

    /** The user's own passkey is refused with the lock's message, on the factor page and passwordless, audited. */
    private void assertPasskeyRefused(Admin.TestUser u, SoftAuthenticator key, UserAgent ua, Http.Res factorPage,
                                      long signCount) throws Exception {
        Http.Res second = postPasskey(ua, factorPage, "factor", "factor:use-passkey",
                key.get(challenge(factorPage), server.base(), signCount, true));
        assertEquals(200, second.status(), second::toString);
        assertTrue(second.body().contains(FACTOR_LOCKED), second::toString);

        UserAgent alone = new UserAgent(server.base());
        Http.Res login = alone.follow(alone.get(authorizeUrl(client(true))));
        Http.Res passwordless = postPasskey(alone, login, "login", "login:passkey-submit",
                key.get(challenge(login), server.base(), signCount + 1, true));
        assertEquals(200, passwordless.status(), passwordless::toString);
        assertTrue(passwordless.body().contains("blocked"), passwordless::toString);
        assertTrue(alone.cookie(BrowserCookies.SESSION).isEmpty(), "no session");
        assertEquals(1, Db.count("SELECT COUNT(*) FROM audit_events WHERE event_type = 'SIGN_IN_LOCKED' "
                + "AND subject = ? AND detail = 'locked (passkey)'", u.userId()));
        assertEquals(1, Db.count("SELECT COUNT(*) FROM audit_events WHERE event_type = 'SIGN_IN_LOCKED' "
                + "AND subject = ? AND detail = 'locked (passkey, passwordless)'", u.userId()));
    }

    /** Signs in with the password over HTTP, from the client's authorization request to the factor page. */
    private Http.Res factorPage(UserAgent ua, Admin.TestClient c, Admin.TestUser u) {
        Http.Res login = ua.follow(ua.get(authorizeUrl(c)));
        Http.Res page = ua.follow(ua.signIn(login, u.username(), PASSWORD));
        assertEquals(200, page.status(), page::toString);
        assertTrue(page.body().contains("id=\"factor\""), page::toString);
        return page;
    }

    private static Http.Res postCode(UserAgent ua, Http.Res page, String code) {
        Map<String, String> f = UserAgent.formFields(page.body(), "factor");
        f.put("factor:code", code);
        f.put("factor:submit", "Continue");
        return ua.submit(page.body(), "factor", f);
    }

    private static Http.Res postPasskey(UserAgent ua, Http.Res page, String formId, String button, String json) {
        Map<String, String> f = UserAgent.formFields(page.body(), formId);
        f.put("passkey", json);
        f.put(button, "x");
        return ua.submit(page.body(), formId, f);
    }

    private static String challenge(Http.Res page) {
        Matcher m = Pattern.compile("data-challenge=\"([^\"]+)\"").matcher(page.body());
        assertTrue(m.find(), page::toString);
        return m.group(1);
    }

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
        return server.base() + "/oauth/authorize?" + Http.form(p);
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
        // the field is found and typed into as one step, again if the document it was found in has been replaced
        // since (a sign-in's navigation still settling); the button is pressed once
        WebElement field = wait.until(d -> {
            try {
                WebElement f = d.findElement(By.id(fieldId));
                if (!f.isDisplayed()) {
                    return null;
                }
                f.clear();
                f.sendKeys(value);
                return f;
            } catch (NoSuchElementException e) {
                return null;
            } catch (WebDriverException e) {
                if (BrowserSetup.documentReplaced(e)) {
                    return null;
                }
                throw e;
            }
        });
        driver.findElement(By.id(buttonId)).click();
        // Chromium may report the typed field of the replaced page as "does not belong to the document" rather than
        // stale, which Selenium's stalenessOf does not count as replaced
        wait.until(BrowserSetup.replaced(field));
    }

    /** Signs in on the login page; returns once the answer's page has replaced it. */
    private void signIn(String username) {
        WebElement user = visible("login:username");
        user.sendKeys(username);
        driver.findElement(By.id("login:password")).sendKeys(PASSWORD);
        driver.findElement(By.id("login:submit")).click();
        wait.until(BrowserSetup.replaced(user));
    }

    /** Decodes the page's QR code as an authenticator app would and returns the seed of its otpauth URI. */
    private String scannedSecret() throws Exception {
        String src = visible("qr").getAttribute("src");
        assertTrue(src.startsWith("data:image/png;base64,"), src);
        BufferedImage img = ImageIO.read(new ByteArrayInputStream(
                Base64.getDecoder().decode(src.substring("data:image/png;base64,".length()))));
        int[] pixels = img.getRGB(0, 0, img.getWidth(), img.getHeight(), null, 0, img.getWidth());
        // the page shows the code itself, unrotated with its quiet zone: read as a pure barcode. ZXing's finder-pattern
        // search (made for camera pictures) misses about 3 % of such clean images, whatever the module size
        String uri = new QRCodeReader().decode(new BinaryBitmap(new HybridBinarizer(
                new RGBLuminanceSource(img.getWidth(), img.getHeight(), pixels))),
                Map.of(DecodeHintType.PURE_BARCODE, Boolean.TRUE)).getText();
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
        assertEquals(server.base(), claims.getIssuer());
        return claims;
    }
}
