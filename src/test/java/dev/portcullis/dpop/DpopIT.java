package dev.portcullis.dpop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.jwk.Curve;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.gen.ECKeyGenerator;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import com.nimbusds.jwt.SignedJWT;
import com.nimbusds.oauth2.sdk.AccessTokenResponse;
import com.nimbusds.oauth2.sdk.AuthorizationCode;
import com.nimbusds.oauth2.sdk.AuthorizationCodeGrant;
import com.nimbusds.oauth2.sdk.ClientCredentialsGrant;
import com.nimbusds.oauth2.sdk.RefreshTokenGrant;
import com.nimbusds.oauth2.sdk.Scope;
import com.nimbusds.oauth2.sdk.TokenErrorResponse;
import com.nimbusds.oauth2.sdk.TokenRequest;
import com.nimbusds.oauth2.sdk.TokenResponse;
import com.nimbusds.oauth2.sdk.auth.ClientSecretBasic;
import com.nimbusds.oauth2.sdk.auth.Secret;
import com.nimbusds.oauth2.sdk.dpop.DefaultDPoPProofFactory;
import com.nimbusds.oauth2.sdk.dpop.DPoPProofFactory;
import com.nimbusds.oauth2.sdk.dpop.JWKThumbprintConfirmation;
import com.nimbusds.oauth2.sdk.dpop.verifiers.AccessTokenValidationException;
import com.nimbusds.oauth2.sdk.dpop.verifiers.DPoPIssuer;
import com.nimbusds.oauth2.sdk.dpop.verifiers.DPoPProtectedResourceRequestVerifier;
import com.nimbusds.oauth2.sdk.dpop.verifiers.DefaultDPoPSingleUseChecker;
import com.nimbusds.oauth2.sdk.http.HTTPRequest;
import com.nimbusds.oauth2.sdk.http.HTTPResponse;
import com.nimbusds.oauth2.sdk.id.ClientID;
import com.nimbusds.oauth2.sdk.id.JWTID;
import com.nimbusds.oauth2.sdk.pkce.CodeChallenge;
import com.nimbusds.oauth2.sdk.pkce.CodeChallengeMethod;
import com.nimbusds.oauth2.sdk.pkce.CodeVerifier;
import com.nimbusds.oauth2.sdk.token.AccessTokenType;
import com.nimbusds.oauth2.sdk.token.DPoPAccessToken;
import com.nimbusds.oauth2.sdk.token.RefreshToken;
import com.nimbusds.openid.connect.sdk.Nonce;
import com.nimbusds.openid.connect.sdk.OIDCTokenResponseParser;
import com.nimbusds.openid.connect.sdk.UserInfoRequest;
import dev.portcullis.testing.Admin;
import dev.portcullis.testing.ClassServer;
import dev.portcullis.testing.CodeFixture;
import dev.portcullis.testing.Concurrently;
import dev.portcullis.testing.Db;
import dev.portcullis.testing.Http;
import dev.portcullis.testing.ServerTestBase;
import java.net.URI;
import java.util.Date;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * DPoP (RFC 9449) over HTTP, driven by Nimbus' client SDK ({@link DefaultDPoPProofFactory}, {@link TokenRequest}
 * with a DPoP header): a public PKCE client's code and refresh, a confidential client's client credentials, and the
 * bound tokens at userinfo, {@code /api/v1}, introspection and revocation; then the refusals by class — a missing
 * proof, another method or URL, a stale or future iat, a wrong ath, a reused jti (also by two racing requests),
 * another key, a symmetric algorithm, a bound token used as Bearer — and server nonces.
 */
class DpopIT extends ServerTestBase {

    private static final String REDIRECT = "https://spa.example.com/cb";

    private final Admin admin = admin();

    private static DefaultDPoPProofFactory newKey() throws JOSEException {
        return new DefaultDPoPProofFactory(new ECKeyGenerator(Curve.P_256).generate(), JWSAlgorithm.ES256);
    }

    private static URI url(String path) {
        return URI.create(BASE + path);
    }

