package dev.portcullis.account;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jwt.SignedJWT;
import com.nimbusds.oauth2.sdk.id.ClientID;
import com.nimbusds.oauth2.sdk.id.Issuer;
import com.nimbusds.openid.connect.sdk.Nonce;
import com.nimbusds.openid.connect.sdk.claims.IDTokenClaimsSet;
import com.nimbusds.openid.connect.sdk.op.OIDCProviderMetadata;
import com.nimbusds.openid.connect.sdk.validators.IDTokenValidator;
import dev.portcullis.testing.Admin;
import dev.portcullis.testing.Db;
import dev.portcullis.testing.Http;
import dev.portcullis.testing.ServerTestBase;
import dev.portcullis.testing.UserAgent;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A local user's groups over HTTP: set, changed and cleared through the admin API and the console, refused for a
 * directory user, and released under scope {@code groups} in the ID token (verified against the JWKS) and at userinfo.
 */
class UserGroupsIT extends ServerTestBase {

    private static final String PASSWORD = "correct horse battery";
    private static final String REDIRECT = "https://groups.example.com/cb";

    private final Admin admin = admin();
    private final Http http = http();

    private Admin.TestUser userWithGroups(String groupsJson) {
        String username = "grp" + Long.toHexString(System.nanoTime());
        Http.Res r = admin.post("/admin/users", "{\"username\":" + Http.q(username) + ",\"password\":"
                + Http.q(PASSWORD) + ",\"groups\":" + groupsJson + "}");
        assertEquals(201, r.status(), r::toString);
        return new Admin.TestUser(username, PASSWORD, r.jsonString("user_id"));
    }

    private List<?> groupsOf(String username) {
        Http.Res r = admin.get("/admin/users/" + username);
        assertEquals(200, r.status(), r::toString);
        return (List<?>) r.json().get("groups");
    }

    @Test
    void groupsAreCreatedSortedWithoutDuplicatesReplacedByAPatchAndClearedByNull() {
        Admin.TestUser u = userWithGroups("[\" staff\",\"payroll-admins\",\"staff \"]");
        assertEquals(List.of("payroll-admins", "staff"), groupsOf(u.username()));
        assertEquals("payroll-admins\nstaff", Db.rows("SELECT local_groups FROM users WHERE user_id = ?",
                u.userId()).get(0).get("local_groups"));

        Http.Res renamed = admin.patch("/admin/users/" + u.username(), "{\"name\":\"Grace\"}");
        assertEquals(200, renamed.status(), renamed::toString);
        assertEquals(List.of("payroll-admins", "staff"), renamed.json().get("groups"), "absent: left as it is");

        Http.Res replaced = admin.patch("/admin/users/" + u.username(), "{\"groups\":[\"ops\"]}");
        assertEquals(200, replaced.status(), replaced::toString);
        assertEquals(List.of("ops"), replaced.json().get("groups"));
        assertEquals("Grace", replaced.json().get("name"));
        assertEquals(1, Db.count("SELECT COUNT(*) FROM audit_events WHERE event_type = 'USER_UPDATED' "
                + "AND subject = ? AND detail LIKE '%groups%'", u.username()), "the change names the field");

        Http.Res cleared = admin.patch("/admin/users/" + u.username(), "{\"groups\":null}");
        assertEquals(200, cleared.status(), cleared::toString);
        assertEquals(List.of(), cleared.json().get("groups"));
        assertNull(Db.rows("SELECT local_groups FROM users WHERE user_id = ?", u.userId()).get(0).get("local_groups"));
        assertEquals(List.of(), groupsOf(admin.user(PASSWORD).username()), "a user created without groups has none");
    }

