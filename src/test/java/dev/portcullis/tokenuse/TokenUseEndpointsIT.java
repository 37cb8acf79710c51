package dev.portcullis.tokenuse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import dev.portcullis.app.AdminApplication;
import dev.portcullis.crypto.EncryptionKeys;
import dev.portcullis.testing.Admin;
import dev.portcullis.testing.CodeFixture;
import dev.portcullis.testing.Db;
import dev.portcullis.testing.Http;
import dev.portcullis.testing.ServerTestBase;
import dev.portcullis.testing.UserAgent;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HttpMethod;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import java.lang.reflect.Method;
import java.net.http.HttpRequest;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Date;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The resource side end to end: bearer-token presentation (RFC 6750), userinfo, revocation (RFC 7009),
 * introspection (RFC 7662), the /api/v1 surface and its declared delegability, the sweep over every admin endpoint
 * with a real user access token, and RP-initiated logout.
 */
class TokenUseEndpointsIT extends ServerTestBase {

    private static final String REDIRECT = "https://rp.example.com/cb";
    private static final String LOGOUT_TARGET = "https://rp.example.com/signed-out";
    private static final String ALL = "openid profile email read_user api";

    private final Http http = http();
    private final Admin admin = admin();

    private static Admin.TestClient client;
    private static Admin.TestClient other;
    private static Admin.TestClient spa;
    private static Admin.TestUser user;

    @BeforeEach
    synchronized void fixtures() {
        if (client == null) {
            client = admin.confidentialClient(ALL, REDIRECT);
            other = admin.confidentialClient(ALL, REDIRECT);
            spa = admin.publicClient(ALL, REDIRECT);
            user = admin.user("correct horse battery");
        }
    }

    /** A token response for {@code c} (confidential or public) and {@code scope}, via a stored code. */
    private Map<String, Object> tokens(Admin.TestClient c, String scope) {
        fixtures();
        String verifier = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk";
        String code = CodeFixture.issue(c.clientId(), user.userId(), REDIRECT, scope, null,
                c.secret() == null ? "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM" : null);
        Map<String, String> f = new LinkedHashMap<>(Map.of("grant_type", "authorization_code", "code", code,
                "redirect_uri", REDIRECT, "client_id", c.clientId()));
        if (c.secret() != null) {
            f.put("client_secret", c.secret());
        } else {
            f.put("code_verifier", verifier);
        }
        Http.Res r = http.postForm("/oauth/token", f);
        assertEquals(200, r.status(), r::toString);
        return r.json();
    }

    private String accessToken(Admin.TestClient c, String scope) {
        return (String) tokens(c, scope).get("access_token");
    }

    private static String bearer(String token) {
        return "Bearer " + token;
    }

    private Http.Res userinfo(String token) {
        return http.get("/oauth/userinfo", "Authorization", bearer(token));
    }

    private Http.Res introspect(Admin.TestClient c, String token) {
        return http.postForm("/oauth/introspect", Map.of("token", token, "client_id", c.clientId(),
                "client_secret", c.secret()));
    }

    private Http.Res revoke(Admin.TestClient c, Map<String, String> extra) {
        Map<String, String> f = new LinkedHashMap<>(extra);
        f.put("client_id", c.clientId());
        if (c.secret() != null) {
            f.put("client_secret", c.secret());
        }
        return http.postForm("/oauth/revoke", f);
    }

    private static void assertError(Http.Res r, int status, String error) {
        assertEquals(status, r.status(), r::toString);
        assertEquals(error, r.jsonString("error"), r::toString);
        assertNotNull(r.jsonString("error_description"), r::toString);
    }

    // ---- userinfo ----

    @Test
    void userinfoReturnsTheClaimsOfTheGrantedScopes() {
        fixtures();
        Http.Res all = userinfo(accessToken(client, "openid profile email"));
        assertEquals(200, all.status(), all::toString);
        assertEquals("no-store", all.header("Cache-Control"));
        Map<String, Object> claims = all.json();
        assertEquals(user.userId(), claims.get("sub"));
        assertEquals(user.username(), claims.get("preferred_username"));
        assertEquals("Test " + user.username(), claims.get("name"));
        assertEquals(user.username() + "@example.com", claims.get("email"));
        assertEquals(Boolean.FALSE, claims.get("email_verified"));

        Map<String, Object> openidOnly = userinfo(accessToken(client, "openid")).json();
        assertEquals(Set.of("sub"), openidOnly.keySet());

        Map<String, Object> profile = userinfo(accessToken(client, "openid profile")).json();
        assertEquals(Set.of("sub", "preferred_username", "name", "updated_at"), profile.keySet());
    }