    /** A public PKCE client's code exchanged with a proof of {@code dpop}, by Nimbus' token request. */
    private static HTTPRequest codeRequest(Admin.TestClient c, Admin.TestUser u, String scope, SignedJWT proof) {
        CodeVerifier verifier = new CodeVerifier();
        String code = CodeFixture.issue(c.clientId(), u.userId(), REDIRECT, scope, null,
                CodeChallenge.compute(CodeChallengeMethod.S256, verifier).getValue());
        HTTPRequest r = new TokenRequest(url("/oauth/token"), new ClientID(c.clientId()),
                new AuthorizationCodeGrant(new AuthorizationCode(code), URI.create(REDIRECT), verifier))
                .toHTTPRequest();
        if (proof != null) {
            r.setDPoP(proof);
        }
        return r;
    }

    private static TokenResponse send(HTTPRequest r) throws Exception {
        return OIDCTokenResponseParser.parse(r.send());
    }

    private static AccessTokenResponse success(HTTPRequest r) throws Exception {
        TokenResponse t = send(r);
        assertTrue(t.indicatesSuccess(), () -> t.toErrorResponse().getErrorObject().toString());
        return t.toSuccessResponse();
    }

    private static void assertTokenError(HTTPResponse r, String error) {
        assertEquals(400, r.getStatusCode(), r::getBody);
        assertTrue(r.getHeaderValue("Content-Type").startsWith("application/json"), r::getBody);
        assertEquals(error, parse(r).get("error"), r::getBody);
    }

    private static Map<String, Object> parse(HTTPResponse r) {
        try {
            return r.getBodyAsJSONObject();
        } catch (com.nimbusds.oauth2.sdk.ParseException e) {
            throw new AssertionError(r.getBody(), e);
        }
    }

    /** A resource request's refusal: 401, a DPoP challenge with {@code error}. */
    private static void assertResourceError(Http.Res r, String error) {
        assertEquals(401, r.status(), r::toString);
        String challenge = r.header("WWW-Authenticate");
        assertNotNull(challenge, r::toString);
        assertTrue(challenge.startsWith("DPoP ") && challenge.contains("error=\"" + error + "\"")
                && challenge.contains("algs=\"ES256"), challenge);
    }

    private static String proof(DPoPProofFactory key, String method, String path, String token) throws JOSEException {
        return key.createDPoPJWT(method, url(path), token == null ? null : new DPoPAccessToken(token)).serialize();
    }

    private static long spentJtis() {
        return Db.count("SELECT COUNT(*) FROM dpop_proof_jtis");
    }

    // ---------------- the flows, with Nimbus ----------------

