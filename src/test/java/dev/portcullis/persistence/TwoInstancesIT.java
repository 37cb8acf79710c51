package dev.portcullis.persistence;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import com.nimbusds.jose.JWSObject;
import com.nimbusds.jose.crypto.RSASSAVerifier;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import dev.portcullis.testing.Admin;
import dev.portcullis.testing.Http;
import dev.portcullis.testing.ItEnvironment;
import dev.portcullis.testing.PayaraProcess;
import dev.portcullis.testing.UserAgent;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The distributed setup: two Payara Micro instances with the same issuer on one PostgreSQL database, as behind a
 * load balancer without sticky sessions. Every step of the flow goes to the other instance than the one before.
 */
@Tag("postgres-only")
class TwoInstancesIT {

    @Test
    void anyInstanceServesAnyStepOfTheFlow() throws Exception {
        int portOne = ItEnvironment.freePort();
        String issuer = "http://localhost:" + portOne;
        try (PayaraProcess one = PayaraProcess.start(portOne);
             PayaraProcess two = PayaraProcess.start("-Dportcullis.issuer=" + issuer)) {
            Admin admin = new Admin(one.http(), System.getProperty("portcullis.test.admin-token"));
            Admin.TestUser user = admin.user("two instances pass");
            Admin.TestClient client = admin.confidentialClient("openid profile", "https://rp.example.com/cb");

            // sign in and get a code from instance 1
            UserAgent browser = new UserAgent(one.base);
            Map<String, String> redirect = browser.authorizeAndGetRedirectParams(client, user, Map.of());
            String code = redirect.get("code");
            assertNotNull(code, redirect::toString);
            assertEquals(issuer, redirect.get("iss"));

            // redeem it at instance 2
            Http.Res tokens = two.http().postJson("/oauth/token", client.codeExchangeJson(code));
            assertEquals(200, tokens.status(), tokens::toString);

            // the ID token minted by instance 2 verifies against instance 1's JWKS: one key set
            JWSObject idToken = JWSObject.parse(tokens.jsonString("id_token"));
            JWKSet jwks = JWKSet.parse(one.http().get("/oauth/discovery/keys").body());
            RSAKey key = (RSAKey) jwks.getKeyByKeyId(idToken.getHeader().getKeyID());
            assertNotNull(key, "instance 2 signs with a key instance 1 publishes");
            assertEquals(true, idToken.verify(new RSASSAVerifier(key)));

            // the SSO session made on instance 1 is honoured by instance 2 (no login page)
            UserAgent sameBrowserOnTwo = new UserAgent(two.base);
            sameBrowserOnTwo.setCookie("portcullis_session", browser.cookie("portcullis_session").orElseThrow());
            Http.Res authorizeAtTwo = sameBrowserOnTwo.authorize(Map.of("client_id", client.clientId(),
                    "redirect_uri", client.redirectUri(), "response_type", "code", "scope", "openid",
                    "state", "s2")); // the scope consented to on instance 1
            assertEquals(302, authorizeAtTwo.status(), authorizeAtTwo::toString);
            assertNotNull(Http.query(authorizeAtTwo.header("Location")).get("code"), authorizeAtTwo.header("Location"));

            // refresh at instance 1
            Http.Res refreshed = one.http().postJson("/oauth/token", "{\"grant_type\":\"refresh_token\","
                    + "\"refresh_token\":" + Http.q(tokens.jsonString("refresh_token")) + ",\"client_id\":"
                    + Http.q(client.clientId()) + ",\"client_secret\":" + Http.q(client.secret()) + "}");
            assertEquals(200, refreshed.status(), refreshed::toString);
            String accessToken = refreshed.jsonString("access_token");
            assertEquals(200, one.http().get("/oauth/userinfo", "Authorization", "Bearer " + accessToken).status());

            // revoke at instance 2 ...
            Http.Res revoked = two.http().postForm("/oauth/revoke", Map.of("token",
                    refreshed.jsonString("refresh_token"), "token_type_hint", "refresh_token",
                    "client_id", client.clientId(), "client_secret", client.secret()));
            assertEquals(200, revoked.status(), revoked::toString);

            // ... and instance 1 refuses the access token of that family at once
            Http.Res userinfo = one.http().get("/oauth/userinfo", "Authorization", "Bearer " + accessToken);
            assertEquals(401, userinfo.status(), userinfo::toString);
            assertEquals(true, userinfo.header("WWW-Authenticate").contains("invalid_token"));
        }
    }
}