    @Test
    void userinfoAcceptsTheTokenInAFormBodyAndByPost() {
        String token = accessToken(client, "openid email");
        Http.Res form = http.postForm("/oauth/userinfo", Map.of("access_token", token));
        assertEquals(200, form.status(), form::toString);
        assertEquals(user.userId(), form.jsonString("sub"));
        Http.Res header = http.post("/oauth/userinfo", null, "", "Authorization", bearer(token));
        assertEquals(200, header.status(), header::toString);
        assertEquals(user.username() + "@example.com", header.jsonString("email"));
    }

    @Test
    void userinfoErrorRows() {
        String token = accessToken(client, "openid");
        Http.Res none = http.get("/oauth/userinfo");
        assertError(none, 401, "invalid_token");
        assertEquals("Bearer realm=\"portcullis\"", none.header("WWW-Authenticate"), "RFC 6750 3.1: no error code");

        Http.Res basic = http.get("/oauth/userinfo", "Authorization", "Basic dXNlcjpwdw==");
        assertError(basic, 401, "invalid_token");

        Http.Res garbage = userinfo("not-a-token");
        assertError(garbage, 401, "invalid_token");
        assertEquals("Bearer error=\"invalid_token\"", garbage.header("WWW-Authenticate"));

        Http.Res malformed = http.get("/oauth/userinfo", "Authorization", "Bearer a b");
        assertError(malformed, 400, "invalid_request");

        String forged = token.substring(0, token.lastIndexOf('.') + 1) + "AAAA" + token.substring(token.lastIndexOf('.') + 5);
        assertError(userinfo(forged), 401, "invalid_token");

        Http.Res noOpenid = userinfo(accessToken(client, "read_user"));
        assertError(noOpenid, 403, "insufficient_scope");
        assertEquals("Bearer realm=\"portcullis\", error=\"insufficient_scope\", scope=\"openid\"",
                noOpenid.header("WWW-Authenticate"));

        Http.Res twoWays = http.postForm("/oauth/userinfo", Map.of("access_token", token), "Authorization", bearer(token));
        assertError(twoWays, 400, "invalid_request");

        Http.Res inQuery = http.get("/oauth/userinfo?access_token=" + token);
        assertError(inQuery, 400, "invalid_request");

        Http.Res json = http.postJson("/oauth/userinfo", "{\"access_token\":" + Http.q(token) + "}");
        assertError(json, 415, "invalid_request");

        Http.Res duplicate = http.post("/oauth/userinfo", "application/x-www-form-urlencoded",
                "access_token=" + token + "&access_token=" + token);
        assertError(duplicate, 400, "invalid_request");

        Db.update("UPDATE access_tokens SET expires_at = ? WHERE jti = ?", Instant.now().getEpochSecond() - 10,
                jti(token));
        assertError(userinfo(token), 401, "invalid_token");
    }

    private static String jti(String token) {
        try {
            return SignedJWT.parse(token).getJWTClaimsSet().getJWTID();
        } catch (java.text.ParseException e) {
            throw new AssertionError(e);
        }
    }

    // ---- revocation ----

    @Test
    void revokedAccessTokenStopsWorkingAtOnceButItsRefreshTokenStaysValid() {
        Map<String, Object> t = tokens(client, "openid read_user");
        String at = (String) t.get("access_token");
        assertEquals(200, userinfo(at).status());
        Http.Res r = revoke(client, Map.of("token", at, "token_type_hint", "access_token"));
        assertEquals(200, r.status(), r::toString);
        assertEquals("no-store", r.header("Cache-Control"));
        assertError(userinfo(at), 401, "invalid_token");
        assertError(http.get("/api/v1/me", "Authorization", bearer(at)), 401, "invalid_token");
        assertEquals(Boolean.FALSE, introspect(client, at).json().get("active"));
        assertEquals(1, Db.count("SELECT COUNT(*) FROM audit_events WHERE event_type = 'TOKEN_REVOKED' "
                + "AND outcome = 'success' AND detail = ?", "access_token jti=" + jti(at)));

        Http.Res refreshed = http.postForm("/oauth/token", Map.of("grant_type", "refresh_token",
                "refresh_token", (String) t.get("refresh_token"), "client_id", client.clientId(),
                "client_secret", client.secret()));
        assertEquals(200, refreshed.status(), "revoking an access token leaves its grant alone: " + refreshed);
    }