    @Test
    void aPublicClientsCodeAndRefreshAreBoundAndItsTokenWorksWithProofsOnly() throws Exception {
        Admin.TestClient c = admin.publicClient("openid profile read_user", REDIRECT);
        Admin.TestUser u = admin.user("correct horse battery");
        DefaultDPoPProofFactory key = newKey();
        String jkt = key.getPublicJWK().computeThumbprint().toString();

        AccessTokenResponse tokens = success(codeRequest(c, u, "openid profile read_user",
                key.createDPoPJWT("POST", url("/oauth/token"))));
        assertEquals(AccessTokenType.DPOP, tokens.getTokens().getAccessToken().getType());
        String at = tokens.getTokens().getAccessToken().getValue();
        Map<String, Object> cnf = SignedJWT.parse(at).getJWTClaimsSet().getJSONObjectClaim("cnf");
        assertEquals(Map.of("jkt", jkt), cnf, "the token alone tells a resource server the key (RFC 9449 6.1)");
        assertEquals(1, Db.count("SELECT COUNT(*) FROM token_grants WHERE client_id = ? AND dpop_jkt = ?",
                c.clientId(), jkt), "a public client's refresh tokens are bound");

        // userinfo through Nimbus' request with the DPoP token and a proof
        HTTPRequest userinfo = new UserInfoRequest(url("/oauth/userinfo"), new DPoPAccessToken(at)).toHTTPRequest();
        userinfo.setDPoP(key.createDPoPJWT("GET", url("/oauth/userinfo"), new DPoPAccessToken(at)));
        HTTPResponse claims = userinfo.send();
        assertEquals(200, claims.getStatusCode(), claims::getBody);
        assertEquals(u.userId(), parse(claims).get("sub"));

        // a resource server of its own checks the proof from the token alone, with Nimbus' verifier (README)
        URI payslips = URI.create("https://payroll-api.corp.example/payslips");
        DPoPProtectedResourceRequestVerifier rs = new DPoPProtectedResourceRequestVerifier(
                Set.of(JWSAlgorithm.ES256, JWSAlgorithm.PS256, JWSAlgorithm.RS256), 60,
                new DefaultDPoPSingleUseChecker(60, 10_000));
        com.nimbusds.jwt.JWTClaimsSet atClaims = SignedJWT.parse(at).getJWTClaimsSet();
        rs.verify("GET", payslips, new DPoPIssuer(atClaims.getStringClaim("client_id")),
                key.createDPoPJWT("GET", payslips, new DPoPAccessToken(at)), new DPoPAccessToken(at),
                JWKThumbprintConfirmation.parse(atClaims));
        // a proof by another key does not match cnf.jkt: Nimbus refuses the token for it
        assertThrows(AccessTokenValidationException.class, () -> rs.verify("GET", payslips,
                new DPoPIssuer(atClaims.getStringClaim("client_id")),
                newKey().createDPoPJWT("GET", payslips, new DPoPAccessToken(at)), new DPoPAccessToken(at),
                JWKThumbprintConfirmation.parse(atClaims)));

        // Portcullis's own API
        Http.Res me = http().get("/api/v1/me", "Authorization", "DPoP " + at, "DPoP",
                proof(key, "GET", "/api/v1/me", at));
        assertEquals(200, me.status(), me::toString);
        assertEquals(u.username(), me.jsonString("username"));

        // the refresh needs a proof by the same key
        RefreshToken rt = tokens.getTokens().getRefreshToken();
        HTTPRequest plain = new TokenRequest(url("/oauth/token"), new ClientID(c.clientId()), new RefreshTokenGrant(rt))
                .toHTTPRequest();
        assertTokenError(plain.send(), "invalid_dpop_proof");
        HTTPRequest otherKey = new TokenRequest(url("/oauth/token"), new ClientID(c.clientId()),
                new RefreshTokenGrant(rt)).toHTTPRequest();
        otherKey.setDPoP(newKey().createDPoPJWT("POST", url("/oauth/token")));
        assertTokenError(otherKey.send(), "invalid_dpop_proof");
        HTTPRequest refresh = new TokenRequest(url("/oauth/token"), new ClientID(c.clientId()),
                new RefreshTokenGrant(rt)).toHTTPRequest();
        refresh.setDPoP(key.createDPoPJWT("POST", url("/oauth/token")));
        AccessTokenResponse refreshed = success(refresh);
        assertEquals(AccessTokenType.DPOP, refreshed.getTokens().getAccessToken().getType());
        assertEquals(Map.of("jkt", jkt), SignedJWT.parse(refreshed.getTokens().getAccessToken().getValue())
                .getJWTClaimsSet().getJSONObjectClaim("cnf"));

        // revocation of the bound refresh token: with a proof by its key only
        RefreshToken next = refreshed.getTokens().getRefreshToken();
        Map<String, String> revoke = new LinkedHashMap<>();
        revoke.put("client_id", c.clientId());
        revoke.put("token", next.getValue());
        Http.Res refused = http().postForm("/oauth/revoke", revoke);
        assertEquals(400, refused.status(), refused::toString);
        assertEquals("invalid_dpop_proof", refused.jsonString("error"));
        Http.Res revoked = http().postForm("/oauth/revoke", revoke, "DPoP", proof(key, "POST", "/oauth/revoke",
                null));
        assertEquals(200, revoked.status(), revoked::toString);
        assertEquals(1, Db.count("SELECT COUNT(*) FROM token_grants WHERE client_id = ? AND revoked_at IS NOT NULL",
                c.clientId()));
    }

