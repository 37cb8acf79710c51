package dev.portcullis.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.source.ImmutableJWKSet;
import com.nimbusds.jose.proc.DefaultJOSEObjectTypeVerifier;
import com.nimbusds.jose.proc.JWSVerificationKeySelector;
import com.nimbusds.jose.proc.SecurityContext;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import com.nimbusds.jwt.proc.DefaultJWTClaimsVerifier;
import com.nimbusds.jwt.proc.DefaultJWTProcessor;
import dev.portcullis.testing.Admin;
import dev.portcullis.testing.Db;
import dev.portcullis.testing.Http;
import dev.portcullis.testing.UserAgent;
import dev.portcullis.token.TokenEndpointTestBase;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * RFC 8707 resource indicators over HTTP: APIs registered through the admin API, their scopes given to clients, and
 * tokens for them from the real sign-in (authorization code), refresh and client credentials, with and without
 * {@code resource}. Every token is verified as a backend would: the signature against the published JWKS, its
 * {@code typ}, {@code iss}, {@code aud}, {@code sub} and {@code scope}. Refusals are {@code invalid_target}.
 */
class ResourceIndicatorsIT extends TokenEndpointTestBase {

    /** An API registered for one test, with its two scopes. */
    private record TestApi(String id, String identifier, String read, String write) {
    }

    private TestApi api(String alg) {
        String n = Long.toHexString(System.nanoTime());
        String identifier = "https://payroll-" + n + ".corp.example";
        String read = "payroll-" + n + ".read";
        String write = "payroll-" + n + ".write";
        Http.Res r = admin.post("/admin/apis", "{\"identifier\":" + Http.q(identifier) + ",\"name\":\"Payroll " + n
                + "\",\"scopes\":[" + Http.q(read) + "," + Http.q(write) + "]"
                + (alg == null ? "" : ",\"access_token_signing_alg\":" + Http.q(alg)) + "}");
        assertEquals(201, r.status(), r::toString);
        return new TestApi(r.jsonString("id"), identifier, read, write);
    }

    private static String ownApi() {
        return BASE + "/api";
    }

    /** A confidential client with the code, refresh and client credentials grants and {@code scopes}. */
    private Admin.TestClient client(String scopes) {
        Http.Res r = admin.post("/admin/clients", "{\"client_name\":\"Backend caller\",\"redirect_uris\":["
                + Http.q(REDIRECT) + "],\"scopes\":" + Http.q(scopes) + ",\"skip_consent\":true,\"grant_types\":"
                + "[\"authorization_code\",\"refresh_token\",\"client_credentials\"]}");
        assertEquals(201, r.status(), r::toString);
        return new Admin.TestClient(r.jsonString("client_id"), r.jsonString("client_secret"), REDIRECT, "Backend");
    }

    /**
     * The browser part of the code flow with {@code resources} as repeated {@code resource} parameters: signs in when
     * asked; returns the query parameters of the redirect to the client.
     */
    private Map<String, String> authorize(Admin.TestClient c, String scope, String... resources) {
        fixtures();
        Map<String, String> p = new LinkedHashMap<>();
        p.put("client_id", c.clientId());
        p.put("redirect_uri", c.redirectUri());
        p.put("response_type", "code");
        p.put("scope", scope);
        p.put("state", "st-1");
        StringBuilder query = new StringBuilder(Http.form(p));
        for (String resource : resources) {
            query.append("&resource=").append(Http.enc(resource));
        }
        UserAgent browser = new UserAgent(BASE);
        Http.Res r = browser.get("/oauth/authorize?" + query);
        for (int step = 0; step < 8; step++) {
            if (r.status() == 302 || r.status() == 303) {
                String location = r.header("Location");
                if (!location.startsWith(BASE) || location.startsWith(REDIRECT)) {
                    return Http.query(location);
                }
                r = browser.follow(r);
            } else if (r.status() == 200 && r.body().contains("id=\"login\"")) {
                r = browser.signIn(r, user.username(), user.password());
            } else if (r.status() == 200 && r.body().contains("id=\"consent\"")) {
                r = browser.consent(r, true);
            } else {
                fail("unexpected answer in the authorization flow: " + r);
            }
        }
        throw new AssertionError("the authorization flow did not end: " + r);
    }

    private Http.Res tokenRequest(Admin.TestClient c, Map<String, String> params, String... resources) {
        StringBuilder body = new StringBuilder(Http.form(params));
        for (String resource : resources) {
            body.append("&resource=").append(Http.enc(resource));
        }
        return http.post("/oauth/token", "application/x-www-form-urlencoded", body.toString(),
                "Authorization", basic(c));
    }