    @ParameterizedTest
    @ValueSource(strings = {"{\"groups\":[\"\"]}", "{\"groups\":[\"   \"]}", "{\"groups\":[\"tab\\there\"]}",
        "{\"groups\":[\"two\\nlines\"]}", "{\"groups\":\"staff\"}", "{\"groups\":[7]}", "{\"groups\":{}}",
        "{\"groups\":[\"LONG\"]}", "{\"groups\":MANY}", "{\"groups\":[\"ok\"],\"group\":[\"typo\"]}"})
    void invalidGroupsAnswer400AndChangeNothing(String template) {
        Admin.TestUser u = userWithGroups("[\"staff\"]");
        List<String> many = new ArrayList<>();
        for (int i = 0; i <= UserAdminService.MAX_GROUPS; i++) {
            many.add(Http.q("g" + i));
        }
        String body = template.replace("LONG", "x".repeat(UserAdminService.MAX_GROUP_NAME + 1))
                .replace("MANY", "[" + String.join(",", many) + "]");
        Http.Res r = admin.patch("/admin/users/" + u.username(), body);
        assertEquals(400, r.status(), r::toString);
        assertEquals("invalid_request", r.jsonString("error"));
        assertEquals(List.of("staff"), groupsOf(u.username()));
        Http.Res created = admin.post("/admin/users", "{\"username\":\"n" + Long.toHexString(System.nanoTime())
                + "\",\"password\":" + Http.q(PASSWORD) + "," + body.substring(1));
        assertEquals(400, created.status(), created::toString);
    }

    @Test
    void aDirectoryUsersGroupsAreTheDirectorysAndCannotBeSet() {
        String id = "dir-" + Long.toHexString(System.nanoTime());
        String username = "d" + Long.toHexString(System.nanoTime());
        Db.update("INSERT INTO users (user_id, username, source, directory_dn, directory_groups, created_at, "
                + "updated_at) VALUES (?, ?, 'ldap', ?, 'developers', 0, 0)", id, username, "uid=" + username);
        for (String body : List.of("{\"groups\":[\"staff\"]}", "{\"groups\":null}", "{\"groups\":[]}")) {
            Http.Res r = admin.patch("/admin/users/" + username, body);
            assertEquals(400, r.status(), r::toString);
            assertEquals("groups: a directory user's groups are the directory's", r.jsonString("error_description"));
        }
        Map<String, Object> row = Db.rows("SELECT * FROM users WHERE user_id = ?", id).get(0);
        assertEquals("developers", row.get("directory_groups"));
        assertNull(row.get("local_groups"));
        assertFalse(admin.get("/admin/users/" + username).json().containsKey("groups"), "as before: not shown");
    }

    @Test
    void scopeGroupsReleasesALocalUsersGroupsInTheIdTokenAndAtUserinfo() throws Exception {
        Admin.TestClient app = admin.withIdTokenClaims(admin.confidentialClient("openid profile groups", REDIRECT));
        Admin.TestUser u = userWithGroups("[\"staff\",\"payroll-admins\"]");

        SignedIn withScope = signIn(app, u, "openid groups");
        assertEquals(List.of("payroll-admins", "staff"), withScope.idToken().getStringListClaim("groups"));
        assertEquals(List.of("payroll-admins", "staff"), withScope.userinfo().get("groups"));

        SignedIn withoutScope = signIn(app, u, "openid profile");
        assertNull(withoutScope.idToken().getClaim("groups"));
        assertFalse(withoutScope.userinfo().containsKey("groups"));
        assertEquals(u.username(), withoutScope.userinfo().get("preferred_username"));

        admin.patch("/admin/users/" + u.username(), "{\"groups\":null}");
        SignedIn none = signIn(app, u, "openid groups");
        assertEquals(List.of(), none.idToken().getStringListClaim("groups"), "no groups: an empty list");
        assertEquals(List.of(), none.userinfo().get("groups"));
    }

    /** The verified ID token and the userinfo answer of one code flow. */
    private record SignedIn(IDTokenClaimsSet idToken, Map<String, Object> userinfo) {
    }

