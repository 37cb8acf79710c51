package dev.portcullis.token;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.jwk.source.ImmutableJWKSet;
import com.nimbusds.jose.proc.DefaultJOSEObjectTypeVerifier;
import com.nimbusds.jose.proc.JWSVerificationKeySelector;
import com.nimbusds.jose.proc.SecurityContext;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.proc.DefaultJWTClaimsVerifier;
import com.nimbusds.jwt.proc.DefaultJWTProcessor;
import dev.portcullis.testing.Db;
import dev.portcullis.testing.Http;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * grant_type=client_credentials over HTTP: a confidential client registered with it through the admin API gets an
 * RFC 9068 access token about itself, which a backend verifies against the JWKS; scope narrowing and refusals; the
 * user endpoints refuse the token, introspection and revocation handle it; grant_types is enforced at the token and
 * the authorization endpoint.
 */
class ClientCredentialsGrantIT extends TokenEndpointTestBase {

    private static final String SERVICE_REDIRECT = "https://service.example.com/cb";

    /** A confidential client with the given grant types and scopes; returns {client_id, client_secret}. */
    private String[] register(String grantTypes, String scopes) {
        Http.Res r = admin.post("/admin/clients", "{\"client_name\":\"Service\",\"redirect_uris\":[\""
                + SERVICE_REDIRECT + "\"],\"scopes\":\"" + scopes + "\",\"grant_types\":" + grantTypes + "}");
        assertEquals(201, r.status(), r::toString);
        return new String[] {r.jsonString("client_id"), r.jsonString("client_secret")};
    }

    private Http.Res token(String[] client, String scope) {
        Map<String, String> p = new java.util.LinkedHashMap<>();
        p.put("grant_type", "client_credentials");
        if (scope != null) {
            p.put("scope", scope);
        }
        return form(p, "Authorization", basic(client[0], client[1]));
    }