    @Test
    void aConfidentialClientsClientCredentialsTokenIsBoundAndIntrospectedWithCnf() throws Exception {
        Http.Res registered = admin.post("/admin/clients", "{\"client_name\":\"DPoP service\",\"redirect_uris\":"
                + "[\"https://svc.example.com/cb\"],\"scopes\":\"read_user\",\"grant_types\":[\"client_credentials\"]}");
        assertEquals(201, registered.status(), registered::toString);
        ClientSecretBasic auth = new ClientSecretBasic(new ClientID(registered.jsonString("client_id")),
                new Secret(registered.jsonString("client_secret")));
        DefaultDPoPProofFactory key = newKey();
        HTTPRequest r = new TokenRequest(url("/oauth/token"), auth, new ClientCredentialsGrant(), new Scope("read_user"))
                .toHTTPRequest();
        r.setDPoP(key.createDPoPJWT("POST", url("/oauth/token")));
        AccessTokenResponse tokens = success(r);
        assertEquals(AccessTokenType.DPOP, tokens.getTokens().getAccessToken().getType());
        String at = tokens.getTokens().getAccessToken().getValue();
        String jkt = key.getPublicJWK().computeThumbprint().toString();

        Map<String, String> form = Map.of("token", at);
        String basic = "Basic " + java.util.Base64.getEncoder().encodeToString((registered.jsonString("client_id")
                + ":" + registered.jsonString("client_secret")).getBytes());
        Http.Res noProof = http().postForm("/oauth/introspect", form, "Authorization", basic);
        assertEquals(400, noProof.status(), noProof::toString);
        assertEquals("invalid_dpop_proof", noProof.jsonString("error"));
        Http.Res introspected = http().postForm("/oauth/introspect", form, "Authorization", basic, "DPoP",
                proof(key, "POST", "/oauth/introspect", at));
        assertEquals(200, introspected.status(), introspected::toString);
        assertEquals(true, introspected.json().get("active"));
        assertEquals("DPoP", introspected.json().get("token_type"));
        assertEquals(Map.of("jkt", jkt), introspected.json().get("cnf"));

        Http.Res revoked = http().postForm("/oauth/revoke", form, "Authorization", basic, "DPoP",
                proof(key, "POST", "/oauth/revoke", at));
        assertEquals(200, revoked.status(), revoked::toString);
        Http.Res after = http().postForm("/oauth/introspect", form, "Authorization", basic, "DPoP",
                proof(key, "POST", "/oauth/introspect", at));
        assertEquals(false, after.json().get("active"), after::toString);
    }

    @Test
    void withoutAProofTokensStayBearerAndADpopBoundClientIsRefusedWithoutOne() throws Exception {
        Admin.TestClient c = admin.publicClient("openid read_user", REDIRECT);
        Admin.TestUser u = admin.user("correct horse battery");
        long spent = spentJtis();
        AccessTokenResponse bearer = success(codeRequest(c, u, "openid", null));
        assertEquals(AccessTokenType.BEARER, bearer.getTokens().getAccessToken().getType());
        assertEquals(spent, spentJtis(), "a request without DPoP writes nothing for it");
        String at = bearer.getTokens().getAccessToken().getValue();
        assertNull(SignedJWT.parse(at).getJWTClaimsSet().getClaim("cnf"));
        Http.Res asDpop = http().get("/oauth/userinfo", "Authorization", "DPoP " + at, "DPoP",
                proof(newKey(), "GET", "/oauth/userinfo", at));
        assertResourceError(asDpop, "invalid_token");

        Http.Res patched = admin.patch("/admin/clients/" + c.clientId(), "{\"dpop_bound_access_tokens\":true}");
        assertEquals(200, patched.status(), patched::toString);
        assertEquals(true, patched.json().get("dpop_bound_access_tokens"));
        assertTokenError(codeRequest(c, u, "openid", null).send(), "invalid_dpop_proof");
        assertEquals(AccessTokenType.DPOP, success(codeRequest(c, u, "openid",
                newKey().createDPoPJWT("POST", url("/oauth/token")))).getTokens().getAccessToken().getType());
    }

    // ---------------- refusals by class ----------------

    /** A user's DPoP-bound token for {@code key}, with scopes openid and read_user. */
    private String boundToken(DPoPProofFactory key) throws Exception {
        Admin.TestClient c = admin.publicClient("openid read_user", REDIRECT);
        Admin.TestUser u = admin.user("correct horse battery");
        return success(codeRequest(c, u, "openid read_user", key.createDPoPJWT("POST", url("/oauth/token"))))
                .getTokens().getAccessToken().getValue();
    }

