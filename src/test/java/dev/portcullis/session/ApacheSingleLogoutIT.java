package dev.portcullis.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.portcullis.testing.Admin;
import dev.portcullis.testing.ApacheHttpd;
import dev.portcullis.testing.Browser;
import dev.portcullis.testing.Db;
import dev.portcullis.testing.Http;
import dev.portcullis.testing.ServerTestBase;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Single logout with a relying party nobody here wrote: Apache httpd with Debian's {@code mod_auth_openidc}, signed in
 * through the real login page in Chromium. Two virtual hosts of one Apache are two clients: {@code app} on 127.0.0.1,
 * and {@code front} on localhost, the site of the server under test, so that its session cookie reaches it inside the
 * signed-out page's frame (Chromium sends no SameSite=Lax cookie into a cross-site frame).
 */
@Tag("browser")
class ApacheSingleLogoutIT extends ServerTestBase {

    private static final String PASSWORD = "correct horse battery";

    private static ApacheHttpd apache;
    private static ApacheHttpd.Site app;
    private static ApacheHttpd.Site front;

    @BeforeAll
    static void startApache() {
        ApacheHttpd.Site a = ApacheHttpd.site("127.0.0.1");
        ApacheHttpd.Site f = ApacheHttpd.site("localhost");
        app = register(a, "\"backchannel_logout_uri\":" + Http.q(a.redirectUri() + "?logout=backchannel"));
        front = register(f, "\"frontchannel_logout_uri\":" + Http.q(f.redirectUri() + "?logout=get"));
        apache = ApacheHttpd.start(BASE, List.of(app, front));
    }

    @AfterAll
    static void stopApache() {
        if (apache != null) {
            apache.close();
        }
    }

    /** Registers the site's client (confidential, no consent, its signed-out page to return to) with {@code logout}. */
    private static ApacheHttpd.Site register(ApacheHttpd.Site site, String logout) {
        Http.Res r = admin().post("/admin/clients", "{\"client_name\":\"Apache " + site.host() + "\",\"redirect_uris\":["
                + Http.q(site.redirectUri()) + "],\"post_logout_redirect_uris\":[" + Http.q(site.signedOutPage())
                + "],\"confidential\":true,\"scopes\":\"openid profile\",\"skip_consent\":true," + logout + "}");
        assertEquals(201, r.status(), r::toString);
        return new ApacheHttpd.Site(site.host(), site.port(), r.jsonString("client_id"), r.jsonString("client_secret"));
    }

    private final Admin admin = admin();

    /** Opens the site's protected page, signs in on the login page it is sent to, and sees the page as the user. */
    private static void signInAt(Browser browser, ApacheHttpd.Site site, Admin.TestUser user) {
        browser.open(site.protectedPage());
        browser.signIn(user.username(), user.password());
        assertServed(browser, site, user);
    }

    /** Apache serves the protected page to {@code user} (no sign-in asked for). */
    private static void assertServed(Browser browser, ApacheHttpd.Site site, Admin.TestUser user) {
        assertEquals(user.username(), browser.visible("who").getText(), "Apache's page names the signed-in user");
        assertTrue(browser.driver().getCurrentUrl().startsWith(site.base() + "/protected/"),
                browser.driver().getCurrentUrl());
    }

    /** Reloading the site's protected page sends the browser to the login page: no Apache and no SSO session. */
    private static void assertSentToSignIn(Browser browser, ApacheHttpd.Site site) {
        browser.open(site.protectedPage());
        browser.visible("login:username");
        assertTrue(browser.driver().getCurrentUrl().startsWith(BASE + "/"), browser.driver().getCurrentUrl());
    }

    private static String logoutAt(ApacheHttpd.Site site) {
        return site.redirectUri() + "?logout=" + URLEncoder.encode(site.signedOutPage(), StandardCharsets.UTF_8);
    }

    /** mod_auth_openidc's answer to a front-channel logout request (a frame of the signed-out page). */
    private static final Predicate<String> FRONT_CHANNEL =
            l -> l.contains("\"GET /protected/redirect_uri?logout=get&iss=") && l.endsWith(" 200");

    /** mod_auth_openidc accepting a logout token POSTed to its back-channel endpoint. */
    private static final Predicate<String> BACK_CHANNEL =
            l -> l.contains("\"POST /protected/redirect_uri?logout=backchannel ") && l.endsWith(" 200");