    @Test
    void revokingARefreshTokenRevokesTheWholeFamily() {
        Map<String, Object> t = tokens(client, "openid");
        String at = (String) t.get("access_token");
        String rt = (String) t.get("refresh_token");
        // the hint is wrong on purpose: the server must look further (RFC 7009 2.1)
        Http.Res r = revoke(client, Map.of("token", rt, "token_type_hint", "access_token"));
        assertEquals(200, r.status(), r::toString);
        assertError(userinfo(at), 401, "invalid_token");
        Http.Res refresh = http.postForm("/oauth/token", Map.of("grant_type", "refresh_token", "refresh_token", rt,
                "client_id", client.clientId(), "client_secret", client.secret()));
        assertError(refresh, 400, "invalid_grant");
        assertEquals(Boolean.FALSE, introspect(client, rt).json().get("active"));
    }

    @Test
    void revocationAnswers200ForUnknownAndForeignTokensAndRevokesNothingForeign() {
        fixtures();
        assertEquals(200, revoke(client, Map.of("token", "no-such-token")).status());
        assertEquals(200, revoke(client, Map.of("token", "a.b.c", "token_type_hint", "refresh_token")).status());
        assertEquals(200, revoke(client, Map.of("token", "x", "token_type_hint", "something_else")).status());

        Map<String, Object> foreign = tokens(other, "openid");
        assertEquals(200, revoke(client, Map.of("token", (String) foreign.get("access_token"))).status());
        assertEquals(200, revoke(client, Map.of("token", (String) foreign.get("refresh_token"))).status());
        assertEquals(200, userinfo((String) foreign.get("access_token")).status(), "another client's token is untouched");
        assertEquals(Boolean.TRUE, introspect(other, (String) foreign.get("refresh_token")).json().get("active"));
        assertTrue(Db.count("SELECT COUNT(*) FROM audit_events WHERE event_type = 'TOKEN_REVOKED' AND outcome = 'failure' "
                + "AND client_id = ?", client.clientId()) >= 2);
    }

    @Test
    void aPublicClientRevokesItsOwnTokensWithItsClientId() {
        Map<String, Object> t = tokens(spa, "openid");
        Http.Res r = revoke(spa, Map.of("token", (String) t.get("refresh_token"), "token_type_hint", "refresh_token"));
        assertEquals(200, r.status(), r::toString);
        assertError(userinfo((String) t.get("access_token")), 401, "invalid_token");
    }

    @Test
    void revocationErrorRows() {
        fixtures();
        String at = accessToken(client, "openid");
        assertError(http.postForm("/oauth/revoke", Map.of("token", at)), 401, "invalid_client");
        assertError(http.postForm("/oauth/revoke", Map.of("token", at, "client_id", client.clientId(),
                "client_secret", "wrong")), 401, "invalid_client");
        Http.Res basicWrong = http.postForm("/oauth/revoke", Map.of("token", at),
                "Authorization", "Basic " + java.util.Base64.getEncoder().encodeToString((client.clientId() + ":nope").getBytes()));
        assertError(basicWrong, 401, "invalid_client");
        assertNotNull(basicWrong.header("WWW-Authenticate"));
        assertError(revoke(client, Map.of()), 400, "invalid_request");
        assertError(http.post("/oauth/revoke", "text/plain", "token=" + at), 415, "invalid_request");
        assertError(http.post("/oauth/revoke", "application/x-www-form-urlencoded", "token=a&token=b&client_id="
                + client.clientId() + "&client_secret=" + client.secret()), 400, "invalid_request");
        assertEquals(200, userinfo(at).status(), "no failed revocation may revoke anything");
        // the JSON body of the token request works here too
        Http.Res json = http.postJson("/oauth/revoke", "{\"client_id\":" + Http.q(client.clientId())
                + ",\"client_secret\":" + Http.q(client.secret()) + ",\"token\":" + Http.q(at) + "}");
        assertEquals(200, json.status(), json::toString);
        assertError(userinfo(at), 401, "invalid_token");
    }

    // ---- introspection ----