    private static String basic(String id, String secret) {
        return "Basic " + java.util.Base64.getEncoder().encodeToString((Http.enc(id) + ":" + Http.enc(secret))
                .getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }

    @Test
    void aBackendVerifiesTheTokenAgainstTheJwks() throws Exception {
        String[] c = register("[\"client_credentials\"]", "openid read_user api");
        Http.Res r = token(c, null);
        assertEquals(200, r.status(), r::toString);
        assertNoStore(r);
        assertEquals(Set.of("access_token", "token_type", "expires_in", "scope", "created_at"), r.json().keySet());
        assertEquals("Bearer", r.jsonString("token_type"));
        assertEquals("read_user api", r.jsonString("scope"), "the default: the client's scopes without openid");

        DefaultJWTProcessor<SecurityContext> backend = new DefaultJWTProcessor<>();
        backend.setJWSTypeVerifier(new DefaultJOSEObjectTypeVerifier<>(new JOSEObjectType("at+jwt")));
        backend.setJWSKeySelector(new JWSVerificationKeySelector<>(Set.of(JWSAlgorithm.RS256, JWSAlgorithm.ES256,
                JWSAlgorithm.PS256, JWSAlgorithm.EdDSA), new ImmutableJWKSet<>(jwks())));
        // the expected values come from the configuration and the registration, never from the token under test
        String ownApi = BASE + "/api";
        backend.setJWTClaimsSetVerifier(new DefaultJWTClaimsVerifier<>(ownApi, new JWTClaimsSet.Builder()
                .issuer(BASE).subject(c[0]).claim("client_id", c[0]).build(), Set.of("exp", "iat", "jti", "scope")));
        JWTClaimsSet claims = backend.process(r.jsonString("access_token"), null);
        assertEquals(List.of(ownApi), claims.getAudience(), "Portcullis's own API alone");
        assertEquals(3600L, ((Number) r.json().get("expires_in")).longValue(), "portcullis.access-token.ttl");
        assertEquals(3600, (claims.getExpirationTime().getTime() - claims.getIssueTime().getTime()) / 1000);
        assertNull(claims.getClaim("auth_time"));
        assertEquals("read_user api", claims.getStringClaim("scope"));
        assertEquals(1, Db.count("SELECT COUNT(*) FROM token_grants WHERE client_id = ? AND user_id IS NULL", c[0]));
        assertEquals(1, Db.count("SELECT COUNT(*) FROM audit_events WHERE event_type = 'CLIENT_CREDENTIALS_ISSUED' "
                + "AND client_id = ?", c[0]));
    }

    @Test
    void aJsonRequestWithTheSecretInTheBodyNarrowsTheScope() throws Exception {
        String[] c = register("[\"authorization_code\",\"client_credentials\"]", "read_user api");
        Http.Res r = http.postJson("/oauth/token", "{\"grant_type\":\"client_credentials\",\"client_id\":"
                + Http.q(c[0]) + ",\"client_secret\":" + Http.q(c[1]) + ",\"scope\":\"api\"}");
        assertEquals(200, r.status(), r::toString);
        assertEquals("api", r.jsonString("scope"));
        assertEquals("api", claims(r.jsonString("access_token")).getStringClaim("scope"));
    }

    @Test
    void userScopesAndForeignScopesAreInvalidScope() {
        String[] c = register("[\"client_credentials\"]", "openid profile read_user");
        assertError(token(c, "openid"), 400, "invalid_scope");
        assertError(token(c, "read_user profile"), 400, "invalid_scope");
        assertError(token(c, "api"), 400, "invalid_scope");
    }

    @Test
    void aClientWithoutTheGrantIsUnauthorizedClient() {
        fixtures();
        assertError(token(new String[] {confidential.clientId(), confidential.secret()}, null), 400,
                "unauthorized_client");
    }

    @Test
    void aClientWithoutRefreshTokenMayNotRefresh() {
        String[] c = register("[\"authorization_code\"]", "openid");
        assertError(form(Map.of("grant_type", "refresh_token", "refresh_token", "x"), "Authorization",
                basic(c[0], c[1])), 400, "unauthorized_client");
    }

    @Test
    void aPublicClientCannotBeGivenTheGrant() {
        Http.Res r = admin.post("/admin/clients", "{\"client_name\":\"SPA\",\"confidential\":false,"
                + "\"redirect_uris\":[\"" + SPA_REDIRECT + "\"],\"scopes\":\"api\",\"grant_types\":"
                + "[\"client_credentials\"]}");
        assertEquals(400, r.status(), r::toString);
        String[] c = register("[\"client_credentials\"]", "api");
        r = admin.patch("/admin/clients/" + c[0], "{\"confidential\":false}");
        assertEquals(400, r.status(), r::toString);
        assertEquals(400, admin.patch("/admin/clients/" + c[0], "{\"grant_types\":[]}").status());
        assertEquals(400, admin.patch("/admin/clients/" + c[0], "{\"grant_types\":[\"implicit\"]}").status());
        r = admin.patch("/admin/clients/" + c[0], "{\"grant_types\":[\"refresh_token\",\"authorization_code\"]}");
        assertEquals(200, r.status(), r::toString);
        assertEquals(List.of("authorization_code", "refresh_token"), r.json().get("grant_types"));
        assertEquals(List.of("authorization_code", "refresh_token"),
                admin.get("/admin/clients/" + confidential().clientId()).json().get("grant_types"), "the default");
    }

    @Test
    void theUserEndpointsRefuseTheToken() {
        String[] c = register("[\"client_credentials\"]", "read_user");
        String at = token(c, null).jsonString("access_token");
        for (String path : List.of("/oauth/userinfo", "/api/v1/me")) {
            Http.Res r = http.get(path, "Authorization", "Bearer " + at);
            assertEquals(401, r.status(), path + " " + r);
            assertTrue(r.header("WWW-Authenticate").contains("error=\"invalid_token\""), r::toString);
            assertTrue(r.body().contains("no user"), r::toString);
        }
    }

    @Test
    void introspectionShowsTheClientAndRevocationEndsIt() {
        String[] c = register("[\"client_credentials\"]", "read_user api");
        String at = token(c, "api").jsonString("access_token");
        Http.Res r = http.postForm("/oauth/introspect", Map.of("token", at), "Authorization", basic(c[0], c[1]));
        assertEquals(200, r.status(), r::toString);
        Map<String, Object> j = r.json();
        assertEquals(true, j.get("active"));
        assertEquals(c[0], j.get("sub"));
        assertEquals(c[0], j.get("client_id"));
        assertEquals("api", j.get("scope"));
        assertEquals("Bearer", j.get("token_type"));
        assertTrue(j.containsKey("exp") && j.containsKey("iat"), r::toString);
        assertFalse(j.containsKey("username"), r::toString);

        assertEquals(200, http.postForm("/oauth/revoke", Map.of("token", at), "Authorization", basic(c[0], c[1]))
                .status());
        r = http.postForm("/oauth/introspect", Map.of("token", at), "Authorization", basic(c[0], c[1]));
        assertEquals(Map.of("active", false), r.json());
    }

    @Test
    void aClientWithoutAuthorizationCodeIsRefusedAtTheAuthorizationEndpoint() {
        String[] c = register("[\"client_credentials\"]", "openid");
        Http.Res r = http.get("/oauth/authorize?response_type=code&client_id=" + Http.enc(c[0]) + "&redirect_uri="
                + Http.enc(SERVICE_REDIRECT) + "&scope=openid&state=s1");
        assertEquals(302, r.status(), r::toString);
        Map<String, String> q = Http.query(r.header("Location"));
        assertTrue(r.header("Location").startsWith(SERVICE_REDIRECT + "?"), r::toString);
        assertEquals("unauthorized_client", q.get("error"));
        assertEquals("s1", q.get("state"));
    }

    @Test
    void discoveryListsTheGrant() throws Exception {
        assertTrue(discovery().getGrantTypes().stream().anyMatch(g -> g.getValue().equals("client_credentials")));
    }
}
