package dev.portcullis.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.nimbusds.jwt.SignedJWT;
import dev.portcullis.crypto.Secrets;
import dev.portcullis.testing.Admin;
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
 * Single logout end to end: the SSO session's {@code sid} in ID tokens and the discovery flags; the clients' logout
 * notification URIs in the admin API and the console.
 */
class SingleLogoutIT extends ServerTestBase {

    private static final String REDIRECT = "https://rp.example.com/cb";

    private final Http http = http();
    private final Admin admin = admin();

    /** Signs in (or uses the session) at {@code rp} and redeems the code; the token response. */
    private Map<String, Object> codeFlow(UserAgent ua, Admin.TestClient rp, Admin.TestUser user) {
        Map<String, String> p = ua.authorizeAndGetRedirectParams(rp, user, Map.of("scope", "openid"));
        Http.Res r = http.postForm("/oauth/token", Map.of("grant_type", "authorization_code", "code", p.get("code"),
                "redirect_uri", REDIRECT, "client_id", rp.clientId(), "client_secret", rp.secret()));
        assertEquals(200, r.status(), r::toString);
        return r.json();
    }

    private static String sid(Object idToken) throws Exception {
        return SignedJWT.parse((String) idToken).getJWTClaimsSet().getStringClaim("sid");
    }

    @Test
    void everyIdTokenOfOneSessionCarriesItsSidWhateverTheClient() throws Exception {
        Admin.TestClient a = admin.client(true, "openid", true, REDIRECT);
        Admin.TestClient b = admin.client(true, "openid", true, REDIRECT);
        Admin.TestUser user = admin.user("correct horse battery");
        UserAgent ua = new UserAgent(BASE);

        Map<String, Object> atA = codeFlow(ua, a, user);
        String sid = sid(atA.get("id_token"));
        assertNotNull(sid, "the ID token names its session");
        String cookie = ua.cookie("portcullis_session").orElseThrow();
        assertEquals(sid, Db.rows("SELECT sid FROM sso_sessions WHERE session_hash = ?", Secrets.hash(cookie))
                .get(0).get("sid"), "the session's own sid");
        assertNotEquals(cookie, sid);
        assertNotEquals(Secrets.hash(cookie), sid);

        assertEquals(sid, sid(codeFlow(ua, b, user).get("id_token")), "the same for every client of the session");
        Http.Res refreshed = http.postForm("/oauth/token", Map.of("grant_type", "refresh_token",
                "refresh_token", (String) atA.get("refresh_token"), "client_id", a.clientId(),
                "client_secret", a.secret()));
        assertEquals(200, refreshed.status(), refreshed::toString);
        assertEquals(sid, sid(refreshed.jsonString("id_token")), "and for a refreshed ID token");

        UserAgent otherBrowser = new UserAgent(BASE);
        assertNotEquals(sid, sid(codeFlow(otherBrowser, a, user).get("id_token")), "another session, another sid");
    }

    @Test
    void discoveryStatesWhichLogoutIsSupported() {
        Http.Res d = http.get("/.well-known/openid-configuration");
        assertEquals(200, d.status(), d::toString);
        Map<String, Object> doc = d.json();
        assertEquals(Boolean.FALSE, doc.get("frontchannel_logout_supported"));
        assertEquals(Boolean.FALSE, doc.get("frontchannel_logout_session_supported"));
        assertEquals(Boolean.FALSE, doc.get("backchannel_logout_supported"));
        assertEquals(Boolean.FALSE, doc.get("backchannel_logout_session_supported"));
        assertEquals(true, ((java.util.List<?>) doc.get("claims_supported")).contains("sid"));
    }

    // ---- the clients' logout URIs ----

    private static final String BACK = "https://rp.example.com/logout/backchannel";
    private static final String FRONT = "https://rp.example.com/logout/frontchannel";

    private Http.Res register(String extra) {
        return admin.post("/admin/clients", "{\"client_name\":\"Logout RP\",\"redirect_uris\":[" + Http.q(REDIRECT)
                + "],\"scopes\":\"openid\"" + extra + "}");
    }