    @Test
    void aBoundTokenIsRefusedAsBearerAndWithABadProofAtEveryResource() throws Exception {
        DefaultDPoPProofFactory key = newKey();
        String at = boundToken(key);
        for (String path : List.of("/oauth/userinfo", "/api/v1/me")) {
            assertResourceError(http().get(path, "Authorization", "Bearer " + at), "invalid_token");
            assertResourceError(http().get(path, "Authorization", "DPoP " + at), "invalid_dpop_proof");
            assertResourceError(http().get(path, "Authorization", "DPoP " + at, "DPoP",
                    proof(key, "POST", path, at)), "invalid_dpop_proof"); // htm
            assertResourceError(http().get(path, "Authorization", "DPoP " + at, "DPoP",
                    proof(key, "GET", "/oauth/token", at)), "invalid_dpop_proof"); // htu
            assertResourceError(http().get(path, "Authorization", "DPoP " + at, "DPoP",
                    proof(key, "GET", path, null)), "invalid_dpop_proof"); // no ath
            assertResourceError(http().get(path, "Authorization", "DPoP " + at, "DPoP",
                    proof(key, "GET", path, at + "x")), "invalid_dpop_proof"); // ath of another token
            assertResourceError(http().get(path, "Authorization", "DPoP " + at, "DPoP",
                    proof(newKey(), "GET", path, at)), "invalid_dpop_proof"); // another key
            assertResourceError(http().get(path, "Authorization", "DPoP " + at, "DPoP",
                    key.createDPoPJWT(new JWTID(), "GET", url(path), new Date(System.currentTimeMillis() - 120_000),
                            new DPoPAccessToken(at)).serialize()), "invalid_dpop_proof"); // stale
            assertResourceError(http().get(path, "Authorization", "DPoP " + at, "DPoP",
                    key.createDPoPJWT(new JWTID(), "GET", url(path), new Date(System.currentTimeMillis() + 60_000),
                            new DPoPAccessToken(at)).serialize()), "invalid_dpop_proof"); // future
            String once = proof(key, "GET", path, at);
            assertEquals(200, http().get(path, "Authorization", "DPoP " + at, "DPoP", once).status());
            assertResourceError(http().get(path, "Authorization", "DPoP " + at, "DPoP", once),
                    "invalid_dpop_proof"); // replayed
        }
    }

    @Test
    void theTokenEndpointRefusesBadProofsAsJson() throws Exception {
        Admin.TestClient c = admin.publicClient("openid", REDIRECT);
        Admin.TestUser u = admin.user("correct horse battery");
        DefaultDPoPProofFactory key = newKey();
        List<SignedJWT> bad = List.of(
                key.createDPoPJWT("GET", url("/oauth/token")),
                key.createDPoPJWT("POST", url("/oauth/userinfo")),
                key.createDPoPJWT("POST", URI.create("https://elsewhere.example/oauth/token")),
                key.createDPoPJWT(new JWTID(), "POST", url("/oauth/token"),
                        new Date(System.currentTimeMillis() - 120_000), null),
                key.createDPoPJWT(new JWTID(), "POST", url("/oauth/token"),
                        new Date(System.currentTimeMillis() + 60_000), null));
        for (SignedJWT proof : bad) {
            assertTokenError(codeRequest(c, u, "openid", proof).send(), "invalid_dpop_proof");
        }
        // HS256 with a jwk header: hand-built, no library makes one
        ECKey ec = new ECKeyGenerator(Curve.P_256).generate();
        String header = "{\"typ\":\"dpop+jwt\",\"alg\":\"HS256\",\"jwk\":" + ec.toPublicJWK().toJSONString() + "}";
        String payload = "{\"jti\":\"" + new JWTID().getValue() + "\",\"htm\":\"POST\",\"htu\":\"" + BASE
                + "/oauth/token\",\"iat\":" + System.currentTimeMillis() / 1000 + "}";
        String input = com.nimbusds.jose.util.Base64URL.encode(header) + "."
                + com.nimbusds.jose.util.Base64URL.encode(payload);
        String mac = new com.nimbusds.jose.crypto.MACSigner(new byte[32]).sign(
                new com.nimbusds.jose.JWSHeader(JWSAlgorithm.HS256), input.getBytes()).toString();
        HTTPRequest symmetric = codeRequest(c, u, "openid", null);
        symmetric.setHeader("DPoP", input + "." + mac);
        assertTokenError(symmetric.send(), "invalid_dpop_proof");
        // an RSA key (PS256) is as good as an EC one
        RSAKey rsa = new RSAKeyGenerator(2048).generate();
        assertEquals(AccessTokenType.DPOP, success(codeRequest(c, u, "openid", new DefaultDPoPProofFactory(rsa,
                JWSAlgorithm.PS256).createDPoPJWT("POST", url("/oauth/token")))).getTokens().getAccessToken()
                .getType());
    }