    @Test
    void introspectionDescribesActiveTokens() {
        Map<String, Object> t = tokens(client, "openid profile");
        long now = Instant.now().getEpochSecond();
        Http.Res r = introspect(client, (String) t.get("access_token"));
        assertEquals(200, r.status(), r::toString);
        assertEquals("no-store", r.header("Cache-Control"));
        Map<String, Object> a = r.json();
        assertEquals(Boolean.TRUE, a.get("active"));
        assertEquals("openid profile", a.get("scope"));
        assertEquals(client.clientId(), a.get("client_id"));
        assertEquals(user.username(), a.get("username"));
        assertEquals(user.userId(), a.get("sub"));
        assertEquals("Bearer", a.get("token_type"));
        assertEquals(BASE, a.get("iss"));
        long exp = ((Number) a.get("exp")).longValue();
        long iat = ((Number) a.get("iat")).longValue();
        assertTrue(exp > now && iat <= now + 5 && iat >= now - 60, a::toString);

        Map<String, Object> rt = http.postForm("/oauth/introspect", Map.of("token", (String) t.get("refresh_token"),
                "token_type_hint", "refresh_token"), "Authorization", basic(client)).json();
        assertEquals(Boolean.TRUE, rt.get("active"));
        assertEquals(client.clientId(), rt.get("client_id"));
        assertEquals(user.userId(), rt.get("sub"));
        assertEquals("openid profile", rt.get("scope"));
        assertNull(rt.get("token_type"));
    }

    private static String basic(Admin.TestClient c) {
        return "Basic " + java.util.Base64.getEncoder().encodeToString((c.clientId() + ":" + c.secret()).getBytes());
    }

    @Test
    void introspectionSaysInactiveForUnknownExpiredRevokedAndForeignTokens() {
        fixtures();
        assertEquals(Map.of("active", false), introspect(client, "unknown").json());
        assertEquals(Map.of("active", false), introspect(client, "a.b.c").json());

        Map<String, Object> foreign = tokens(other, "openid");
        assertEquals(Map.of("active", false), introspect(client, (String) foreign.get("access_token")).json());
        assertEquals(Map.of("active", false), introspect(client, (String) foreign.get("refresh_token")).json());
        assertEquals(Boolean.TRUE, introspect(other, (String) foreign.get("access_token")).json().get("active"));

        Map<String, Object> t = tokens(client, "openid");
        String at = (String) t.get("access_token");
        String rt = (String) t.get("refresh_token");
        long past = Instant.now().getEpochSecond() - 1;
        Db.update("UPDATE access_tokens SET expires_at = ? WHERE jti = ?", past, jti(at));
        assertEquals(Map.of("active", false), introspect(client, at).json(), "expired access token");
        Db.update("UPDATE refresh_tokens SET expires_at = ? WHERE grant_id = (SELECT grant_id FROM access_tokens "
                + "WHERE jti = ?)", past, jti(at));
        assertEquals(Map.of("active", false), introspect(client, rt).json(), "expired refresh token");

        Map<String, Object> rotated = tokens(client, "openid");
        Http.Res refreshed = http.postForm("/oauth/token", Map.of("grant_type", "refresh_token",
                "refresh_token", (String) rotated.get("refresh_token"), "client_id", client.clientId(),
                "client_secret", client.secret()));
        assertEquals(200, refreshed.status(), refreshed::toString);
        assertEquals(Map.of("active", false), introspect(client, (String) rotated.get("refresh_token")).json(),
                "a rotated refresh token");
        assertEquals(Boolean.TRUE, introspect(client, refreshed.jsonString("refresh_token")).json().get("active"));
    }

    @Test
    void introspectionErrorRows() {
        fixtures();
        String at = accessToken(spa, "openid");
        Http.Res publicClient = http.postForm("/oauth/introspect", Map.of("token", at, "client_id", spa.clientId()));
        assertError(publicClient, 401, "invalid_client");
        assertError(http.postForm("/oauth/introspect", Map.of("token", at)), 401, "invalid_client");
        assertError(http.postForm("/oauth/introspect", Map.of("token", at, "client_id", client.clientId(),
                "client_secret", "wrong-secret")), 401, "invalid_client");
        assertError(http.postForm("/oauth/introspect", Map.of("client_id", client.clientId(),
                "client_secret", client.secret())), 400, "invalid_request");
        assertError(http.post("/oauth/introspect", "text/plain", "token=x"), 415, "invalid_request");
        assertEquals(405, http.get("/oauth/introspect").status());
        assertEquals(405, http.get("/oauth/revoke").status());
    }

    // ---- /api/v1 ----

    @Test
    void meReturnsTheProfileWithReadUser() {
        fixtures();
        Http.Res r = http.get("/api/v1/me", "Authorization", bearer(accessToken(spa, "read_user")));
        assertEquals(200, r.status(), r::toString);
        assertEquals(user.userId(), r.jsonString("sub"));
        assertEquals(user.username(), r.jsonString("username"));
        assertEquals("Test " + user.username(), r.jsonString("name"));
        assertEquals(user.username() + "@example.com", r.jsonString("email"));
    }

