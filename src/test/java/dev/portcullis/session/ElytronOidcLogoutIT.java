package dev.portcullis.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.portcullis.testing.Admin;
import dev.portcullis.testing.Browser;
import dev.portcullis.testing.Db;
import dev.portcullis.testing.Http;
import dev.portcullis.testing.ServerTestBase;
import dev.portcullis.testing.WildFlyDeployments;
import java.util.List;
import java.util.Map;
import java.util.logging.Logger;
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.asset.StringAsset;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * WildFly's own OpenID Connect client, {@code elytron-oidc-client} (WildFly 39, elytron-http-oidc 2.8), in an
 * application deployed beside Portcullis in the run's WildFly: signed in through the real login page in Chromium,
 * then signed out by the application, which makes elytron POST its refresh token with client authentication to the
 * end-session endpoint. That release has no back-channel or RP-initiated logout of its own (no
 * {@code logout-path} or {@code logout-callback-path}), so the refresh-token logout is what there is to test.
 */
@Tag("browser")
class ElytronOidcLogoutIT extends ServerTestBase {

    private static final Logger LOG = Logger.getLogger(ElytronOidcLogoutIT.class.getName());
    private static final String PASSWORD = "correct horse battery";
    private static final String APP = "elytron-app";

    private static String appBase;
    private static String clientId;
    private static boolean deployed;

    @BeforeAll
    static void deployTheApplication() {
        // a missing deployment directory is a broken selection, not a reason to skip: this class exists for WildFly
        assertTrue(WildFlyDeployments.directory().isPresent(), "elytron-oidc-client is WildFly's own OpenID Connect "
                + "client: this class runs in WildFly's pass only (it.wildfly, or -Dit.wildfly=ElytronOidcLogoutIT)");
        appBase = BASE + "/" + APP;
        Http.Res r = admin().post("/admin/clients", "{\"client_name\":\"WildFly elytron-oidc-client\","
                + "\"redirect_uris\":[" + Http.q(appBase + "/protected/who") + "],\"confidential\":true,"
                + "\"scopes\":\"openid profile\",\"skip_consent\":true}");
        assertEquals(201, r.status(), r::toString);
        clientId = r.jsonString("client_id");
        WildFlyDeployments.deploy(war(clientId, r.jsonString("client_secret")));
        deployed = true;
    }

    @AfterAll
    static void undeployTheApplication() {
        if (deployed) {
            WildFlyDeployments.undeploy(APP + ".war");
        }
    }

    /**
     * The application: its page behind the OIDC mechanism, configured by the oidc.json README shows. The principal is
     * {@code sub}: WildFly 39 refuses oidc.json's {@code scope} at its default stability level, so the ID token
     * carries no {@code profile} claims.
     */
    private static WebArchive war(String clientId, String secret) {
        String oidcJson = "{\"provider-url\":" + Http.q(BASE) + ",\"client-id\":" + Http.q(clientId)
                + ",\"credentials\":{\"secret\":" + Http.q(secret) + "},\"ssl-required\":\"none\","
                + "\"principal-attribute\":\"sub\"}";
        String webXml = """
                <?xml version="1.0" encoding="UTF-8"?>
                <web-app xmlns="https://jakarta.ee/xml/ns/jakartaee" version="6.0">
                    <security-constraint>
                        <web-resource-collection>
                            <web-resource-name>protected</web-resource-name>
                            <url-pattern>/protected/*</url-pattern>
                        </web-resource-collection>
                        <auth-constraint>
                            <role-name>**</role-name>
                        </auth-constraint>
                    </security-constraint>
                    <login-config>
                        <auth-method>OIDC</auth-method>
                    </login-config>
                </web-app>
                """;
        return ShrinkWrap.create(WebArchive.class, APP + ".war")
                .addClass(ElytronAppServlet.class)
                .addAsWebInfResource(new StringAsset(oidcJson), "oidc.json")
                .addAsWebInfResource(new StringAsset(webXml), "web.xml");
    }

    private final Admin admin = admin();

    private static long ssoSessions(Admin.TestUser user) {
        return Db.count("SELECT COUNT(*) FROM sso_sessions WHERE user_id = ?", user.userId());
    }

    /** Opening the application's page sends the browser to Portcullis's login page. */
    private static void assertSentToSignIn(Browser browser) {
        browser.open(appBase + "/protected/who");
        browser.visible("login:username");
        String at = browser.driver().getCurrentUrl();
        assertTrue(at.startsWith(BASE + "/") && !at.startsWith(appBase + "/"), at);
    }

    @Test
    void theApplicationsLogoutEndsItsSessionAndTheSsoSession() {
        Admin.TestUser user = admin.user(PASSWORD);
        try (Browser browser = new Browser("en-US")) {
            assertSentToSignIn(browser);
            browser.signIn(user.username(), user.password());
            assertEquals(user.userId(), browser.visible("who").getText(), "the application names the user");
            assertTrue(browser.driver().getCurrentUrl().startsWith(appBase + "/protected/who"),
                    browser.driver().getCurrentUrl());
            browser.open(appBase + "/protected/who");
            assertEquals(user.userId(), browser.visible("who").getText(), "its session holds the user");
            assertEquals(1, ssoSessions(user));

            browser.open(appBase + "/protected/logout");
            browser.visible("elytron-signed-out");
            List<Map<String, Object>> told = Db.rows("SELECT event_type, outcome, client_id, detail FROM audit_events "
                    + "WHERE event_type = 'SIGN_OUT' AND client_id = ?", clientId);
            LOG.info(() -> "What elytron-oidc-client's logout made Portcullis audit: " + told);
            assertEquals(1, told.size(), told::toString);
            assertTrue(String.valueOf(told.get(0).get("detail")).startsWith("refresh-token logout: grant "),
                    told::toString);
            assertEquals(0, ssoSessions(user), "the refresh-token logout ended the SSO session");
            assertSentToSignIn(browser); // neither the application's session nor the SSO session is left
        }
    }
}
