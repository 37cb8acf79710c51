package dev.portcullis.persistence;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
import org.junit.jupiter.api.Test;

/**
 * The server's life cycle, with Payara Micro processes started directly: invalid settings stop the deployment
 * with a message naming the key, and a restart keeps everything (H2 file or PostgreSQL) without migrating again:
 * users, clients, the browser's sign-in, refresh tokens and signing keys.
 */
class ServerLifecycleIT {

    @Test
    void invalidSettingStopsDeploymentNamingTheKey() {
        try (PayaraProcess p = PayaraProcess.start("-Dportcullis.code.ttl=-5")) {
            assertTrue(p.output().contains("Invalid configuration: portcullis.code.ttl (PORTCULLIS_CODE_TTL) "
                    + "must be between 1 and 600, got -5"), "log names the key and its environment variable");
            assertTrue(p.http().get("/.well-known/openid-configuration").status() >= 400, "nothing is served");
            assertTrue(p.http().get("/admin/clients").status() != 200);
        }
    }

    @Test
    void restartKeepsDataSessionsTokensAndKeys() throws Exception {
        int port = ItEnvironment.freePort();
        String adminToken = System.getProperty("portcullis.test.admin-token");
        Admin.TestUser user;
        Admin.TestClient client;
        UserAgent browser;
        Http.Res tokens;
        try (PayaraProcess first = PayaraProcess.start(port)) {
            assertTrue(first.output().contains("Database schema"), first.output());
            Admin admin = new Admin(first.http(), adminToken);
            assertEquals(200, first.http().get("/health/ready").status(), first::output);
            user = admin.user("restart passphrase");
            client = admin.confidentialClient("openid profile", "https://restart.example.com/cb");
            browser = new UserAgent(first.base);
            String code = browser.authorizeAndGetRedirectParams(client, user, Map.of()).get("code");
            tokens = first.http().postJson("/oauth/token", client.codeExchangeJson(code));
            assertEquals(200, tokens.status(), tokens::toString);
        }
        try (PayaraProcess second = PayaraProcess.start(port)) {
            assertTrue(second.output().contains("Database schema is up to date"), "a second start migrates nothing");
            Admin admin = new Admin(second.http(), adminToken);
            assertEquals(200, admin.get("/admin/users/" + user.username()).status());
            assertEquals(200, admin.get("/admin/clients/" + client.clientId()).status());

            // the browser is still signed in: the next authorization returns a code without the login page
            Http.Res again = browser.authorize(Map.of("client_id", client.clientId(), "redirect_uri",
                    client.redirectUri(), "response_type", "code", "scope", "openid", "state", "after-restart")); // consented
            assertEquals(302, again.status(), again::toString);
            assertTrue(again.header("Location").startsWith(client.redirectUri() + "?code="), again.header("Location"));

            // the refresh token still works, and the ID token issued before the restart verifies against the JWKS
            Http.Res refreshed = second.http().postJson("/oauth/token", tokenRequest(client,
                    "\"grant_type\":\"refresh_token\",\"refresh_token\":" + Http.q(tokens.jsonString("refresh_token"))));
            assertEquals(200, refreshed.status(), refreshed::toString);
            JWSObject idToken = JWSObject.parse(tokens.jsonString("id_token"));
            RSAKey key = (RSAKey) JWKSet.parse(second.http().get("/oauth/discovery/keys").body())
                    .getKeyByKeyId(idToken.getHeader().getKeyID());
            assertTrue(key != null && idToken.verify(new RSASSAVerifier(key)), "signing keys survive the restart");
        }
    }

    private static String tokenRequest(Admin.TestClient client, String grantFields) {
        return "{" + grantFields + ",\"client_id\":" + Http.q(client.clientId()) + ",\"client_secret\":"
                + Http.q(client.secret()) + "}";
    }
}