    @Test
    void apiErrorRows() {
        fixtures();
        Http.Res none = http.get("/api/v1/me");
        assertError(none, 401, "invalid_token");
        assertEquals("Bearer realm=\"portcullis\"", none.header("WWW-Authenticate"));
        Http.Res invalid = http.get("/api/v1/me", "Authorization", "Bearer abc.def.ghi");
        assertError(invalid, 401, "invalid_token");
        assertEquals("Bearer error=\"invalid_token\"", invalid.header("WWW-Authenticate"));
        assertError(http.get("/api/v1/me", "Authorization", "Bearer " + ADMIN_TOKEN), 401, "invalid_token");

        Http.Res scope = http.get("/api/v1/me", "Authorization", bearer(accessToken(client, "openid profile email api")));
        assertError(scope, 403, "insufficient_scope");
        assertEquals("Bearer realm=\"portcullis\", error=\"insufficient_scope\", scope=\"read_user\"",
                scope.header("WWW-Authenticate"));

        Http.Res delete = http.delete("/api/v1/me/authorizations/" + other.clientId(), "Authorization",
                bearer(accessToken(client, "read_user")));
        assertError(delete, 403, "insufficient_scope");
        assertTrue(delete.header("WWW-Authenticate").contains("scope=\"api\""), delete::toString);

        assertError(http.get("/api/v1/nothing-here", "Authorization", bearer(accessToken(client, ALL))), 404, "not_found");
    }

    @Test
    void aUserListsAndWithdrawsAuthorizations() {
        fixtures();
        Admin.TestUser someone = admin.user("correct horse battery");
        Admin.TestClient app = admin.confidentialClient(ALL, REDIRECT);
        Admin.TestClient manager = admin.confidentialClient(ALL, REDIRECT);
        Db.update("INSERT INTO consents (user_id, client_id, scope, granted_at) VALUES (?, ?, ?, ?)",
                someone.userId(), app.clientId(), "openid profile", Instant.now().getEpochSecond() - 100);
        String appToken = exchange(app, someone, "openid profile");
        String managerToken = exchange(manager, someone, "read_user api");

        Http.Res list = http.get("/api/v1/me/authorizations", "Authorization", bearer(managerToken));
        assertEquals(200, list.status(), list::toString);
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> items = (List<Map<String, Object>>) list.json().get("authorizations");
        assertEquals(2, items.size(), list::toString);
        assertEquals(app.clientId(), items.get(0).get("client_id"));
        assertEquals(app.name(), items.get(0).get("client_name"));
        assertEquals("openid profile", items.get(0).get("scope"));
        assertEquals(manager.clientId(), items.get(1).get("client_id"), "a grant without consent row is listed too");
        assertEquals("read_user api", items.get(1).get("scope"));

        Http.Res deleted = http.delete("/api/v1/me/authorizations/" + app.clientId(), "Authorization",
                bearer(managerToken));
        assertEquals(204, deleted.status(), deleted::toString);
        assertError(userinfo(appToken), 401, "invalid_token");
        assertEquals(0, Db.count("SELECT COUNT(*) FROM consents WHERE user_id = ? AND client_id = ?",
                someone.userId(), app.clientId()));
        assertEquals(0, Db.count("SELECT COUNT(*) FROM token_grants WHERE user_id = ? AND client_id = ? "
                + "AND revoked_at IS NULL", someone.userId(), app.clientId()));
        assertEquals(1, Db.count("SELECT COUNT(*) FROM audit_events WHERE event_type = 'GRANT_REVOKED' "
                + "AND client_id = ? AND subject = ?", app.clientId(), someone.userId()));
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> after = (List<Map<String, Object>>) http.get("/api/v1/me/authorizations",
                "Authorization", bearer(managerToken)).json().get("authorizations");
        assertEquals(List.of(manager.clientId()), after.stream().map(m -> m.get("client_id")).toList());

        assertError(http.delete("/api/v1/me/authorizations/" + app.clientId(), "Authorization", bearer(managerToken)),
                404, "not_found");
        assertError(http.delete("/api/v1/me/authorizations/no-such-client", "Authorization", bearer(managerToken)),
                404, "not_found");
        // the user's other data is not reachable by another user's token
        assertEquals(user.userId(), http.get("/api/v1/me", "Authorization", bearer(accessToken(client, "read_user")))
                .jsonString("sub"));
    }

    private String exchange(Admin.TestClient c, Admin.TestUser u, String scope) {
        String code = CodeFixture.issue(c.clientId(), u.userId(), REDIRECT, scope, null, null);
        Http.Res r = http.postForm("/oauth/token", Map.of("grant_type", "authorization_code", "code", code,
                "redirect_uri", REDIRECT, "client_id", c.clientId(), "client_secret", c.secret()));
        assertEquals(200, r.status(), r::toString);
        return r.jsonString("access_token");
    }