    @Test
    void aProofRacedByTwoRequestsIsAcceptedOnce() throws Exception {
        DefaultDPoPProofFactory key = newKey();
        String at = boundToken(key);
        String once = proof(key, "GET", "/oauth/userinfo", at);
        List<Integer> statuses = Concurrently.run(4, () -> http().get("/oauth/userinfo", "Authorization",
                "DPoP " + at, "DPoP", once).status());
        assertEquals(1, statuses.stream().filter(s -> s == 200).count(), statuses::toString);
        assertEquals(3, statuses.stream().filter(s -> s == 401).count(), statuses::toString);
    }

    @Test
    void discoveryNamesTheProofAlgorithms() {
        Map<String, Object> d = http().get("/.well-known/openid-configuration").json();
        assertEquals(List.of("ES256", "ES384", "ES512", "PS256", "PS384", "PS512", "RS256", "RS384", "RS512"),
                d.get("dpop_signing_alg_values_supported"));
        Http.Res purged = admin.post("/admin/purge", "");
        assertEquals(200, purged.status(), purged::toString);
        assertTrue(((Map<?, ?>) purged.json().get("purged")).containsKey("dpop_proof_jtis"), purged::toString);
    }

    // ---------------- server nonces ----------------

    @Test
    void withNoncesRequiredAProofWithoutOneGetsUseDpopNonceThenPassesWithIt() throws Exception {
        try (ClassServer strict = ClassServer.startOwn("-Dportcullis.dpop.nonce-required=true")) {
            URI token = URI.create(strict.base() + "/oauth/token");
            Admin.TestClient c = admin.publicClient("openid", REDIRECT); // one database: known to both servers
            Admin.TestUser u = admin.user("correct horse battery");
            DefaultDPoPProofFactory key = newKey();
            CodeVerifier verifier = new CodeVerifier();
            String code = CodeFixture.issue(c.clientId(), u.userId(), REDIRECT, "openid", null,
                    CodeChallenge.compute(CodeChallengeMethod.S256, verifier).getValue());
            TokenRequest request = new TokenRequest(token, new ClientID(c.clientId()),
                    new AuthorizationCodeGrant(new AuthorizationCode(code), URI.create(REDIRECT), verifier));
            HTTPRequest first = request.toHTTPRequest();
            first.setDPoP(key.createDPoPJWT("POST", token));
            HTTPResponse needsNonce = first.send();
            assertTokenError(needsNonce, "use_dpop_nonce");
            Nonce nonce = needsNonce.getDPoPNonce();
            assertNotNull(nonce, strict::output);
            HTTPRequest second = request.toHTTPRequest();
            second.setDPoP(key.createDPoPJWT("POST", token, nonce));
            TokenResponse t = OIDCTokenResponseParser.parse(second.send());
            assertTrue(t.indicatesSuccess(), () -> ((TokenErrorResponse) t).getErrorObject().toString());
            String at = t.toSuccessResponse().getTokens().getAccessToken().getValue();

            // a resource asks for the nonce the same way, with its 401 challenge
            Http strictHttp = strict.http();
            URI userinfo = URI.create(strict.base() + "/oauth/userinfo");
            Http.Res without = strictHttp.get("/oauth/userinfo", "Authorization", "DPoP " + at, "DPoP",
                    key.createDPoPJWT("GET", userinfo, new DPoPAccessToken(at)).serialize());
            assertResourceError(without, "use_dpop_nonce");
            String fresh = Objects.requireNonNull(without.header("DPoP-Nonce"), without::toString);
            Http.Res with = strictHttp.get("/oauth/userinfo", "Authorization", "DPoP " + at, "DPoP",
                    key.createDPoPJWT("GET", userinfo, new DPoPAccessToken(at), new Nonce(fresh)).serialize());
            assertEquals(200, with.status(), with::toString);
        }
    }
}