    private Http.Res redeem(Admin.TestClient c, String code, String... resources) {
        return tokenRequest(c, Map.of("grant_type", "authorization_code", "code", code, "redirect_uri", REDIRECT),
                resources);
    }

    /** A refresh naming {@code resources} (the base class's refresh names a scope). */
    private Http.Res refreshFor(Admin.TestClient c, String refreshToken, String... resources) {
        return tokenRequest(c, Map.of("grant_type", "refresh_token", "refresh_token", refreshToken), resources);
    }

    private Http.Res clientCredentials(Admin.TestClient c, String scope, String... resources) {
        Map<String, String> p = new LinkedHashMap<>();
        p.put("grant_type", "client_credentials");
        if (scope != null) {
            p.put("scope", scope);
        }
        return tokenRequest(c, p, resources);
    }

    private static String basic(Admin.TestClient c) {
        return "Basic " + java.util.Base64.getEncoder().encodeToString((Http.enc(c.clientId()) + ":"
                + Http.enc(c.secret())).getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }

    /**
     * The access token as a backend for {@code audience} checks it: signature by a key of the published JWKS, typ
     * at+jwt, this issuer, its audience among the token's, exp; returns the claims.
     */
    private static JWTClaimsSet backendAccepts(String accessToken, String audience, String subject) throws Exception {
        JWKSet keys = jwks();
        DefaultJWTProcessor<SecurityContext> backend = new DefaultJWTProcessor<>();
        backend.setJWSTypeVerifier(new DefaultJOSEObjectTypeVerifier<>(new JOSEObjectType("at+jwt")));
        backend.setJWSKeySelector(new JWSVerificationKeySelector<>(Set.of(JWSAlgorithm.RS256, JWSAlgorithm.ES256,
                JWSAlgorithm.PS256), new ImmutableJWKSet<>(keys)));
        backend.setJWTClaimsSetVerifier(new DefaultJWTClaimsVerifier<>(audience, new JWTClaimsSet.Builder()
                .issuer(BASE).subject(subject).build(), Set.of("exp", "iat", "jti", "scope", "client_id")));
        return backend.process(accessToken, null);
    }

    private static List<String> aud(String accessToken) throws Exception {
        return claims(accessToken).getAudience();
    }

    private static String alg(String accessToken) throws Exception {
        return SignedJWT.parse(accessToken).getHeader().getAlgorithm().getName();
    }

    private void assertInvalidTarget(Http.Res r) {
        assertError(r, 400, "invalid_target");
    }

    // ---------------------------------------------------------------- authorization code and refresh

    @Test
    void theCodeFlowWithAResourceGivesATokenForThatApiOnly() throws Exception {
        TestApi payroll = api(null);
        Admin.TestClient c = client("openid profile " + payroll.read() + " " + payroll.write());
        Map<String, String> redirect = authorize(c, "openid profile " + payroll.read(), payroll.identifier());
        assertEquals("st-1", redirect.get("state"));
        Http.Res r = redeem(c, redirect.get("code"));
        assertEquals(200, r.status(), r::toString);
        assertEquals(payroll.read(), r.jsonString("scope"), "the access token's scope is narrowed to the API's");
        assertNotNull(r.jsonString("id_token"), "the ID token still answers the openid request");
        String at = r.jsonString("access_token");
        JWTClaimsSet claims = backendAccepts(at, payroll.identifier(), user.userId());
        assertEquals(List.of(payroll.identifier()), claims.getAudience());
        assertEquals(payroll.read(), claims.getStringClaim("scope"));
        assertEquals(c.clientId(), claims.getStringClaim("client_id"));

        // Portcullis's own resource endpoints accept only tokens for their own audience
        assertEquals(401, http.get("/oauth/userinfo", "Authorization", "Bearer " + at).status());
        assertEquals(401, http.get("/api/v1/me", "Authorization", "Bearer " + at).status());

        Http.Res introspected = http.postForm("/oauth/introspect", Map.of("token", at), "Authorization", basic(c));
        assertEquals(200, introspected.status(), introspected::toString);
        assertEquals(true, introspected.json().get("active"), introspected::toString);
        assertEquals(payroll.identifier(), introspected.json().get("aud"));
        assertEquals(payroll.read(), introspected.json().get("scope"));
        assertEquals(user.userId(), introspected.json().get("sub"));

        assertEquals(payroll.identifier(), Db.rows("SELECT resources FROM token_grants WHERE grant_id = ?",
                grantOf(at)).get(0).get("resources"), "the grant remembers what it was authorized for");
        Http.Res refreshed = refreshFor(c, r.jsonString("refresh_token"));
        assertEquals(200, refreshed.status(), refreshed::toString);
        assertEquals(List.of(payroll.identifier()), aud(refreshed.jsonString("access_token")));
        assertInvalidTarget(refreshFor(c, refreshed.jsonString("refresh_token"), ownApi()));
    }

    @Test
    void withoutResourceTheAudienceIsTheOneApiOfTheScopesOrPortcullisOwn() throws Exception {
        TestApi payroll = api(null);
        Admin.TestClient c = client("openid profile " + payroll.read());
        fixtures();

        String onlyApi = redeem(c, authorize(c, "openid " + payroll.read()).get("code")).jsonString("access_token");
        assertEquals(List.of(payroll.identifier()), backendAccepts(onlyApi, payroll.identifier(), user.userId())
                .getAudience(), "openid decides nothing");

        Map<String, String> mixed = authorize(c, "openid profile " + payroll.read());
        assertEquals("invalid_scope", mixed.get("error"), "two APIs' scopes and no resource: " + mixed);
        assertEquals("st-1", mixed.get("state"));
        assertFalse(mixed.containsKey("code"));

        String own = redeem(c, authorize(c, "openid profile").get("code")).jsonString("access_token");
        assertEquals(List.of(ownApi()), aud(own));
        assertEquals(200, http.get("/oauth/userinfo", "Authorization", "Bearer " + own).status());

        String named = redeem(c, authorize(c, "openid profile " + payroll.read(), ownApi()).get("code"))
                .jsonString("access_token");
        assertEquals(List.of(ownApi()), aud(named), "Portcullis's own API may be named as a resource");
        assertEquals("openid profile", claims(named).getStringClaim("scope"));
    }

    /**
     * A code or a grant whose scope spans two APIs and names no resource (authorized before the rule, or with the
     * resource left to the token request) gets no token without {@code resource}: never one API's aud with another
     * API's scopes.
     */
    @Test
    void withoutResourceATokenRequestOrRefreshSpanningTwoApisIsInvalidScope() throws Exception {
        TestApi payroll = api(null);
        Admin.TestClient c = client("openid profile " + payroll.read());
        fixtures();
        String scope = "openid profile " + payroll.read();
        String code = dev.portcullis.testing.CodeFixture.issue(c.clientId(), user.userId(), REDIRECT, scope, null,
                null);
        Http.Res refused = redeem(c, code);
        assertError(refused, 400, "invalid_scope");
        assertTrue(refused.jsonString("error_description").contains("resource"), refused::toString);

        Http.Res named = redeem(c, code, payroll.identifier());
        assertEquals(200, named.status(), "a refused request does not use the code: " + named);
        assertEquals(List.of(payroll.identifier()), backendAccepts(named.jsonString("access_token"),
                payroll.identifier(), user.userId()).getAudience());
        assertEquals(payroll.read(), named.jsonString("scope"));

        String rt = named.jsonString("refresh_token");
        assertError(refreshFor(c, rt), 400, "invalid_scope");
        Http.Res own = tokenRequest(c, Map.of("grant_type", "refresh_token", "refresh_token", rt, "scope",
                "openid profile"));
        assertEquals(200, own.status(), "a refused refresh does not use the token: " + own);
        assertEquals(List.of(ownApi()), backendAccepts(own.jsonString("access_token"), ownApi(), user.userId())
                .getAudience());
        assertEquals(200, http.get("/oauth/userinfo", "Authorization", "Bearer " + own.jsonString("access_token"))
                .status());
        Http.Res payrollOnly = refreshFor(c, own.jsonString("refresh_token"), payroll.identifier());
        assertEquals(List.of(payroll.identifier()), aud(payrollOnly.jsonString("access_token")));
    }

    @Test
    void aTokenRequestAndARefreshMayNarrowTheResourcesNeverWidenThem() throws Exception {
        TestApi payroll = api(null);
        TestApi ledger = api(null);
        TestApi other = api(null);
        Admin.TestClient c = client("openid " + payroll.read() + " " + ledger.read() + " " + other.read());
        String scope = "openid " + payroll.read() + " " + ledger.read() + " " + other.read();

        Http.Res narrowed = redeem(c, authorize(c, scope, payroll.identifier(), ledger.identifier()).get("code"),
                ledger.identifier());
        assertEquals(200, narrowed.status(), narrowed::toString);
        assertEquals(List.of(ledger.identifier()), aud(narrowed.jsonString("access_token")));
        assertEquals(ledger.read(), narrowed.jsonString("scope"));

        Http.Res both = refreshFor(c, narrowed.jsonString("refresh_token"));
        assertEquals(200, both.status(), both::toString);
        String at = both.jsonString("access_token");
        assertEquals(List.of(payroll.identifier(), ledger.identifier()), aud(at),
                "without resource: everything the grant was authorized for");
        assertEquals(payroll.read() + " " + ledger.read(), both.jsonString("scope"));
        backendAccepts(at, payroll.identifier(), user.userId());
        backendAccepts(at, ledger.identifier(), user.userId());
        Http.Res introspected = http.postForm("/oauth/introspect", Map.of("token", at), "Authorization", basic(c));
        assertEquals(List.of(payroll.identifier(), ledger.identifier()), introspected.json().get("aud"));

        Http.Res one = refreshFor(c, both.jsonString("refresh_token"), payroll.identifier());
        assertEquals(200, one.status(), one::toString);
        assertEquals(List.of(payroll.identifier()), aud(one.jsonString("access_token")));
        assertEquals(payroll.read(), one.jsonString("scope"));

        String rt = one.jsonString("refresh_token");
        assertInvalidTarget(refreshFor(c, rt, other.identifier()));
        assertInvalidTarget(refreshFor(c, rt, payroll.identifier(), other.identifier()));
        assertInvalidTarget(refreshFor(c, rt, "https://unknown.corp.example"));
        Http.Res stillGood = refreshFor(c, rt, ledger.identifier());
        assertEquals(200, stillGood.status(), "a refused refresh does not use the token: " + stillGood);

        assertInvalidTarget(redeem(c, authorize(c, scope, payroll.identifier()).get("code"), ledger.identifier()));
    }

    @Test
    void aGrantWithoutResourcesCoversTheApisItsScopeReaches() throws Exception {
        TestApi payroll = api(null);
        TestApi ledger = api(null);
        Admin.TestClient c = client("openid " + payroll.read() + " " + ledger.read());
        Http.Res r = redeem(c, authorize(c, "openid " + payroll.read()).get("code"));
        assertEquals(List.of(payroll.identifier()), aud(r.jsonString("access_token")));
        assertInvalidTarget(refreshFor(c, r.jsonString("refresh_token"), ledger.identifier()));
        Http.Res own = refreshFor(c, r.jsonString("refresh_token"), ownApi());
        assertEquals(200, own.status(), own::toString);
        assertEquals(List.of(ownApi()), aud(own.jsonString("access_token")));
        assertEquals("openid", own.jsonString("scope"));
    }

    // ---------------------------------------------------------------- client credentials

    @Test
    void clientCredentialsWithAResourceGetATokenForIt() throws Exception {
        TestApi payroll = api(null);
        Admin.TestClient c = client("read_user " + payroll.read() + " " + payroll.write());

        Http.Res r = clientCredentials(c, null, payroll.identifier());
        assertEquals(200, r.status(), r::toString);
        assertEquals(payroll.read() + " " + payroll.write(), r.jsonString("scope"));
        JWTClaimsSet claims = backendAccepts(r.jsonString("access_token"), payroll.identifier(), c.clientId());
        assertEquals(List.of(payroll.identifier()), claims.getAudience());
        assertEquals(payroll.identifier(), Db.rows("SELECT resources FROM token_grants WHERE grant_id = ?",
                grantOf(r.jsonString("access_token"))).get(0).get("resources"));

        assertEquals(List.of(payroll.identifier()), aud(clientCredentials(c, payroll.write()).jsonString(
                "access_token")), "one API's scopes: that API");
        Http.Res mixed = clientCredentials(c, null);
        assertError(mixed, 400, "invalid_scope");
        assertTrue(mixed.jsonString("error_description").contains("more than one API"), mixed::toString);
        assertError(clientCredentials(c, "read_user " + payroll.read()), 400, "invalid_scope");
        Http.Res ownScope = clientCredentials(c, "read_user");
        assertEquals(List.of(ownApi()), backendAccepts(ownScope.jsonString("access_token"), ownApi(), c.clientId())
                .getAudience(), "Portcullis's own scopes alone: its own audience");
        Http.Res own = clientCredentials(c, null, ownApi());
        assertEquals("read_user", own.jsonString("scope"));
        assertEquals(List.of(ownApi()), aud(own.jsonString("access_token")));

        Http.Res introspected = http.postForm("/oauth/introspect", Map.of("token", r.jsonString("access_token")),
                "Authorization", basic(c));
        assertEquals(payroll.identifier(), introspected.json().get("aud"));
        assertEquals(c.clientId(), introspected.json().get("sub"));
    }

    @Test
    void unknownForeignAndMalformedResourcesAreInvalidTarget() {
        TestApi payroll = api(null);
        TestApi foreign = api(null);
        Admin.TestClient c = client("read_user " + payroll.read());
        assertInvalidTarget(clientCredentials(c, null, "https://unknown.corp.example"));
        assertInvalidTarget(clientCredentials(c, null, foreign.identifier()));
        assertInvalidTarget(clientCredentials(c, null, payroll.identifier() + "#fragment"));
        assertInvalidTarget(clientCredentials(c, null, "payroll"));
        assertInvalidTarget(clientCredentials(c, "read_user", payroll.identifier()));
        Http.Res json = http.postJson("/oauth/token", "{\"grant_type\":\"client_credentials\",\"client_id\":"
                + Http.q(c.clientId()) + ",\"client_secret\":" + Http.q(c.secret()) + ",\"resource\":"
                + Http.q("https://unknown.corp.example") + "}");
        assertInvalidTarget(json);
        assertEquals(0, Db.count("SELECT COUNT(*) FROM token_grants WHERE client_id = ?", c.clientId()),
                "nothing was issued");
    }

    @Test
    void theAuthorizationEndpointRedirectsInvalidTargetToTheClient() {
        TestApi payroll = api(null);
        TestApi foreign = api(null);
        Admin.TestClient c = client("openid " + payroll.read());
        for (String resource : List.of("https://unknown.corp.example", foreign.identifier(), "not a uri")) {
            Map<String, String> redirect = authorize(c, "openid " + payroll.read(), resource);
            assertEquals("invalid_target", redirect.get("error"), redirect::toString);
            assertEquals("st-1", redirect.get("state"));
            assertFalse(redirect.containsKey("code"));
        }
        Http.Res untrusted = new UserAgent(BASE).get("/oauth/authorize?client_id=" + Http.enc(c.clientId())
                + "&redirect_uri=" + Http.enc("https://evil.example/cb") + "&response_type=code&scope=openid"
                + "&resource=" + Http.enc("https://unknown.corp.example"));
        assertEquals(400, untrusted.status(), "the error page, never a redirect to an unverified URI: " + untrusted);
        assertTrue(untrusted.header("Location") == null, untrusted::toString);
    }

    // ---------------------------------------------------------------- signing algorithms

    @Test
    void anApisSigningAlgorithmSignsItsTokensAndTwoAlgorithmsAreNotOneToken() throws Exception {
        TestApi rs = api("RS256");
        TestApi es = api("ES256");
        Admin.TestClient c = client(rs.read() + " " + es.read());
        String rsToken = clientCredentials(c, null, rs.identifier()).jsonString("access_token");
        assertEquals("RS256", alg(rsToken));
        backendAccepts(rsToken, rs.identifier(), c.clientId());
        String esToken = clientCredentials(c, null, es.identifier()).jsonString("access_token");
        assertEquals("ES256", alg(esToken));
        backendAccepts(esToken, es.identifier(), c.clientId());
        Http.Res introspected = http.postForm("/oauth/introspect", Map.of("token", rsToken), "Authorization",
                basic(c));
        assertEquals(true, introspected.json().get("active"), introspected::toString);

        Http.Res both = clientCredentials(c, null, rs.identifier(), es.identifier());
        assertInvalidTarget(both);
        assertTrue(both.jsonString("error_description").contains("different algorithms"), both::toString);
        Map<String, String> redirect = authorize(client("openid " + rs.read() + " " + es.read()),
                "openid " + rs.read() + " " + es.read(), rs.identifier(), es.identifier());
        assertEquals("invalid_target", redirect.get("error"), redirect::toString);
    }

    /** PS256 needs a PS256 signing key, which the server keeps once every access-token algorithm has keys. */
    @Test
    void aPs256ApiGetsPs256Tokens() throws Exception {
        assertTrue(jwks().getKeys().stream().anyMatch(k -> JWSAlgorithm.PS256.equals(k.getAlgorithm())),
                "a PS256 key is always published");
        TestApi ps = api("PS256");
        Admin.TestClient c = client(ps.read());
        String token = clientCredentials(c, null, ps.identifier()).jsonString("access_token");
        assertEquals("PS256", alg(token));
        backendAccepts(token, ps.identifier(), c.clientId());
    }

    // ---------------------------------------------------------------- discovery

    @Test
    void discoveryListsTheApisScopes() throws Exception {
        TestApi payroll = api(null);
        List<String> scopes = discovery().getScopes().toStringList();
        assertTrue(scopes.containsAll(List.of("openid", "profile", payroll.read(), payroll.write())),
                scopes::toString);
        assertEquals(204, admin.delete("/admin/apis/" + payroll.id()).status());
        assertFalse(discovery().getScopes().toStringList().contains(payroll.read()));
    }
}
