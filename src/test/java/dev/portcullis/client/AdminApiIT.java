package dev.portcullis.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.portcullis.crypto.Secrets;
import dev.portcullis.testing.Admin;
import dev.portcullis.testing.CodeFixture;
import dev.portcullis.testing.Db;
import dev.portcullis.testing.Http;
import dev.portcullis.testing.ServerTestBase;
import dev.portcullis.testing.UserAgent;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The admin API over HTTP: clients and users, every validation error, and what ends up in the database. */
class AdminApiIT extends ServerTestBase {

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
        // the list is oldest first and the run's other classes register clients too: walk every page
        boolean listed = false;
        for (int offset = 0; !listed; offset += 500) {
            Http.Res r = admin.get("/admin/clients?limit=500&offset=" + offset);
            assertEquals(200, r.status());
            // a field named client_secret, not the value client_secret_basic of token_endpoint_auth_method
            assertFalse(r.body().contains("\"client_secret\""));
            assertFalse(r.body().contains(c.secret()));
            listed = r.body().contains(c.clientId());
            if (!listed && !r.body().contains("\"client_id\"")) {
                break; // past the last page
            }
        }
        assertTrue(listed, "the new client is on one of the pages");
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

    @Test
    void builtInClientsCannotBeDeleted() {
        for (String id : List.of("portcullis-account", "portcullis-console")) {
            Http.Res r = admin.delete("/admin/clients/" + id);
            assertEquals(409, r.status(), r::toString);
            assertTrue(r.jsonString("error_description").contains("built-in"), r::toString);
            assertEquals(200, admin.get("/admin/clients/" + id).status());
        }
    }