    // ---- delegability: every admin endpoint refuses a user's access token ----

    /** One admin endpoint, found by reflection over the classes AdminApplication registers. */
    record Endpoint(String method, String path) {
    }

    static List<Endpoint> adminEndpoints() {
        List<Endpoint> out = new ArrayList<>();
        for (Class<?> c : new AdminApplication().getClasses()) {
            Path classPath = c.getAnnotation(Path.class);
            if (classPath == null) {
                continue; // a provider (filter, exception mapper)
            }
            for (Method m : c.getMethods()) {
                String verb = null;
                for (var a : m.getAnnotations()) {
                    HttpMethod hm = a.annotationType().getAnnotation(HttpMethod.class);
                    if (hm != null) {
                        verb = hm.value();
                    }
                }
                if (verb == null) {
                    continue;
                }
                Path methodPath = m.getAnnotation(Path.class);
                String path = "/admin/" + strip(classPath.value())
                        + (methodPath == null ? "" : "/" + strip(methodPath.value()));
                out.add(new Endpoint(verb, path.replaceAll("\\{[^}]+}", "probe")));
            }
        }
        return out;
    }

    private static String strip(String p) {
        return p.replaceAll("^/+|/+$", "");
    }

    @Test
    void everyAdminEndpointRefusesAUserAccessTokenWith403() {
        fixtures();
        String userToken = accessToken(client, ALL);
        List<Endpoint> endpoints = adminEndpoints();
        long clientsBefore = Db.count("SELECT COUNT(*) FROM clients");
        long usersBefore = Db.count("SELECT COUNT(*) FROM users");
        assertTrue(endpoints.size() >= 10, () -> "the resource model sweep found too little: " + endpoints);
        assertTrue(endpoints.contains(new Endpoint(GET.class.getSimpleName(), "/admin/clients")), endpoints::toString);
        assertTrue(endpoints.stream().anyMatch(e -> e.method().equals(POST.class.getSimpleName())));
        assertTrue(endpoints.stream().anyMatch(e -> e.method().equals(PUT.class.getSimpleName())));
        assertTrue(endpoints.stream().anyMatch(e -> e.method().equals(DELETE.class.getSimpleName())));
        for (Endpoint e : endpoints) {
            Http.Res r = call(e, "Bearer " + userToken);
            assertEquals(403, r.status(), () -> e + " accepted or mis-answered a user's access token: " + r);
            assertEquals("insufficient_scope", r.jsonString("error"), e::toString);
            assertTrue(r.jsonString("error_description").contains("does not accept delegated tokens"), r::toString);
            assertTrue(r.header("WWW-Authenticate").startsWith("Bearer"), r::toString);
            Http.Res anonymous = call(e, null);
            assertEquals(401, anonymous.status(), () -> e + " without credentials: " + anonymous);
        }
        assertEquals(200, userinfo(userToken).status(), "the token itself is valid");
        assertEquals(200, admin.get("/admin/clients").status(), "the admin token still works");
        assertEquals(clientsBefore, Db.count("SELECT COUNT(*) FROM clients"), "no admin call changed data");
        assertEquals(usersBefore, Db.count("SELECT COUNT(*) FROM users"), "no admin call changed data");
    }

    private Http.Res call(Endpoint e, String authorization) {
        HttpRequest.Builder b = http.request(e.path()).header("Content-Type", "application/json")
                .method(e.method(), e.method().equals("GET") || e.method().equals("DELETE")
                        ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString("{}"));
        if (authorization != null) {
            b.header("Authorization", authorization);
        }
        return http.send(b.build());
    }

    // ---- RP-initiated logout ----

    private Admin.TestClient logoutClient() {
        Http.Res r = admin.post("/admin/clients", "{\"client_name\":\"Logout RP\",\"redirect_uris\":[" + Http.q(REDIRECT)
                + "],\"post_logout_redirect_uris\":[" + Http.q(LOGOUT_TARGET) + "],\"confidential\":true,"
                + "\"scopes\":\"openid profile\",\"skip_consent\":true}");
        assertEquals(201, r.status(), r::toString);
        return new Admin.TestClient(r.jsonString("client_id"), r.jsonString("client_secret"), REDIRECT, "Logout RP");
    }

