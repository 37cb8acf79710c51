package dev.portcullis.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.portcullis.crypto.Secrets;
import dev.portcullis.testing.Admin;
import dev.portcullis.testing.Db;
import dev.portcullis.testing.Http;
import dev.portcullis.testing.PortcullisIT;
import dev.portcullis.testing.UserAgent;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The admin API over HTTP: clients and users, every validation error, and what ends up in the database. */
class AdminApiIT extends PortcullisIT {

    private final Admin admin = admin();
    private final Http http = http();

    @Test
    void registerConfidentialClientReturnsSecretOnceAndStoresOnlyItsHash() {
        Admin.TestClient c = admin.confidentialClient("openid profile", "https://app.example.com/cb");
        assertNotNull(c.secret());
        assertEquals(43, c.secret().length(), "256 random bits, base64url");

        Http.Res shown = admin.get("/admin/clients/" + c.clientId());
        assertEquals(200, shown.status());
        assertNull(shown.json().get("client_secret"), "the secret is never shown again");
        assertEquals("openid profile", shown.jsonString("scopes"));
        assertEquals(true, shown.json().get("confidential"));

        Map<String, Object> row = Db.rows("SELECT * FROM clients WHERE client_id = ?", c.clientId()).get(0);
        assertEquals(Secrets.hash(c.secret()), row.get("secret_hash"));
        assertFalse(row.values().stream().anyMatch(v -> v != null && v.toString().contains(c.secret())),
                "no column holds the secret in clear");
    }

    @Test
    void registerPublicClientHasNoSecret() {
        Http.Res r = admin.post("/admin/clients", "{\"client_name\":\"Mobile\",\"redirect_uris\":"
                + "[\"com.example.app:/callback\",\"http://127.0.0.1/cb\"],\"confidential\":false,"
                + "\"scopes\":\"openid email\"}");
        assertEquals(201, r.status(), r::toString);
        assertNull(r.json().get("client_secret"));
        assertEquals(false, r.json().get("confidential"));
        assertNull(Db.rows("SELECT secret_hash FROM clients WHERE client_id = ?", r.jsonString("client_id"))
                .get(0).get("secret_hash"));
    }

    @Test
    void listShowsClientsWithoutSecrets() {
        Admin.TestClient c = admin.confidentialClient("openid", "https://list.example.com/cb");
        Http.Res r = admin.get("/admin/clients");
        assertEquals(200, r.status());
        assertTrue(r.body().contains(c.clientId()));
        assertFalse(r.body().contains("client_secret"));
        assertFalse(r.body().contains(c.secret()));
    }

    @Test
    void rotateSecretReplacesTheOldOne() {
        Admin.TestClient c = admin.confidentialClient("openid", "https://rotate.example.com/cb");
        Http.Res r = admin.post("/admin/clients/" + c.clientId() + "/secret", "");
        assertEquals(200, r.status(), r::toString);
        String fresh = r.jsonString("client_secret");
        assertNotNull(fresh);
        assertFalse(fresh.equals(c.secret()));
        assertEquals(Secrets.hash(fresh),
                Db.rows("SELECT secret_hash FROM clients WHERE client_id = ?", c.clientId()).get(0).get("secret_hash"));
    }

    @Test
    void rotateSecretOfPublicClientIsRefused() {
        Admin.TestClient c = admin.publicClient("openid", "https://spa.example.com/cb");
        assertEquals(400, admin.post("/admin/clients/" + c.clientId() + "/secret", "").status());
    }

