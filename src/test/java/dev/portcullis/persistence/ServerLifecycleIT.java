package dev.portcullis.persistence;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.nimbusds.jose.JWSObject;
import com.nimbusds.jose.crypto.RSASSAVerifier;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import dev.portcullis.crypto.EncryptionKeys;
import dev.portcullis.mfa.Totp;
import dev.portcullis.testing.Admin;
import dev.portcullis.testing.Db;
import dev.portcullis.testing.Http;
import dev.portcullis.testing.ItEnvironment;
import dev.portcullis.testing.PayaraProcess;
import dev.portcullis.testing.UserAgent;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The server's life cycle, with Payara Micro processes started directly: invalid settings stop the deployment
 * with a message naming the key, and a restart keeps everything (H2 file or PostgreSQL) without migrating again:
 * users, clients, the browser's sign-in, refresh tokens and signing keys (and key rows found in clear, as written
 * before private keys were encrypted, are encrypted at the next start).
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
        Admin.TestUser appUser;
        Admin.TestClient client;
        UserAgent browser;
        Http.Res tokens;
        try (PayaraProcess first = PayaraProcess.start(port)) {
            assertTrue(first.output().contains("Database schema"), first.output());
            Admin admin = new Admin(first.http(), adminToken);
            assertEquals(200, first.http().get("/health/ready").status(), first::output);
            user = admin.user("restart passphrase");
            appUser = admin.user("restart passphrase");
            client = admin.confidentialClient("openid profile", "https://restart.example.com/cb");
            browser = new UserAgent(first.base);
            String code = browser.authorizeAndGetRedirectParams(client, user, Map.of()).get("code");
            tokens = first.http().postJson("/oauth/token", client.codeExchangeJson(code));
            assertEquals(200, tokens.status(), tokens::toString);
        }
        // every private key is stored encrypted; put them back in clear, as a release before encryption wrote them
        EncryptionKeys kek = new EncryptionKeys(
                Base64.getDecoder().decode(System.getProperty("portcullis.test.keys-encryption-key")), List.of());
        Map<String, String> clearByKid = new HashMap<>();
        for (Map<String, Object> row : Db.rows("SELECT kid, private_jwk FROM signing_keys")) {
            String kid = (String) row.get("kid");
            String stored = (String) row.get("private_jwk");
            assertTrue(EncryptionKeys.isSealed(stored) && !stored.contains("\"d\""), kid + " is encrypted at rest");
            clearByKid.put(kid, kek.open(stored, kid));
            Db.update("UPDATE signing_keys SET private_jwk = ? WHERE kid = ?", clearByKid.get(kid), kid);
        }
        assertTrue(clearByKid.size() >= 2, clearByKid.keySet()::toString);
        // an authenticator seed sealed under a key-encryption key the next start knows as a previous one only
        String previousKey = EncryptionKeys.newKey();
        String seed = Totp.newSecret();
        Db.update("INSERT INTO totp_factors (user_id, secret_sealed, created_at, confirmed_at, last_step) "
                + "VALUES (?,?,0,0,0)", appUser.userId(), new EncryptionKeys(Base64.getDecoder().decode(previousKey),
                List.of()).seal(seed, "totp:" + appUser.userId()));
        try (PayaraProcess second = PayaraProcess.start(port,
                "-Dportcullis.keys.previous-encryption-keys=" + previousKey)) {
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

            // the rows written in clear were encrypted at this start, and the same keys still sign
            for (Map<String, Object> row : Db.rows("SELECT kid, private_jwk FROM signing_keys")) {
                String kid = (String) row.get("kid");
                assertTrue(kek.isSealedUnderCurrentKey((String) row.get("private_jwk")), kid + " encrypted again");
                assertEquals(clearByKid.get(kid), kek.open((String) row.get("private_jwk"), kid));
            }
            JWSObject newIdToken = JWSObject.parse(refreshed.jsonString("id_token"));
            RSAKey signer = RSAKey.parse(clearByKid.get(newIdToken.getHeader().getKeyID()));
            assertTrue(newIdToken.verify(new RSASSAVerifier(signer.toPublicJWK())),
                    "signed by the key stored in clear");
            assertTrue(second.output().contains("is now encrypted under the current key-encryption key"));

            // the seed was re-sealed under the current key at this start, so the previous key can go
            String resealed = Db.rows("SELECT secret_sealed FROM totp_factors WHERE user_id = ?", appUser.userId())
                    .get(0).get("secret_sealed").toString();
            assertTrue(kek.isSealedUnderCurrentKey(resealed), "the seed is under the current key");
            assertEquals(seed, kek.open(resealed, "totp:" + appUser.userId()));
            assertTrue(second.output().contains("1 authenticator seed(s) are now encrypted under the current"),
                    second::output);
        }
    }

    private static String tokenRequest(Admin.TestClient client, String grantFields) {
        return "{" + grantFields + ",\"client_id\":" + Http.q(client.clientId()) + ",\"client_secret\":"
                + Http.q(client.secret()) + "}";
    }
}