    /** Signs in through the browser flow; returns the ID token. */
    private String signInAndGetIdToken(UserAgent ua, Admin.TestClient rp) {
        fixtures();
        Map<String, String> p = ua.authorizeAndGetRedirectParams(rp, user, Map.of("scope", "openid"));
        Http.Res r = http.postForm("/oauth/token", Map.of("grant_type", "authorization_code", "code", p.get("code"),
                "redirect_uri", REDIRECT, "client_id", rp.clientId(), "client_secret", rp.secret()));
        assertEquals(200, r.status(), r::toString);
        assertTrue(ua.cookie("portcullis_session").isPresent());
        return r.jsonString("id_token");
    }

    private Map<String, String> authorizeParams(Admin.TestClient rp) {
        return Map.of("client_id", rp.clientId(), "redirect_uri", REDIRECT, "response_type", "code", "scope", "openid",
                "state", "s1");
    }

    @Test
    void logoutWithIdTokenHintEndsTheSessionAndReturnsToTheRegisteredUri() {
        Admin.TestClient rp = logoutClient();
        UserAgent ua = new UserAgent(BASE);
        String idToken = signInAndGetIdToken(ua, rp);
        assertEquals(302, ua.authorize(authorizeParams(rp)).status());
        assertFalse(ua.authorize(authorizeParams(rp)).header("Location").contains("/login.xhtml"), "signed in");
        long sessionsBefore = Db.count("SELECT COUNT(*) FROM sso_sessions WHERE user_id = ?", user.userId());

        Http.Res out = ua.get("/oauth/logout?" + Http.form(Map.of("id_token_hint", idToken,
                "post_logout_redirect_uri", LOGOUT_TARGET, "state", "bye & see you")));
        assertEquals(302, out.status(), out::toString);
        assertEquals(LOGOUT_TARGET + "?state=bye+%26+see+you", out.header("Location"));
        String setCookie = String.join("\n", out.raw().headers().allValues("Set-Cookie"));
        assertTrue(setCookie.contains("portcullis_session=;") && setCookie.contains("Max-Age=0"), setCookie);
        assertEquals(sessionsBefore - 1, Db.count("SELECT COUNT(*) FROM sso_sessions WHERE user_id = ?", user.userId()));
        assertTrue(Db.count("SELECT COUNT(*) FROM audit_events WHERE event_type = 'SIGN_OUT' AND client_id = ?",
                rp.clientId()) >= 1);

        Http.Res again = ua.authorize(authorizeParams(rp));
        assertEquals(302, again.status());
        assertTrue(again.header("Location").contains("/login.xhtml"), "after logout the next authorize signs in: " + again);
    }