    /** Waits for Portcullis to audit the delivery of the user's logout token to {@code site} and Apache to log it. */
    private static void awaitBackchannelDelivery(ApacheHttpd.Site site, Admin.TestUser user, long postsBefore) {
        Instant deadline = Instant.now().plusSeconds(20);
        while (Db.count("SELECT COUNT(*) FROM audit_events WHERE event_type = 'BACKCHANNEL_LOGOUT_DELIVERED' "
                + "AND client_id = ? AND subject = ?", site.clientId(), user.userId()) == 0) {
            assertTrue(Instant.now().isBefore(deadline), () -> "no delivery to " + site.base() + " audited: "
                    + Db.rows("SELECT event_type, client_id, subject, detail FROM audit_events "
                    + "WHERE event_type LIKE 'BACKCHANNEL%'") + "\n" + apache.log("error.log"));
            try {
                Thread.sleep(100); // polling interval of a condition with a deadline, not a synchronisation
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError(e);
            }
        }
        apache.awaitAccessLog(BACK_CHANNEL, postsBefore, Duration.ofSeconds(10));
    }

    private static long ssoSessions(Admin.TestUser user) {
        return Db.count("SELECT COUNT(*) FROM sso_sessions WHERE user_id = ?", user.userId());
    }

    @Test
    void apacheSignsInThroughTheLoginPageAndItsOwnLogoutEndsTheSsoSession() {
        Admin.TestUser user = admin.user(PASSWORD);
        try (Browser browser = new Browser("en-US")) {
            signInAt(browser, app, user);
            browser.open(app.protectedPage());
            assertServed(browser, app, user);
            assertEquals(1, ssoSessions(user));

            browser.open(logoutAt(app));
            browser.visible("apache-signed-out");
            assertEquals(app.signedOutPage(), browser.driver().getCurrentUrl(), "back at Apache");
            assertEquals(0, ssoSessions(user), "the end-session endpoint ended the SSO session");
            assertSentToSignIn(browser, app);
        }
    }

    @Test
    void theSignedOutPagesFrameEndsTheApacheSessionOfAnotherClient() {
        Admin.TestUser user = admin.user(PASSWORD);
        try (Browser browser = new Browser("en-US")) {
            signInAt(browser, front, user);
            browser.open(app.protectedPage());
            assertServed(browser, app, user); // single sign-on: no second login page
            assertEquals(1, ssoSessions(user));

            long framesBefore = apache.accessLogCount(FRONT_CHANNEL);
            browser.open(logoutAt(app));
            browser.visible("apache-signed-out");
            assertEquals(app.signedOutPage(), browser.driver().getCurrentUrl());
            String frame = apache.awaitAccessLog(FRONT_CHANNEL, framesBefore, Duration.ofSeconds(10));
            assertTrue(frame.contains("&sid="), frame);
            assertEquals(0, ssoSessions(user));
            assertSentToSignIn(browser, front);
        }
    }

    // ---- back-channel: mod_auth_openidc's endpoint at ?logout=backchannel ----

    @Test
    void anAdministratorEndingTheSessionsLogsApacheOutThroughTheBackChannel() {
        Admin.TestUser user = admin.user(PASSWORD);
        try (Browser browser = new Browser("en-US")) {
            signInAt(browser, app, user);
            long postsBefore = apache.accessLogCount(BACK_CHANNEL);

            Http.Res ended = admin.delete("/admin/sessions?user=" + user.username());
            assertTrue(ended.status() == 200 || ended.status() == 204, ended::toString);
            awaitBackchannelDelivery(app, user, postsBefore);
            assertSentToSignIn(browser, app);
        }
    }

    @Test
    void anotherClientsLogoutLogsApacheOutThroughTheBackChannel() {
        Admin.TestUser user = admin.user(PASSWORD);
        try (Browser browser = new Browser("en-US")) {
            signInAt(browser, app, user);
            browser.open(front.protectedPage());
            assertServed(browser, front, user);
            long postsBefore = apache.accessLogCount(BACK_CHANNEL);

            browser.open(logoutAt(front)); // RP-initiated logout by the other Apache client
            browser.visible("apache-signed-out");
            assertEquals(front.signedOutPage(), browser.driver().getCurrentUrl());
            awaitBackchannelDelivery(app, user, postsBefore);
            assertSentToSignIn(browser, app);
        }
    }
}
