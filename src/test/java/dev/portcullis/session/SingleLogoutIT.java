package dev.portcullis.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import com.nimbusds.jwt.SignedJWT;
import dev.portcullis.crypto.Secrets;
import dev.portcullis.testing.Admin;
import dev.portcullis.testing.Db;
import dev.portcullis.testing.Http;
import dev.portcullis.testing.ServerTestBase;
import dev.portcullis.testing.UserAgent;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Single logout end to end: the SSO session's {@code sid} in ID tokens and the discovery flags.
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
}