    @Test
    void anExpiredIdTokenHintStillIdentifiesTheClient() throws Exception {
        Admin.TestClient rp = logoutClient();
        UserAgent ua = new UserAgent(BASE);
        SignedJWT original = SignedJWT.parse(signInAndGetIdToken(ua, rp));
        String kid = original.getHeader().getKeyID();
        // re-sign the same claims, an hour past expiry, with the server's own key (read from the database, where
        // it is sealed under the key-encryption key the ITs give the server)
        EncryptionKeys kek = new EncryptionKeys(
                Base64.getDecoder().decode(System.getProperty("portcullis.test.keys-encryption-key")), List.of());
        RSAKey key = RSAKey.parse(kek.open((String) Db.rows("SELECT private_jwk FROM signing_keys WHERE kid = ?", kid)
                .get(0).get("private_jwk"), kid));
        long now = Instant.now().getEpochSecond();
        JWTClaimsSet claims = new JWTClaimsSet.Builder(original.getJWTClaimsSet())
                .issueTime(new Date((now - 7200) * 1000)).expirationTime(new Date((now - 3600) * 1000)).build();
        SignedJWT expired = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.RS256).keyID(kid)
                .type(JOSEObjectType.JWT).build(), claims);
        expired.sign(new RSASSASigner(key));

        Http.Res out = ua.get("/oauth/logout?" + Http.form(Map.of("id_token_hint", expired.serialize(),
                "post_logout_redirect_uri", LOGOUT_TARGET, "state", "late")));
        assertEquals(302, out.status(), out::toString);
        assertEquals(LOGOUT_TARGET + "?state=late", out.header("Location"));
        assertTrue(ua.authorize(authorizeParams(rp)).header("Location").contains("/login.xhtml"));
    }

    @Test
    void logoutWithoutHintAsksForConfirmationProtectedByCsrf() {
        Admin.TestClient rp = logoutClient();
        UserAgent ua = new UserAgent(BASE);
        signInAndGetIdToken(ua, rp);

        Http.Res page = ua.get("/oauth/logout?" + Http.form(Map.of("client_id", rp.clientId(),
                "post_logout_redirect_uri", LOGOUT_TARGET, "state", "s2")));
        assertEquals(200, page.status(), page::toString);
        assertTrue(page.body().contains("id=\"logout\"") && page.body().contains("Logout RP"), page::toString);
        Map<String, String> fields = UserAgent.formFields(page.body(), "logout");
        assertEquals(LOGOUT_TARGET, fields.get("post_logout_redirect_uri"));

        Map<String, String> forged = new LinkedHashMap<>(fields);
        forged.put("csrf", "forged-value-forged-value-forged-value-forg");
        Http.Res refused = ua.http().postForm("/oauth/logout", forged);
        assertEquals(403, refused.status(), refused::toString);
        assertFalse(ua.authorize(authorizeParams(rp)).header("Location").contains("/login.xhtml"), "still signed in");

        Http.Res done = ua.submit(page.body(), "logout", fields);
        assertEquals(303, done.status(), done::toString);
        assertEquals(LOGOUT_TARGET + "?state=s2", done.header("Location"));
        assertTrue(ua.authorize(authorizeParams(rp)).header("Location").contains("/login.xhtml"));
    }

    @Test
    void logoutAsksForUnregisteredTargetsAndRefusesBadHints() {
        Admin.TestClient rp = logoutClient();
        UserAgent ua = new UserAgent(BASE);
        String idToken = signInAndGetIdToken(ua, rp);

        Http.Res tampered = ua.get("/oauth/logout?" + Http.form(Map.of("id_token_hint", idToken.substring(0,
                idToken.length() - 4) + "AAAA", "post_logout_redirect_uri", LOGOUT_TARGET)));
        assertEquals(400, tampered.status(), tampered::toString);
        assertTrue(tampered.body().contains("id=\"error-page\""), tampered::toString);
        Http.Res mismatch = ua.get("/oauth/logout?" + Http.form(Map.of("id_token_hint", idToken,
                "client_id", client.clientId())));
        assertEquals(400, mismatch.status(), mismatch::toString);
        assertEquals(400, ua.get("/oauth/logout?state=a&state=b").status());
        assertFalse(ua.authorize(authorizeParams(rp)).header("Location").contains("/login.xhtml"),
                "a refused logout ends nothing");

        // an unregistered target asks the user first (SingleLogoutIT, by class of input)
        Http.Res unregistered = ua.get("/oauth/logout?" + Http.form(Map.of("id_token_hint", idToken,
                "post_logout_redirect_uri", "https://evil.example.com/", "state", "s3")));
        assertEquals(200, unregistered.status(), unregistered::toString);
        assertTrue(unregistered.body().contains("id=\"logout\""), unregistered::toString);
        assertFalse(unregistered.body().contains("evil.example.com"));
        assertFalse(ua.authorize(authorizeParams(rp)).header("Location").contains("/login.xhtml"), "still signed in");

        // nobody signed in, no hint: nothing to confirm
        Http.Res anonymous = new UserAgent(BASE).get("/oauth/logout");
        assertEquals(200, anonymous.status(), anonymous::toString);
        assertTrue(anonymous.body().contains("id=\"signed-out\""));
    }

    @Test
    void theDemoPageIsNotServedWhenDemoModeIsOff() {
        // counted before and after this test's requests: DemoModeIT seeds demo clients into the same database, so an
        // absolute count would depend on which class ran first
        String demoClients = "SELECT COUNT(*) FROM clients WHERE client_id LIKE 'demo-%'";
        long before = Db.count(demoClients);
        assertEquals(404, http.get("/demo/").status());
        assertEquals(404, http.postForm("/demo/start", Map.of("client_type", "public")).status());
        assertEquals(404, http.postForm("/demo/start", Map.of("client_type", "confidential")).status());
        assertEquals(404, http.get("/demo/callback?state=x&code=y").status());
        assertEquals(before, Db.count(demoClients), "a demo request with demo mode off must create no client");
    }

    @Test
    void discoveryAdvertisesTheResourceEndpoints() {
        Map<String, Object> d = http.get("/.well-known/openid-configuration").json();
        for (String k : List.of("userinfo_endpoint", "revocation_endpoint", "introspection_endpoint",
                "end_session_endpoint")) {
            String url = (String) d.get(k);
            assertNotNull(url, k);
            int status = http.get(url.substring(BASE.length())).status();
            assertTrue(status != 404, k + " answers 404");
        }
        assertEquals(List.of("client_secret_basic", "client_secret_post", "private_key_jwt"),
                d.get("introspection_endpoint_auth_methods_supported"), "no public clients at introspection");
    }
}