    /** The code flow through sign-in and consent, then the ID token verified as a relying party does. */
    private SignedIn signIn(Admin.TestClient app, Admin.TestUser u, String scope) throws Exception {
        String nonce = "n-" + Long.toHexString(System.nanoTime());
        Map<String, String> redirect = new UserAgent(BASE).authorizeAndGetRedirectParams(app, u,
                Map.of("scope", scope, "nonce", nonce));
        Http.Res token = http.postJson("/oauth/token", app.codeExchangeJson(redirect.get("code")));
        assertEquals(200, token.status(), token::toString);
        OIDCProviderMetadata meta = OIDCProviderMetadata.resolve(new Issuer(BASE));
        IDTokenValidator validator = new IDTokenValidator(meta.getIssuer(), new ClientID(app.clientId()),
                JWSAlgorithm.RS256, meta.getJWKSetURI().toURL());
        IDTokenClaimsSet id = validator.validate(SignedJWT.parse(token.jsonString("id_token")), new Nonce(nonce));
        assertEquals(u.userId(), id.getSubject().getValue());
        Http.Res info = http.get("/oauth/userinfo", "Authorization", "Bearer " + token.jsonString("access_token"));
        assertEquals(200, info.status(), info::toString);
        assertEquals(u.userId(), info.json().get("sub"));
        return new SignedIn(id, info.json());
    }

    @Test
    void theConsoleShowsAndEditsALocalUsersGroupsOneALine() {
        Admin.TestUser boss = admin.user(PASSWORD);
        assertEquals(200, admin.patch("/admin/users/" + boss.username(), "{\"roles\":[\"admin\"]}").status());
        Admin.TestUser u = userWithGroups("[\"staff\"]");
        String page = "/admin/console/user.xhtml?username=" + u.username();

        UserAgent ua = new UserAgent(BASE);
        Http.Res shown = ua.openSignedIn(page, boss);
        assertEquals(200, shown.status(), shown::toString);
        assertTrue(shown.body().contains("id=\"edit:groups\""), shown::body);
        Http.Res saved = saveGroups(ua, page, "ops, east\r\n  staff\r\n\r\nauditors\nops, east");
        assertEquals(303, saved.status(), saved::toString);
        assertEquals(List.of("auditors", "ops, east", "staff"), groupsOf(u.username()));
        assertTrue(ua.follow(saved).body().contains("auditors, ops, east, staff"));

        Http.Res refused = saveGroups(ua, page, "x".repeat(UserAdminService.MAX_GROUP_NAME + 1));
        assertTrue(refused.body().contains("id=\"message-text\""), refused::body);
        assertEquals(List.of("auditors", "ops, east", "staff"), groupsOf(u.username()));

        assertEquals(303, saveGroups(ua, page, "").status());
        assertEquals(List.of(), groupsOf(u.username()), "an empty field removes every group");

        String dirUser = "d" + Long.toHexString(System.nanoTime());
        Db.update("INSERT INTO users (user_id, username, source, directory_groups, created_at, updated_at) "
                + "VALUES (?, ?, 'ldap', 'developers', 0, 0)", "dir-" + dirUser, dirUser);
        Http.Res directory = ua.get("/admin/console/user.xhtml?username=" + dirUser);
        assertEquals(200, directory.status(), directory::toString);
        assertFalse(directory.body().contains("id=\"edit:groups\""), "the directory's groups are not edited here");
        assertTrue(directory.body().contains(">developers</dd>"), directory::body);
        Map<String, String> profile = UserAgent.formFields(directory.body(), "edit");
        profile.put("edit:submit", "x");
        assertEquals(303, ua.submit(directory.body(), "edit", profile).status(), "a directory user's profile saves");
        assertEquals("developers", Db.rows("SELECT directory_groups FROM users WHERE username = ?", dirUser).get(0)
                .get("directory_groups"));
    }

    /** Submits the console's profile form of {@code page} with {@code groups} in the groups field. */
    private static Http.Res saveGroups(UserAgent ua, String page, String groups) {
        String html = ua.get(page).body();
        Map<String, String> fields = UserAgent.formFields(html, "edit");
        fields.put("edit:groups", groups);
        fields.put("edit:submit", "x");
        return ua.submit(html, "edit", fields);
    }
}