    @Test
    void theAdminApiRegistersShowsChangesAndRemovesTheLogoutUris() {
        Http.Res created = register(",\"backchannel_logout_uri\":" + Http.q(BACK));
        assertEquals(201, created.status(), created::toString);
        String id = created.jsonString("client_id");
        Map<String, Object> shown = admin.get("/admin/clients/" + id).json();
        assertEquals(BACK, shown.get("backchannel_logout_uri"));
        assertEquals(Boolean.TRUE, shown.get("backchannel_logout_session_required"), "the default");
        assertFalse(shown.containsKey("frontchannel_logout_uri"), "none registered");
        assertEquals(Boolean.TRUE, shown.get("frontchannel_logout_session_required"));

        Http.Res patched = admin.patch("/admin/clients/" + id, "{\"frontchannel_logout_uri\":" + Http.q(FRONT)
                + ",\"frontchannel_logout_session_required\":false,\"backchannel_logout_session_required\":false}");
        assertEquals(200, patched.status(), patched::toString);
        shown = admin.get("/admin/clients/" + id).json();
        assertEquals(BACK, shown.get("backchannel_logout_uri"), "a patch that does not name it keeps it");
        assertEquals(Boolean.FALSE, shown.get("backchannel_logout_session_required"));
        assertEquals(FRONT, shown.get("frontchannel_logout_uri"));
        assertEquals(Boolean.FALSE, shown.get("frontchannel_logout_session_required"));

        assertEquals(200, admin.patch("/admin/clients/" + id, "{\"backchannel_logout_uri\":null}").status());
        shown = admin.get("/admin/clients/" + id).json();
        assertFalse(shown.containsKey("backchannel_logout_uri"), "null removes it");
        assertEquals(FRONT, shown.get("frontchannel_logout_uri"));
        assertTrue(Db.count("SELECT COUNT(*) FROM audit_events WHERE event_type = 'CLIENT_UPDATED' AND client_id = ? "
                + "AND detail LIKE '%logout notifications%'", id) >= 2, "audited");
    }

    @ParameterizedTest
    @ValueSource(strings = {"\"backchannel_logout_uri\":\"http://rp.example.com/bc\"",
        "\"backchannel_logout_uri\":\"https://rp.example.com/bc#f\"",
        "\"frontchannel_logout_uri\":\"/relative\"",
        "\"frontchannel_logout_uri\":\"com.example.app:/fc\"",
        "\"backchannel_logout_uri\":42",
        "\"backchannel_logout_session_required\":\"yes\"",
        "\"frontchannel_logout_session_required\":null"})
    void badLogoutFieldsAnswer400AndChangeNothing(String field) {
        long clients = Db.count("SELECT COUNT(*) FROM clients");
        Http.Res refused = register("," + field);
        assertEquals(400, refused.status(), refused::toString);
        assertEquals("invalid_request", refused.jsonString("error"));
        assertEquals(clients, Db.count("SELECT COUNT(*) FROM clients"), "nothing registered");

        Http.Res created = register(",\"backchannel_logout_uri\":" + Http.q(BACK));
        String id = created.jsonString("client_id");
        Map<String, Object> before = admin.get("/admin/clients/" + id).json();
        Http.Res patch = admin.patch("/admin/clients/" + id, "{" + field + "}");
        assertEquals(400, patch.status(), patch::toString);
        assertEquals("invalid_request", patch.jsonString("error"));
        assertEquals(before, admin.get("/admin/clients/" + id).json(), "nothing changed");
    }

    @Test
    void theConsoleEditsTheLogoutUris() {
        Admin.TestUser boss = admin.user("correct horse battery");
        assertEquals(200, admin.patch("/admin/users/" + boss.username(), "{\"roles\":[\"admin\"]}").status());
        Admin.TestClient app = admin.confidentialClient("openid", REDIRECT);
        UserAgent ua = new UserAgent(BASE);
        Http.Res page = ua.openSignedIn("/admin/console/client.xhtml?id=" + app.clientId(), boss);
        assertEquals(200, page.status(), page::toString);
        Map<String, String> f = new LinkedHashMap<>(UserAgent.formFields(page.body(), "edit"));
        assertEquals("", f.get("edit:backchannelLogoutUri"), "none registered");
        f.put("edit:redirectUris", REDIRECT);
        f.put("edit:backchannelLogoutUri", BACK);
        f.put("edit:backchannelLogoutSessionRequired", "on");
        f.remove("edit:frontchannelLogoutSessionRequired");
        f.put("edit:frontchannelLogoutUri", FRONT);
        f.put("edit:submit", "Save");
        Http.Res saved = ua.submit(page.body(), "edit", f);
        assertEquals(303, saved.status(), saved::toString);
        Map<String, Object> shown = admin.get("/admin/clients/" + app.clientId()).json();
        assertEquals(BACK, shown.get("backchannel_logout_uri"));
        assertEquals(Boolean.TRUE, shown.get("backchannel_logout_session_required"));
        assertEquals(FRONT, shown.get("frontchannel_logout_uri"));
        assertEquals(Boolean.FALSE, shown.get("frontchannel_logout_session_required"));
        assertEquals(List.of(REDIRECT), shown.get("redirect_uris"));

        Http.Res again = ua.get("/admin/console/client.xhtml?id=" + app.clientId());
        Map<String, String> g = new LinkedHashMap<>(UserAgent.formFields(again.body(), "edit"));
        assertEquals(BACK, g.get("edit:backchannelLogoutUri"), "the page shows what is registered");
        g.put("edit:redirectUris", REDIRECT);
        g.put("edit:backchannelLogoutUri", "http://rp.example.com/bc");
        g.put("edit:submit", "Save");
        Http.Res refused = ua.submit(again.body(), "edit", g);
        assertEquals(400, refused.status(), refused::toString);
        assertTrue(refused.body().contains("Back-channel logout address"), "the form says which field");
        assertEquals(BACK, admin.get("/admin/clients/" + app.clientId()).json().get("backchannel_logout_uri"));
    }
}