    @Test
    void deleteClientRemovesIt() {
        Admin.TestClient c = admin.confidentialClient("openid", "https://gone.example.com/cb");
        assertEquals(204, admin.delete("/admin/clients/" + c.clientId()).status());
        assertEquals(404, admin.get("/admin/clients/" + c.clientId()).status());
        assertEquals(404, admin.delete("/admin/clients/" + c.clientId()).status());
        assertEquals(0, Db.count("SELECT COUNT(*) FROM clients WHERE client_id = ?", c.clientId()));
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "{\"client_name\":\"x\",\"redirect_uris\":[\"http://app.example.com/cb\"],\"scopes\":\"openid\"}",
        "{\"client_name\":\"x\",\"redirect_uris\":[\"https://app.example.com/cb#frag\"],\"scopes\":\"openid\"}",
        "{\"client_name\":\"x\",\"redirect_uris\":[\"https://*.example.com/cb\"],\"scopes\":\"openid\"}",
        "{\"client_name\":\"x\",\"redirect_uris\":[\"/relative/cb\"],\"scopes\":\"openid\"}",
        "{\"client_name\":\"x\",\"redirect_uris\":[\"com.example.app:/cb\"],\"confidential\":true,\"scopes\":\"openid\"}",
        "{\"client_name\":\"x\",\"redirect_uris\":[\"myapp:/cb\"],\"confidential\":false,\"scopes\":\"openid\"}",
        "{\"client_name\":\"x\",\"redirect_uris\":[\"https://u:p@app.example.com/cb\"],\"scopes\":\"openid\"}",
        "{\"client_name\":\"x\",\"redirect_uris\":[],\"scopes\":\"openid\"}",
        "{\"client_name\":\"x\",\"redirect_uris\":[\"https://a.example.com/cb\",\"https://a.example.com/cb\"],\"scopes\":\"openid\"}",
        "{\"client_name\":\"x\",\"redirect_uris\":[\"https://a.example.com/cb\"],\"scopes\":\"openid admin\"}",
        "{\"client_name\":\"x\",\"redirect_uris\":[\"https://a.example.com/cb\"],\"scopes\":\"\"}",
        "{\"client_name\":\"\",\"redirect_uris\":[\"https://a.example.com/cb\"],\"scopes\":\"openid\"}",
        "{\"redirect_uris\":[\"https://a.example.com/cb\"],\"scopes\":\"openid\"}",
        "{\"client_name\":\"x\",\"redirect_uris\":\"https://a.example.com/cb\",\"scopes\":\"openid\"}",
        "{\"client_name\":\"x\",\"redirect_uris\":[\"https://a.example.com/cb\"],\"scopes\":\"openid\",\"confidential\":\"yes\"}",
        "{\"client_name\":\"x\",\"redirect_uris\":[\"https://a.example.com/cb\"],\"scopes\":\"openid\",\"owner\":\"me\"}",
        "{\"client_name\":\"x\",\"client_name\":\"y\",\"redirect_uris\":[\"https://a.example.com/cb\"],\"scopes\":\"openid\"}",
        "{\"client_name\":\"x\",\"redirect_uris\":[\"https://a.example.com/cb\"],\"scopes\":\"openid\",\"post_logout_redirect_uris\":[\"ftp://x/\"]}",
        "[1,2,3]",
        "{\"client_name\": ",
        "null",
        "\"just a string\""
    })
    void invalidClientRegistrationsAnswer400WithJsonErrorAndStoreNothing(String body) {
        long before = Db.count("SELECT COUNT(*) FROM clients");
        Http.Res r = admin.post("/admin/clients", body);
        assertEquals(400, r.status(), r::toString);
        assertEquals("invalid_request", r.jsonString("error"));
        assertNotNull(r.jsonString("error_description"));
        assertEquals(before, Db.count("SELECT COUNT(*) FROM clients"));
    }

    @Test
    void overlongClientNameIsRefused() {
        String name = "n".repeat(201);
        Http.Res r = admin.post("/admin/clients", "{\"client_name\":\"" + name
                + "\",\"redirect_uris\":[\"https://a.example.com/cb\"],\"scopes\":\"openid\"}");
        assertEquals(400, r.status());
        assertTrue(r.jsonString("error_description").contains("client_name"));
    }

    @Test
    void wrongContentTypeIs415() {
        Http.Res r = http.post("/admin/clients", "text/plain", "{}", "Authorization", admin.authorization());
        assertEquals(415, r.status(), r::toString);
        assertEquals("invalid_request", r.jsonString("error"));
    }

    @Test
    void oversizedBodyIs413() {
        String body = "{\"client_name\":\"" + "x".repeat(200_000) + "\"}";
        Http.Res r = admin.post("/admin/clients", body);
        assertEquals(413, r.status(), r::toString);
        assertEquals("invalid_request", r.jsonString("error"));
    }

    @Test
    void deeplyNestedJsonIs400() {
        String body = "[".repeat(5000) + "]".repeat(5000);
        assertEquals(400, admin.post("/admin/clients", body).status());
    }

    @Test
    void missingOrWrongAdminTokenIs401WithChallenge() {
        for (String[] headers : List.of(new String[0], new String[] {"Authorization", "Bearer wrong-token"},
                new String[] {"Authorization", "Basic YWRtaW46YWRtaW4="})) {
            Http.Res r = http.get("/admin/clients", headers);
            assertEquals(401, r.status(), r::toString);
            assertTrue(r.header("WWW-Authenticate").startsWith("Bearer"));
            assertEquals("invalid_token", r.jsonString("error"));
        }
    }

    @Test
    void settingAPasswordEndsTheUsersSessionsAndRevokesTheirTokens() {
        Admin.TestClient rp = admin.confidentialClient("openid", "https://app.example.com/cb");
        Admin.TestUser user = admin.user("the old passphrase");
        Admin.TestUser bystander = admin.user("another passphrase");
        UserAgent browser = new UserAgent(BASE);
        Map<String, String> redirect = browser.authorizeAndGetRedirectParams(rp, user, Map.of());
        Http.Res tokens = http.postForm("/oauth/token", Map.of("grant_type", "authorization_code",
                "code", redirect.get("code"), "redirect_uri", rp.redirectUri(), "client_id", rp.clientId(),
                "client_secret", rp.secret()));
        assertEquals(200, tokens.status(), tokens::toString);
        new UserAgent(BASE).authorizeAndGetRedirectParams(rp, bystander, Map.of());
        String sessionsOf = "SELECT COUNT(*) FROM sso_sessions WHERE user_id = ?";
        assertEquals(1, Db.count(sessionsOf, user.userId()));

        Http.Res pw = http.send(http.request("/admin/users/" + user.username() + "/password")
                .header("Authorization", admin.authorization()).header("Content-Type", "application/json")
                .PUT(java.net.http.HttpRequest.BodyPublishers.ofString("{\"password\":\"the new passphrase\"}"))
                .build());
        assertEquals(204, pw.status(), pw::toString);

        assertEquals(0, Db.count(sessionsOf, user.userId()), "every SSO session of the user ended");
        assertEquals(1, Db.count(sessionsOf, bystander.userId()), "other users stay signed in");
        Http.Res login = browser.authorize(Map.of("client_id", rp.clientId(), "redirect_uri", rp.redirectUri(),
                "response_type", "code", "scope", "openid", "state", "s"));
        String location = login.header("Location");
        assertTrue(location == null || !location.startsWith(rp.redirectUri()),
                "the browser's session cookie no longer signs it in: " + login);
        Http.Res refresh = http.postForm("/oauth/token", Map.of("grant_type", "refresh_token",
                "refresh_token", tokens.jsonString("refresh_token"), "client_id", rp.clientId(),
                "client_secret", rp.secret()));
        assertEquals(400, refresh.status(), refresh::toString);
        assertEquals("invalid_grant", refresh.jsonString("error"));
        assertEquals(401, http.get("/oauth/userinfo", "Authorization", "Bearer "
                + tokens.jsonString("access_token")).status(), "the access token is revoked with its family");
        List<Map<String, Object>> audit = Db.rows("SELECT detail FROM audit_events WHERE "
                + "event_type = 'USER_PASSWORD_CHANGED' AND subject = ?", user.username());
        assertEquals(1, audit.size());
        String detail = (String) audit.get(0).get("detail");
        assertTrue(detail.contains("1 SSO session ended") && detail.contains("1 token grant revoked"), detail);
    }

    @Test
    void userLifecycle() {
        Http.Res created = admin.post("/admin/users",
                "{\"username\":\"Carol.Admin\",\"password\":\"a long passphrase\",\"email\":\"carol@example.com\",\"name\":\"Carol\"}");
        assertEquals(201, created.status(), created::toString);
        assertEquals("carol.admin", created.jsonString("username"), "usernames are case-insensitive, stored lower-case");
        assertNull(created.json().get("password"));
        assertNull(created.json().get("password_hash"));

        String hash = (String) Db.rows("SELECT password_hash FROM users WHERE username = 'carol.admin'").get(0).get("password_hash");
        assertTrue(hash.startsWith("$argon2id$v=19$m=7168,t=5,p=1$"), hash);
        assertFalse(hash.contains("a long passphrase"));

        Http.Res dup = admin.post("/admin/users", "{\"username\":\"CAROL.ADMIN\",\"password\":\"another passphrase\"}");
        assertEquals(409, dup.status(), dup::toString);

        assertEquals(200, admin.get("/admin/users/Carol.Admin").status());
        Http.Res pw = http.send(http.request("/admin/users/carol.admin/password")
                .header("Authorization", admin.authorization()).header("Content-Type", "application/json")
                .PUT(java.net.http.HttpRequest.BodyPublishers.ofString("{\"password\":\"a newer passphrase\"}")).build());
        assertEquals(204, pw.status(), pw::toString);
        String newHash = (String) Db.rows("SELECT password_hash FROM users WHERE username = 'carol.admin'").get(0).get("password_hash");
        assertFalse(newHash.equals(hash));

        assertEquals(204, admin.delete("/admin/users/carol.admin").status());
        assertEquals(404, admin.get("/admin/users/carol.admin").status());
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "{\"username\":\"bob\",\"password\":\"short\"}",
        "{\"username\":\"\",\"password\":\"long enough pass\"}",
        "{\"username\":\"bad name\",\"password\":\"long enough pass\"}",
        "{\"username\":\"bob\",\"password\":\"long enough pass\",\"email\":\"not-an-email\"}",
        "{\"username\":\"bob\",\"password\":\"long enough pass\",\"role\":\"admin\"}",
        "{\"username\":\"bob\"}",
        "{\"username\":7,\"password\":\"long enough pass\"}"
    })
    void invalidUsersAnswer400(String body) {
        long before = Db.count("SELECT COUNT(*) FROM users");
        Http.Res r = admin.post("/admin/users", body);
        assertEquals(400, r.status(), r::toString);
        assertEquals("invalid_request", r.jsonString("error"));
        assertEquals(before, Db.count("SELECT COUNT(*) FROM users"));
    }

    @Test
    void adminChangesAreAuditedWithoutSecrets() {
        long since = System.currentTimeMillis() - 1000;
        Admin.TestClient c = admin.confidentialClient("openid", "https://audited.example.com/cb");
        admin.post("/admin/clients/" + c.clientId() + "/secret", "");
        admin.delete("/admin/clients/" + c.clientId());
        Admin.TestUser u = admin.user("audited passphrase");

        Http.Res r = admin.get("/admin/audit?since=" + since + "&limit=1000");
        assertEquals(200, r.status(), r::toString);
        for (String type : List.of("CLIENT_CREATED", "CLIENT_SECRET_ROTATED", "CLIENT_DELETED")) {
            assertTrue(r.body().contains("\"type\":\"" + type + "\",\"outcome\":\"success\",\"client_id\":\""
                    + c.clientId()), type + " recorded: " + r.body());
        }
        assertTrue(r.body().contains("\"subject\":\"" + u.username() + "\""));
        assertFalse(r.body().contains(c.secret()));
        assertFalse(r.body().contains("audited passphrase"));

        Http.Res onlyDeleted = admin.get("/admin/audit?type=CLIENT_DELETED&since=" + since);
        assertFalse(onlyDeleted.body().contains("CLIENT_CREATED"));
        assertTrue(onlyDeleted.body().contains(c.clientId()));

        Http.Res firstPage = admin.get("/admin/audit?since=" + since + "&limit=1");
        Object next = firstPage.json().get("next_after");
        assertNotNull(next, "a full page says where to continue");
        Http.Res secondPage = admin.get("/admin/audit?since=" + since + "&limit=1&after=" + next);
        assertFalse(secondPage.body().equals(firstPage.body()));

        assertEquals(400, admin.get("/admin/audit?type=NOPE").status());
        assertEquals(400, admin.get("/admin/audit?since=yesterday").status());
        assertEquals(400, admin.get("/admin/audit?limit=-1").status());
    }

    @Test
    void healthReportsDatabase() {
        Http.Res ready = http.get("/health/ready");
        assertEquals(200, ready.status(), ready::toString);
        assertTrue(ready.body().contains("\"database\""));
        assertEquals(200, http.get("/health/live").status());
    }

    @Test
    @Tag("mp-openapi") // served by the server's MicroProfile OpenAPI: Payara's; WildFly's standalone.xml has none
    void openApiDescribesAdminApi() {
        Http.Res r = http.get("/openapi");
        assertEquals(200, r.status());
        assertTrue(r.body().contains("/admin/clients"), r.body());
    }
}