    @Test
    @Tag("merge-patch")
    void builtInClientsCannotBeDisabledOrMadeConfidential() {
        for (String patch : List.of("{\"enabled\":false}", "{\"confidential\":true}")) {
            Http.Res r = admin.patch("/admin/clients/portcullis-console", patch);
            assertEquals(409, r.status(), r::toString);
        }
        Http.Res shown = admin.get("/admin/clients/portcullis-console");
        assertEquals(Boolean.TRUE, shown.json().get("enabled"), shown::toString);
        assertEquals(Boolean.FALSE, shown.json().get("confidential"), shown::toString);
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
    void everyApiCallWithoutTheAdminTokenIs401AndChangesNothing() {
        String identifier = "https://unauthorised-" + Long.toHexString(System.nanoTime()) + ".example.com";
        String body = "{\"identifier\":" + Http.q(identifier) + ",\"name\":\"X\",\"scopes\":[\"x"
                + Long.toHexString(System.nanoTime()) + ".read\"]}";
        long before = Db.count("SELECT COUNT(*) FROM apis");
        for (String[] headers : List.of(new String[0], new String[] {"Authorization", "Bearer wrong-token"})) {
            List<Http.Res> answers = List.of(http.get("/admin/apis", headers),
                    http.postJson("/admin/apis", body, headers),
                    http.get("/admin/apis/some-id", headers),
                    http.patch("/admin/apis/some-id", "application/merge-patch+json", "{\"name\":\"Y\"}", headers),
                    http.delete("/admin/apis/some-id", headers));
            for (Http.Res r : answers) {
                assertEquals(401, r.status(), r::toString);
                assertEquals("invalid_token", r.jsonString("error"));
            }
        }
        assertEquals(before, Db.count("SELECT COUNT(*) FROM apis"));
        assertEquals(0, Db.count("SELECT COUNT(*) FROM apis WHERE identifier = ?", identifier));
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

    // ---- users, sessions, grants, client changes, roles -----------------------------------------------------------

    /** A code redeemed for tokens (openid profile), without the browser. */
    private Http.Res tokensFor(Admin.TestClient c, Admin.TestUser u) {
        String code = CodeFixture.issue(c.clientId(), u.userId(), c.redirectUri(), "openid profile", null, null);
        Http.Res tokens = http.postJson("/oauth/token", c.codeExchangeJson(code));
        assertEquals(200, tokens.status(), tokens::toString);
        return tokens;
    }

    private Http.Res refresh(Admin.TestClient c, Http.Res tokens) {
        return http.postForm("/oauth/token", Map.of("grant_type", "refresh_token", "refresh_token",
                tokens.jsonString("refresh_token"), "client_id", c.clientId(), "client_secret", c.secret()));
    }

    private int userinfo(Http.Res tokens) {
        return http.get("/oauth/userinfo", "Authorization", "Bearer " + tokens.jsonString("access_token")).status();
    }

    private Object introspectionActive(Admin.TestClient c, Http.Res tokens, String which) {
        return http.postForm("/oauth/introspect", Map.of("token", tokens.jsonString(which), "client_id",
                c.clientId(), "client_secret", c.secret())).json().get("active");
    }

    private Admin.TestUser namedUser(String username, String email, String name) {
        Http.Res r = admin.post("/admin/users", "{\"username\":" + Http.q(username) + ",\"password\":\"a passphrase\""
                + ",\"email\":" + Http.q(email) + ",\"name\":" + Http.q(name) + "}");
        assertEquals(201, r.status(), r::toString);
        return new Admin.TestUser(username, "a passphrase", r.jsonString("user_id"));
    }

    @SuppressWarnings("unchecked")
    private static List<String> usernames(Http.Res page) {
        return ((List<Map<String, Object>>) page.json().get("users")).stream()
                .map(u -> (String) u.get("username")).toList();
    }

    @Test
    void usersAreSearchedCaseInsensitivelyInPagesAndWildcardsMatchThemselves() {
        String tag = Long.toHexString(System.nanoTime());
        namedUser("a" + tag, "a" + tag + "@example.com", "Ann Search");
        namedUser("b" + tag, "bee@" + tag + ".example.com", "Ben 100% Search");
        namedUser("c" + tag, "c@example.com", "Cy_" + tag.toUpperCase());
        namedUser("d" + tag + "x", "d@example.com", "Dee");

        Http.Res first = admin.get("/admin/users?q=" + tag.toUpperCase() + "&limit=2");
        assertEquals(200, first.status(), first::toString);
        assertEquals(List.of("a" + tag, "b" + tag), usernames(first), "username, e-mail, any case, username order");
        assertEquals("b" + tag, first.jsonString("next_after"));
        Http.Res second = admin.get("/admin/users?q=" + tag + "&limit=2&after=" + first.jsonString("next_after"));
        assertEquals(List.of("c" + tag, "d" + tag + "x"), usernames(second), "name, and the rest");

        assertEquals(List.of("b" + tag), usernames(admin.get("/admin/users?q=" + Http.enc("100% search")
                + "&limit=500")).stream().filter(n -> n.contains(tag)).toList(), "% matches only itself");
        assertEquals(List.of("c" + tag), usernames(admin.get("/admin/users?q=" + Http.enc("y_" + tag)))
                .stream().toList(), "_ matches only itself");
        assertTrue(usernames(admin.get("/admin/users?q=" + Http.enc("%" + tag))).isEmpty());
        Http.Res all = admin.get("/admin/users?limit=500");
        assertTrue(usernames(all).containsAll(List.of("a" + tag, "d" + tag + "x")), "no q: everyone");
        assertTrue(all.body().contains("\"enabled\":true") && !all.body().contains("password"), all.body());

        for (String bad : List.of("limit=0", "limit=501", "limit=x", "after=a%20b", "after=%00",
                "q=" + "q".repeat(201))) {
            Http.Res r = admin.get("/admin/users?" + bad);
            assertEquals(400, r.status(), bad + ": " + r);
            assertEquals("invalid_request", r.jsonString("error"));
        }
    }

    @Test
    void aMergePatchChangesOnlyTheNamedFieldsAndRefusesBadOnesWhole() {
        Admin.TestUser u = admin.user("patched passphrase");
        Http.Res r = admin.patch("/admin/users/" + u.username(), "{\"name\":\"Renamed\",\"email\":null}");
        assertEquals(200, r.status(), r::toString);
        assertEquals("Renamed", r.jsonString("name"));
        assertNull(r.json().get("email"), "null removes it (RFC 7396)");
        Map<String, Object> row = Db.rows("SELECT name, email, enabled FROM users WHERE user_id = ?", u.userId()).get(0);
        assertEquals("Renamed", row.get("name"));
        assertNull(row.get("email"));
        assertEquals(true, row.get("enabled"));

        Http.Res plain = http.patch("/admin/users/" + u.username(), "application/json",
                "{\"email\":\"new@example.com\"}", "Authorization", admin.authorization());
        assertEquals(200, plain.status(), "application/json is accepted too: " + plain);
        assertEquals("Renamed", plain.jsonString("name"), "absent members stay");

        for (String bad : List.of("{\"enabled\":\"false\"}", "{\"enabled\":null}", "{\"email\":5}",
                "{\"email\":\"not-an-email\"}", "{\"name\":\"x\",\"name\":\"y\"}", "{\"username\":\"x\"}",
                "{\"password_hash\":\"x\"}", "{\"roles\":\"admin\"}", "{\"roles\":[\"root\"]}",
                "{\"name\":\"ok\",\"enabled\":false,\"roles\":[7]}", "[]", "{")) {
            Http.Res refused = admin.patch("/admin/users/" + u.username(), bad);
            assertEquals(400, refused.status(), bad + ": " + refused);
            assertEquals("invalid_request", refused.jsonString("error"));
        }
        Map<String, Object> after = Db.rows("SELECT name, email, enabled FROM users WHERE user_id = ?",
                u.userId()).get(0);
        assertEquals(List.of("Renamed", "new@example.com", true),
                List.of(after.get("name"), after.get("email"), after.get("enabled")), "nothing half-applied");
        assertEquals(415, http.patch("/admin/users/" + u.username(), "text/plain", "{}", "Authorization",
                admin.authorization()).status());
        assertEquals(404, admin.patch("/admin/users/nobody-" + u.username(), "{\"name\":\"x\"}").status());
        assertEquals(401, http.patch("/admin/users/" + u.username(), "application/merge-patch+json",
                "{\"enabled\":false}").status());
    }

    @Test
    void disablingAUserEndsSessionsCodesAndTokensAtOnceAndSignInSaysOnlyInvalid() {
        Admin.TestClient rp = admin.confidentialClient("openid profile", "https://app.example.com/cb");
        Admin.TestUser user = admin.user("disabled passphrase");
        UserAgent browser = new UserAgent(BASE);
        browser.authorizeAndGetRedirectParams(rp, user, Map.of());
        Http.Res tokens = tokensFor(rp, user);
        // the browser's code was never redeemed: with this one, two codes are pending
        String pendingCode = CodeFixture.issue(rp.clientId(), user.userId(), rp.redirectUri(), "openid", null, null);
        assertEquals(200, userinfo(tokens));

        Http.Res r = admin.patch("/admin/users/" + user.username(), "{\"enabled\":false}");
        assertEquals(200, r.status(), r::toString);
        assertEquals(false, r.json().get("enabled"));

        Http.Res refreshed = refresh(rp, tokens);
        assertEquals(400, refreshed.status(), refreshed::toString);
        assertEquals("invalid_grant", refreshed.jsonString("error"));
        assertEquals(401, userinfo(tokens), "the access token is rejected at once");
        assertEquals(false, introspectionActive(rp, tokens, "access_token"));
        assertEquals(false, introspectionActive(rp, tokens, "refresh_token"));
        assertEquals(400, http.postJson("/oauth/token", rp.codeExchangeJson(pendingCode)).status(),
                "a code issued before cannot open a new family");
        assertEquals(0, Db.count("SELECT COUNT(*) FROM sso_sessions WHERE user_id = ?", user.userId()));

        UserAgent again = new UserAgent(BASE);
        Http.Res login = again.follow(again.authorize(Map.of("client_id", rp.clientId(), "redirect_uri",
                rp.redirectUri(), "response_type", "code", "scope", "openid", "state", "s")));
        Http.Res answer = again.signIn(login, user.username(), user.password());
        assertTrue(answer.header("Location") == null || !answer.header("Location").startsWith(rp.redirectUri()),
                answer::toString);
        UserAgent wrong = new UserAgent(BASE);
        Http.Res wrongAnswer = wrong.signIn(wrong.follow(wrong.authorize(Map.of("client_id", rp.clientId(),
                "redirect_uri", rp.redirectUri(), "response_type", "code", "scope", "openid", "state", "s"))),
                user.username(), "not the passphrase");
        assertEquals(wrongAnswer.status(), answer.status(), "the same answer as a wrong password");
        assertTrue(wrongAnswer.body().contains("Invalid username or password."), wrongAnswer::toString);
        assertTrue(answer.body().contains("Invalid username or password."), answer::toString);
        assertEquals(1, Db.count("SELECT COUNT(*) FROM audit_events WHERE event_type = 'SIGN_IN_FAILURE' "
                + "AND subject = ? AND detail = 'account disabled'", user.username()));
        String detail = (String) Db.rows("SELECT detail, actor FROM audit_events WHERE event_type = 'USER_UPDATED' "
                + "AND subject = ? AND actor = 'admin-token'", user.username()).get(0).get("detail");
        assertTrue(detail.contains("enabled=false") && detail.contains("1 SSO session ended")
                && detail.contains("1 token grant revoked") && detail.contains("2 authorization codes expired"), detail);

        assertEquals(200, admin.patch("/admin/users/" + user.username(), "{\"enabled\":true}").status());
        assertEquals(401, userinfo(tokens), "enabling again revives no token");
        assertEquals(200, userinfo(tokensFor(rp, user)), "but new sign-ins work");
    }

    @Test
    void unlockClearsTheAccountsThrottle() {
        Admin.TestUser u = admin.user("locked passphrase");
        long now = System.currentTimeMillis() / 1000;
        Db.update("INSERT INTO login_throttle (throttle_key, failures, first_failure_at, locked_until) "
                + "VALUES (?, 5, ?, ?)", "user:" + u.username(), now, now + 300);
        Db.update("INSERT INTO second_factor_throttle (user_id, failures, first_failure_at, locked_until) "
                + "VALUES (?, 5, ?, ?)", u.userId(), now, now + 300);
        assertEquals(204, admin.post("/admin/users/" + u.username().toUpperCase() + "/unlock", "").status());
        assertEquals(0, Db.count("SELECT COUNT(*) FROM login_throttle WHERE throttle_key = ?", "user:" + u.username()));
        assertEquals(0, Db.count("SELECT COUNT(*) FROM second_factor_throttle WHERE user_id = ?", u.userId()));
        assertEquals(1, Db.count("SELECT COUNT(*) FROM audit_events WHERE event_type = 'USER_UNLOCKED' "
                + "AND subject = ? AND detail = 'throttle cleared'", u.username()));
        assertEquals(404, admin.post("/admin/users/nobody-" + u.username() + "/unlock", "").status());
    }

    @Test
    void theAdminRoleIsGrantedAndRemovedByPatchingRoles() {
        Admin.TestUser u = admin.user("admin passphrase");
        Http.Res granted = admin.patch("/admin/users/" + u.username(), "{\"roles\":[\"admin\"]}");
        assertEquals(200, granted.status(), granted::toString);
        assertEquals(List.of("admin"), granted.json().get("roles"));
        assertEquals("admin", Db.rows("SELECT roles FROM users WHERE user_id = ?", u.userId()).get(0).get("roles"));
        assertEquals(List.of("admin"), admin.get("/admin/users/" + u.username()).json().get("roles"));
        Http.Res removed = admin.patch("/admin/users/" + u.username(), "{\"roles\":null}");
        assertEquals(List.of(), removed.json().get("roles"));
        assertEquals(1, Db.count("SELECT COUNT(*) FROM audit_events WHERE event_type = 'USER_UPDATED' "
                + "AND subject = ? AND detail = 'roles=[admin]'", u.username()));
    }

    @SuppressWarnings("unchecked")
    @Test
    void sessionsAreListedWithUserClientAndAddressAndEndedByAnOpaqueId() {
        Admin.TestClient rp = admin.confidentialClient("openid", "https://sessions.example.com/cb");
        Admin.TestUser user = admin.user("session passphrase");
        UserAgent browser = new UserAgent(BASE);
        browser.authorizeAndGetRedirectParams(rp, user, Map.of());
        String cookie = browser.cookie("portcullis_session").orElseThrow();

        Http.Res listed = admin.get("/admin/sessions?user=" + user.username());
        assertEquals(200, listed.status(), listed::toString);
        List<Map<String, Object>> sessions = (List<Map<String, Object>>) listed.json().get("sessions");
        assertEquals(1, sessions.size(), listed::toString);
        Map<String, Object> s = sessions.get(0);
        String id = (String) s.get("session_id");
        assertEquals(user.username(), s.get("username"));
        assertEquals(List.of(Map.of("client_id", rp.clientId(), "client_name", rp.name())), s.get("clients"));
        assertNotNull(s.get("ip"));
        assertNotNull(s.get("created_at"));
        assertNotNull(s.get("last_used_at"));
        assertFalse(listed.body().contains(cookie) || listed.body().contains(Secrets.hash(cookie)),
                "neither the cookie nor its hash is shown");
        assertTrue(admin.get("/admin/sessions?limit=500").body().contains(id), "in the list of all sessions");

        assertEquals(204, admin.delete("/admin/sessions/" + id).status());
        Http.Res again = browser.authorize(Map.of("client_id", rp.clientId(), "redirect_uri", rp.redirectUri(),
                "response_type", "code", "scope", "openid", "state", "s"));
        assertFalse(again.header("Location").startsWith(rp.redirectUri()), "signed out: " + again);
        assertEquals(404, admin.delete("/admin/sessions/" + id).status());
        assertEquals(1, Db.count("SELECT COUNT(*) FROM audit_events WHERE event_type = 'SESSION_ENDED' "
                + "AND subject = ? AND actor = 'admin-token'", user.username()));

        new UserAgent(BASE).authorizeAndGetRedirectParams(rp, user, Map.of());
        new UserAgent(BASE).authorizeAndGetRedirectParams(rp, user, Map.of());
        Http.Res ended = http.delete("/admin/sessions?user=" + user.username(), "Authorization", admin.authorization());
        assertEquals(200, ended.status(), ended::toString);
        assertEquals(2, ((Number) ended.json().get("ended")).intValue());
        assertEquals(404, admin.get("/admin/sessions?user=nobody-" + user.username()).status());
        assertEquals(400, http.delete("/admin/sessions", "Authorization", admin.authorization()).status());
        assertEquals(400, admin.get("/admin/sessions?after=a%2Fb").status());
        assertEquals(400, admin.get("/admin/sessions?limit=0").status());
    }

    @Test
    void aUsersGrantsAreListedAndRevokedWithTheirTokens() {
        Admin.TestClient rp = admin.confidentialClient("openid profile", "https://grants.example.com/cb");
        Admin.TestUser user = admin.user("grant passphrase");
        Http.Res tokens = tokensFor(rp, user);
        Http.Res grants = admin.get("/admin/users/" + user.username() + "/grants");
        assertEquals(200, grants.status(), grants::toString);
        assertTrue(grants.body().contains("\"client_id\":\"" + rp.clientId() + "\"") && grants.body().contains(rp.name()),
                grants::toString);

        assertEquals(204, admin.delete("/admin/users/" + user.username() + "/grants/" + rp.clientId()).status());
        assertEquals(401, userinfo(tokens));
        assertEquals(400, refresh(rp, tokens).status());
        assertEquals("{\"grants\":[]}", admin.get("/admin/users/" + user.username() + "/grants").body());
        assertEquals(404, admin.delete("/admin/users/" + user.username() + "/grants/" + rp.clientId()).status());
        assertEquals(404, admin.get("/admin/users/nobody-" + user.username() + "/grants").status());
    }

    @Test
    void aClientPatchIsValidatedAsARegistrationAndItsTypeChangesOnlyWhenNamed() {
        Admin.TestClient c = admin.confidentialClient("openid profile", "https://edit.example.com/cb");
        Admin.TestUser user = admin.user("client passphrase");
        Http.Res r = admin.patch("/admin/clients/" + c.clientId(), "{\"client_name\":\"Edited\",\"redirect_uris\":"
                + "[\"https://edit.example.com/cb2\"],\"post_logout_redirect_uris\":[\"https://edit.example.com/bye\"],"
                + "\"scopes\":\"openid email\",\"skip_consent\":true}");
        assertEquals(200, r.status(), r::toString);
        assertEquals("Edited", r.jsonString("client_name"));
        assertEquals(List.of("https://edit.example.com/cb2"), r.json().get("redirect_uris"));
        assertEquals("openid email", r.jsonString("scopes"));
        assertEquals(true, r.json().get("confidential"), "not named, not changed");
        assertNull(r.json().get("client_secret"));

        for (String bad : List.of("{\"redirect_uris\":[\"com.example.app:/cb\"]}", "{\"client_name\":null}",
                "{\"confidential\":null}", "{\"confidential\":\"no\"}", "{\"scopes\":\"openid admin\"}",
                "{\"client_secret\":\"mine\"}", "{\"redirect_uris\":[]}", "{\"enabled\":1}")) {
            Http.Res refused = admin.patch("/admin/clients/" + c.clientId(), bad);
            assertEquals(400, refused.status(), bad + ": " + refused);
        }
        assertEquals("Edited", admin.get("/admin/clients/" + c.clientId()).jsonString("client_name"));

        Admin.TestClient edited = new Admin.TestClient(c.clientId(), c.secret(), "https://edit.example.com/cb2", "Edited");
        Http.Res tokens = tokensFor(edited, user);
        Http.Res toPublic = admin.patch("/admin/clients/" + c.clientId(),
                "{\"confidential\":false,\"redirect_uris\":[\"com.example.edit:/cb\"]}");
        assertEquals(200, toPublic.status(), toPublic::toString);
        assertEquals(false, toPublic.json().get("confidential"));
        assertNull(Db.rows("SELECT secret_hash FROM clients WHERE client_id = ?", c.clientId()).get(0).get("secret_hash"));
        assertEquals(401, userinfo(tokens), "tokens bound to the secret are revoked with it");

        Http.Res toConfidential = admin.patch("/admin/clients/" + c.clientId(),
                "{\"confidential\":true,\"redirect_uris\":[\"https://edit.example.com/cb2\"]}");
        assertEquals(200, toConfidential.status(), toConfidential::toString);
        String secret = toConfidential.jsonString("client_secret");
        assertNotNull(secret, "the new secret is shown once");
        assertEquals("no-store", toConfidential.header("Cache-Control"));
        assertEquals(Secrets.hash(secret),
                Db.rows("SELECT secret_hash FROM clients WHERE client_id = ?", c.clientId()).get(0).get("secret_hash"));
        assertNull(admin.get("/admin/clients/" + c.clientId()).json().get("client_secret"));
        assertEquals(404, admin.patch("/admin/clients/no-such-client", "{\"client_name\":\"x\"}").status());
        assertEquals(1, Db.count("SELECT COUNT(*) FROM audit_events WHERE event_type = 'CLIENT_UPDATED' "
                + "AND client_id = ? AND detail LIKE '%made public (secret deleted)%' AND actor = 'admin-token'", c.clientId()));
    }

    @Test
    void aDisabledClientIsRefusedAtAuthorizeAndTokenAndItsTokensStop() {
        Admin.TestClient rp = admin.confidentialClient("openid profile", "https://disabled.example.com/cb");
        Admin.TestUser user = admin.user("client off passphrase");
        Http.Res tokens = tokensFor(rp, user);
        Http.Res r = admin.patch("/admin/clients/" + rp.clientId(), "{\"enabled\":false}");
        assertEquals(200, r.status(), r::toString);
        assertEquals(false, r.json().get("enabled"));

        Http.Res refreshed = refresh(rp, tokens);
        assertEquals(401, refreshed.status(), refreshed::toString);
        assertEquals("invalid_client", refreshed.jsonString("error"));
        assertEquals(401, userinfo(tokens), "its access tokens stop at once");
        Http.Res authorize = new UserAgent(BASE).authorize(Map.of("client_id", rp.clientId(), "redirect_uri",
                rp.redirectUri(), "response_type", "code", "scope", "openid", "state", "s"));
        Map<String, String> back = Http.query(authorize.header("Location"));
        assertTrue(authorize.header("Location").startsWith(rp.redirectUri()), authorize::toString);
        assertEquals("unauthorized_client", back.get("error"));

        assertEquals(200, admin.patch("/admin/clients/" + rp.clientId(), "{\"enabled\":true}").status());
        assertEquals(200, userinfo(tokensFor(rp, user)), "enabled again, new tokens work");
    }

    @Test
    @Tag("mp-openapi")
    void openApiDescribesEveryAdminOperationWithSchemas() {
        Http.Res r = http.get("/openapi");
        assertEquals(200, r.status());
        for (String expected : List.of("/admin/users/{username}/grants/{client_id}", "/admin/users/{username}/unlock",
                "/admin/sessions/{session_id}", "/admin/sessions", "application/merge-patch+json", "patch:",
                "UserPatch", "ClientPatch", "SessionPage", "UserPage", "next_after", "Change a client application",
                "ApiPatch", "exchange_scopes", "access_token_typ")) {
            assertTrue(r.body().contains(expected), expected + " in " + r.body());
        }
    }

    // ---- APIs (RFC 8707 resource indicators) ----------------------------------------------------------------------

    /** A new API's JSON with a unique identifier and scopes {@code <tag>.read <tag>.write}. */
    private static String apiJson(String tag) {
        return "{\"identifier\":\"https://" + tag + ".corp.example\",\"name\":\"API " + tag + "\",\"scopes\":[\""
                + tag + ".read\",\"" + tag + ".write\"]}";
    }

    @Test
    void apiLifecycleIsValidatedAndAudited() {
        long since = System.currentTimeMillis() - 1000;
        String tag = "payroll-" + Long.toHexString(System.nanoTime());
        Http.Res created = admin.post("/admin/apis", apiJson(tag));
        assertEquals(201, created.status(), created::toString);
        String id = created.jsonString("id");
        assertTrue(created.header("Location").endsWith("/admin/apis/" + id), created::toString);
        assertEquals("https://" + tag + ".corp.example", created.jsonString("identifier"));
        assertEquals(List.of(tag + ".read", tag + ".write"), created.json().get("scopes"));
        assertTrue(created.json().containsKey("access_token_signing_alg"));
        assertNull(created.json().get("access_token_signing_alg"), "the global default");

        assertEquals(200, admin.get("/admin/apis/" + id).status());
        assertTrue(admin.get("/admin/apis").body().contains("\"id\":\"" + id + "\""));
        assertEquals(404, admin.get("/admin/apis/nope").status());
        assertEquals(404, admin.patch("/admin/apis/nope", "{\"name\":\"x\"}").status());
        assertEquals(404, admin.delete("/admin/apis/nope").status());

        Http.Res changed = admin.patch("/admin/apis/" + id, "{\"name\":\"Payroll\",\"access_token_signing_alg\":"
                + "\"PS256\",\"scopes\":[\"" + tag + ".read\",\"" + tag + ".admin\"]}");
        assertEquals(200, changed.status(), changed::toString);
        assertEquals("PS256", changed.jsonString("access_token_signing_alg"));
        assertEquals(List.of(tag + ".read", tag + ".admin"), changed.json().get("scopes"));
        Http.Res back = admin.patch("/admin/apis/" + id, "{\"access_token_signing_alg\":null}");
        assertNull(back.json().get("access_token_signing_alg"), back::toString);
        assertEquals("Payroll", back.jsonString("name"), "what the patch does not name stays");

        // a client may hold the API's scopes; while it does, they cannot be taken away
        Admin.TestClient c = admin.confidentialClient("openid " + tag + ".read", "https://app.example.com/cb");
        Http.Res inUse = admin.delete("/admin/apis/" + id);
        assertEquals(409, inUse.status(), inUse::toString);
        assertEquals("conflict", inUse.jsonString("error"));
        assertTrue(inUse.jsonString("error_description").contains(c.clientId()), inUse::toString);
        assertEquals(409, admin.patch("/admin/apis/" + id, "{\"scopes\":[\"" + tag + ".admin\"]}").status());
        assertEquals(200, admin.patch("/admin/clients/" + c.clientId(), "{\"scopes\":\"openid\"}").status());
        assertEquals(204, admin.delete("/admin/apis/" + id).status());
        assertEquals(404, admin.get("/admin/apis/" + id).status());
        assertEquals(400, admin.patch("/admin/clients/" + c.clientId(), "{\"scopes\":\"openid " + tag + ".read\"}")
                .status(), "the scope went with its API");

        Http.Res audit = admin.get("/admin/audit?since=" + since + "&limit=1000");
        for (String type : List.of("API_CREATED", "API_UPDATED", "API_DELETED")) {
            assertTrue(audit.body().contains("\"type\":\"" + type + "\""), type + ": " + audit.body());
        }
        assertEquals(0, Db.count("SELECT COUNT(*) FROM apis WHERE api_id = ?", id));
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "{\"identifier\":\"https://x.corp.example\",\"name\":\"X\",\"scopes\":[\"x.read\"],\"extra\":1}",
        "{\"identifier\":\"http://x.corp.example\",\"name\":\"X\",\"scopes\":[\"x.read\"]}",
        "{\"identifier\":\"https://x.corp.example#f\",\"name\":\"X\",\"scopes\":[\"x.read\"]}",
        "{\"identifier\":\"x.corp.example\",\"name\":\"X\",\"scopes\":[\"x.read\"]}",
        "{\"identifier\":\"https://x.corp.example\",\"name\":\"X\",\"scopes\":[]}",
        "{\"identifier\":\"https://x.corp.example\",\"name\":\"X\",\"scopes\":[\"profile\"]}",
        "{\"identifier\":\"https://x.corp.example\",\"name\":\"X\",\"scopes\":[\"x read\"]}",
        "{\"identifier\":\"https://x.corp.example\",\"name\":\"X\",\"scopes\":\"x.read\"}",
        "{\"identifier\":\"https://x.corp.example\",\"name\":\"\",\"scopes\":[\"x.read\"]}",
        "{\"identifier\":\"https://x.corp.example\",\"name\":\"X\",\"scopes\":[\"x.read\"],"
                + "\"access_token_signing_alg\":\"HS256\"}",
        "{\"name\":\"X\",\"scopes\":[\"x.read\"]}",
        "[]"})
    void invalidApisAnswer400AndStoreNothing(String body) {
        long before = Db.count("SELECT COUNT(*) FROM apis");
        Http.Res r = admin.post("/admin/apis", body);
        assertEquals(400, r.status(), r::toString);
        assertEquals("invalid_request", r.jsonString("error"), r::toString);
        assertEquals(before, Db.count("SELECT COUNT(*) FROM apis"));
    }

    @Test
    void identifiersAndScopesAreUnique() {
        String tag = "ledger-" + Long.toHexString(System.nanoTime());
        assertEquals(201, admin.post("/admin/apis", apiJson(tag)).status());
        Http.Res sameIdentifier = admin.post("/admin/apis", "{\"identifier\":\"https://" + tag + ".corp.example\","
                + "\"name\":\"Other\",\"scopes\":[\"" + tag + ".other\"]}");
        assertEquals(409, sameIdentifier.status(), sameIdentifier::toString);
        Http.Res sameScope = admin.post("/admin/apis", "{\"identifier\":\"https://other-" + tag + ".corp.example\","
                + "\"name\":\"Other\",\"scopes\":[\"" + tag + ".read\"]}");
        assertEquals(400, sameScope.status(), sameScope::toString);
        Http.Res own = admin.post("/admin/apis", "{\"identifier\":" + Http.q(BASE + "/api")
                + ",\"name\":\"Own\",\"scopes\":[\"" + tag + ".own\"]}");
        assertEquals(400, own.status(), "Portcullis's own API is not registered: " + own);
        Http.Res unknownField = admin.patch("/admin/apis/x", "{\"audience\":\"y\"}");
        assertEquals(400, unknownField.status(), unknownField::toString);
    }

    @Test
    void clientsMayHoldAnApisScopesButNoUnknownScope() {
        String tag = "hr-" + Long.toHexString(System.nanoTime());
        Http.Res refused = admin.post("/admin/clients", "{\"client_name\":\"HR\",\"redirect_uris\":"
                + "[\"https://hr.example.com/cb\"],\"scopes\":\"openid " + tag + ".read\"}");
        assertEquals(400, refused.status(), refused::toString);
        assertEquals(201, admin.post("/admin/apis", apiJson(tag)).status());
        Http.Res held = admin.post("/admin/clients", "{\"client_name\":\"HR\",\"redirect_uris\":"
                + "[\"https://hr.example.com/cb\"],\"scopes\":\"openid " + tag + ".read\"}");
        assertEquals(201, held.status(), held::toString);
        assertEquals("openid " + tag + ".read", held.jsonString("scopes"));
    }
}
