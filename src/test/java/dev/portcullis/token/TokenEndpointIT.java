package dev.portcullis.token;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.crypto.ECDSAVerifier;
import com.nimbusds.jose.crypto.RSASSAVerifier;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jose.jwk.JWK;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import com.nimbusds.oauth2.sdk.AuthorizationCode;
import com.nimbusds.oauth2.sdk.ResponseType;
import com.nimbusds.oauth2.sdk.Scope;
import com.nimbusds.oauth2.sdk.TokenRequest;
import com.nimbusds.oauth2.sdk.TokenResponse;
import com.nimbusds.oauth2.sdk.auth.ClientSecretBasic;
import com.nimbusds.oauth2.sdk.auth.ClientSecretPost;
import com.nimbusds.oauth2.sdk.auth.Secret;
import com.nimbusds.oauth2.sdk.id.ClientID;
import com.nimbusds.oauth2.sdk.id.Issuer;
import com.nimbusds.oauth2.sdk.id.State;
import com.nimbusds.oauth2.sdk.pkce.CodeVerifier;
import com.nimbusds.openid.connect.sdk.AuthenticationRequest;
import com.nimbusds.openid.connect.sdk.Nonce;
import com.nimbusds.openid.connect.sdk.OIDCTokenResponse;
import com.nimbusds.openid.connect.sdk.OIDCTokenResponseParser;
import com.nimbusds.openid.connect.sdk.claims.IDTokenClaimsSet;
import com.nimbusds.openid.connect.sdk.op.OIDCProviderMetadata;
import com.nimbusds.openid.connect.sdk.validators.IDTokenValidator;
import dev.portcullis.crypto.Secrets;
import dev.portcullis.crypto.SplitToken;
import dev.portcullis.testing.Admin;
import dev.portcullis.testing.CodeFixture;
import dev.portcullis.testing.Db;
import dev.portcullis.testing.Http;
import dev.portcullis.testing.PortcullisIT;
import dev.portcullis.testing.UserAgent;
import java.net.URI;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * POST /oauth/token end to end against a real server: both seed variants (JSON body exactly as the seed, form body,
 * HTTP Basic; PKCE without a secret) with the Nimbus OIDC SDK as the client, every error row, single-use codes and
 * refresh-token rotation under concurrency, family revocation, discovery, JWKS and key rotation.
 */
class TokenEndpointIT extends PortcullisIT {

    private static final String REDIRECT = "https://app.example.com/cb";
    private static final String SPA_REDIRECT = "https://spa.example.com/cb";
    private static final String VERIFIER = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk";
    private static final String CHALLENGE = "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM";
    private static final Set<String> SEED_FIELDS =
            Set.of("access_token", "token_type", "expires_in", "refresh_token", "scope", "created_at");

    private final Http http = http();
    private final Admin admin = admin();

    private static Admin.TestClient confidential;
    private static Admin.TestClient publicClient;
    private static Admin.TestUser user;

    private synchronized void fixtures() {
        if (confidential == null) {
            confidential = admin.confidentialClient("openid profile email read_user api", REDIRECT);
            publicClient = admin.publicClient("openid profile read_user", SPA_REDIRECT);
            user = admin.user("correct horse battery");
        }
    }

    private String confidentialCode(String scope, String nonce) {
        fixtures();
        return CodeFixture.issue(confidential.clientId(), user.userId(), REDIRECT, scope, nonce, null);
    }

    private String publicCode(String scope) {
        fixtures();
        return CodeFixture.issue(publicClient.clientId(), user.userId(), SPA_REDIRECT, scope, null, CHALLENGE);
    }

    /** Variant A, the seed's JSON body exactly. */
    private Http.Res variantA(String code) {
        return http.postJson("/oauth/token", "{\"client_id\":" + Http.q(confidential.clientId())
                + ",\"client_secret\":" + Http.q(confidential.secret()) + ",\"code\":" + Http.q(code)
                + ",\"grant_type\":\"authorization_code\",\"redirect_uri\":" + Http.q(REDIRECT) + "}");
    }

    /** Variant B, the seed's JSON body exactly. */
    private Http.Res variantB(String code, String verifier) {
        return http.postJson("/oauth/token", "{\"client_id\":" + Http.q(publicClient.clientId())
                + ",\"code_verifier\":" + Http.q(verifier) + ",\"code\":" + Http.q(code)
                + ",\"grant_type\":\"authorization_code\",\"redirect_uri\":" + Http.q(SPA_REDIRECT) + "}");
    }

    private Http.Res form(Map<String, String> params, String... headers) {
        return http.postForm("/oauth/token", params, headers);
    }

    private Http.Res refresh(Admin.TestClient client, String refreshToken, String scope) {
        Map<String, String> p = new LinkedHashMap<>();
        p.put("grant_type", "refresh_token");
        p.put("refresh_token", refreshToken);
        p.put("client_id", client.clientId());
        if (client.secret() != null) {
            p.put("client_secret", client.secret());
        }
        if (scope != null) {
            p.put("scope", scope);
        }
        return form(p);
    }

    private static Map<String, String> codeForm(Admin.TestClient c, String code, String redirect) {
        Map<String, String> p = new LinkedHashMap<>();
        p.put("grant_type", "authorization_code");
        p.put("code", code);
        p.put("redirect_uri", redirect);
        p.put("client_id", c.clientId());
        if (c.secret() != null) {
            p.put("client_secret", c.secret());
        }
        return p;
    }

    private static void assertNoStore(Http.Res r) {
        assertEquals("no-store", r.header("Cache-Control"), r::toString);
        assertEquals("no-cache", r.header("Pragma"), r::toString);
    }

    private static void assertError(Http.Res r, int status, String error) {
        assertEquals(status, r.status(), r::toString);
        assertTrue(r.header("Content-Type").startsWith("application/json"), r::toString);
        assertEquals(error, r.jsonString("error"), r::toString);
        assertNotNull(r.jsonString("error_description"), r::toString);
        assertFalse(r.body().contains("Exception"), r::toString);
        assertNoStore(r);
    }

    private static JWTClaimsSet claims(String jwt) throws Exception {
        return SignedJWT.parse(jwt).getJWTClaimsSet();
    }

    private static String grantOf(String accessToken) throws Exception {
        String jti = claims(accessToken).getJWTID();
        return (String) Db.rows("SELECT grant_id FROM access_tokens WHERE jti = ?", jti).get(0).get("grant_id");
    }

    private static boolean grantRevoked(String grantId) {
        return Db.rows("SELECT revoked_at FROM token_grants WHERE grant_id = ?", grantId).get(0).get("revoked_at") != null;
    }

    private static boolean accessTokenRevoked(String accessToken) throws Exception {
        return Db.rows("SELECT revoked_at FROM access_tokens WHERE jti = ?", claims(accessToken).getJWTID())
                .get(0).get("revoked_at") != null;
    }

    private static OIDCProviderMetadata discovery() throws Exception {
        return OIDCProviderMetadata.resolve(new Issuer(BASE));
    }

    private static JWKSet jwks() throws Exception {
        return JWKSet.load(discovery().getJWKSetURI().toURL());
    }

    // ---------------------------------------------------------------- variant A

    @Test
    void variantAWithTheSeedsJsonBodyReturnsTheSeedsFieldsAndAValidIdToken() throws Exception {
        String code = confidentialCode("openid profile email", "n-0S6_WzA2Mj");
        long before = System.currentTimeMillis() / 1000;
        Http.Res r = variantA(code);
        assertEquals(200, r.status(), r::toString);
        assertNoStore(r);
        assertTrue(r.header("Content-Type").startsWith("application/json"));
        Map<String, Object> json = r.json();
        Set<String> expected = new java.util.HashSet<>(SEED_FIELDS);
        expected.add("id_token");
        assertEquals(expected, json.keySet());
        assertEquals("Bearer", json.get("token_type"));
        assertEquals(3600L, ((Number) json.get("expires_in")).longValue());
        assertInstanceOf(Long.class, json.get("expires_in"), "expires_in is an integer");
        assertInstanceOf(Long.class, json.get("created_at"), "created_at is an integer");
        long createdAt = (Long) json.get("created_at");
        assertTrue(createdAt >= before - 2 && createdAt <= before + 60, "created_at is epoch seconds: " + createdAt);
        assertEquals("openid profile email", json.get("scope"));

        // ID token, validated the way a relying party does: issuer from discovery, keys from jwks_uri
        OIDCProviderMetadata meta = discovery();
        IDTokenValidator validator = new IDTokenValidator(meta.getIssuer(), new ClientID(confidential.clientId()),
                JWSAlgorithm.RS256, meta.getJWKSetURI().toURL());
        String accessToken = (String) json.get("access_token");
        IDTokenClaimsSet id = validator.validate(SignedJWT.parse((String) json.get("id_token")), new Nonce("n-0S6_WzA2Mj"));
        assertEquals(user.userId(), id.getSubject().getValue());
        assertEquals(confidential.clientId(), id.getStringClaim("azp"));
        assertNotNull(id.getAuthenticationTime());
        assertEquals(user.username(), id.getStringClaim("preferred_username"));
        assertEquals(user.username() + "@example.com", id.getStringClaim("email"));
        assertEquals(Boolean.FALSE, id.getBooleanClaim("email_verified"), "the same email claims as userinfo");
        assertEquals(com.nimbusds.openid.connect.sdk.claims.AccessTokenHash.compute(
                new com.nimbusds.oauth2.sdk.token.BearerAccessToken(accessToken), JWSAlgorithm.RS256, null),
                id.getAccessTokenHash());

        // RFC 9068 access token, verifiable from the JWKS alone
        SignedJWT at = SignedJWT.parse(accessToken);
        assertEquals(new JOSEObjectType("at+jwt"), at.getHeader().getType());
        assertEquals(JWSAlgorithm.ES256, at.getHeader().getAlgorithm());
        JWK key = jwks().getKeyByKeyId(at.getHeader().getKeyID());
        assertNotNull(key, "access token kid is published");
        assertTrue(at.verify(new ECDSAVerifier((ECKey) key)));
        JWTClaimsSet c = at.getJWTClaimsSet();
        assertEquals(BASE, c.getIssuer());
        assertEquals(user.userId(), c.getSubject());
        assertEquals(List.of(BASE + "/api"), c.getAudience());
        assertEquals(confidential.clientId(), c.getStringClaim("client_id"));
        assertEquals("openid profile email", c.getStringClaim("scope"));
        assertEquals(3600, (c.getExpirationTime().getTime() - c.getIssueTime().getTime()) / 1000);

        // what is stored: the jti with its grant; the refresh token only as its hash
        Map<String, Object> row = Db.rows("SELECT * FROM access_tokens WHERE jti = ?", c.getJWTID()).get(0);
        assertNull(row.get("revoked_at"));
        String grantId = (String) row.get("grant_id");
        Map<String, Object> grant = Db.rows("SELECT * FROM token_grants WHERE grant_id = ?", grantId).get(0);
        assertEquals(confidential.clientId(), grant.get("client_id"));
        assertEquals(user.userId(), grant.get("user_id"));
        String refreshToken = (String) json.get("refresh_token");
        assertTrue(refreshToken.matches("[0-9a-f-]{36}\\.[A-Za-z0-9_-]{43}"), "an id and 256 random bits");
        SplitToken parts = SplitToken.parse(refreshToken);
        assertEquals(1, Db.count("SELECT COUNT(*) FROM refresh_tokens WHERE token_id = ? AND secret_hash = ? "
                + "AND grant_id = ?", parts.id(), Secrets.hash(parts.secret().orElseThrow()), grantId));
        assertEquals(grantId, Db.rows("SELECT grant_id FROM authorization_codes WHERE code_id = ?",
                SplitToken.parse(code).id()).get(0).get("grant_id"));
        assertTrue(Db.count("SELECT COUNT(*) FROM audit_events WHERE event_type = 'CODE_REDEEMED' AND client_id = ?",
                confidential.clientId()) >= 1);
    }

    @Test
    void variantAWithFormBodyAndClientSecretPostThroughTheNimbusClient() throws Exception {
        String code = confidentialCode("openid read_user", null);
        TokenRequest request = new TokenRequest.Builder(URI.create(BASE + "/oauth/token"),
                new ClientSecretPost(new ClientID(confidential.clientId()), new Secret(confidential.secret())),
                new com.nimbusds.oauth2.sdk.AuthorizationCodeGrant(new AuthorizationCode(code), URI.create(REDIRECT)))
                .build();
        TokenResponse response = OIDCTokenResponseParser.parse(request.toHTTPRequest().send());
        assertTrue(response.indicatesSuccess(), () -> response.toErrorResponse().getErrorObject().toString());
        OIDCTokenResponse ok = (OIDCTokenResponse) response.toSuccessResponse();
        assertEquals("openid read_user", ok.getOIDCTokens().getAccessToken().getScope().toString());
        assertNotNull(ok.getOIDCTokens().getRefreshToken());
        IDTokenClaimsSet id = new IDTokenValidator(new Issuer(BASE), new ClientID(confidential.clientId()),
                JWSAlgorithm.RS256, jwks()).validate(ok.getOIDCTokens().getIDToken(), null);
        assertNull(id.getStringClaim("email"), "no email claim without the email scope");
        assertNull(id.getClaim("email_verified"), "no email claims without the email scope");
        assertNull(id.getStringClaim("preferred_username"), "no profile claims without the profile scope");
        assertNull(id.getNonce());
    }

    @Test
    void variantAWithHttpBasicThroughTheNimbusClient() throws Exception {
        String code = confidentialCode("openid", "abc");
        TokenRequest request = new TokenRequest.Builder(URI.create(BASE + "/oauth/token"),
                new ClientSecretBasic(new ClientID(confidential.clientId()), new Secret(confidential.secret())),
                new com.nimbusds.oauth2.sdk.AuthorizationCodeGrant(new AuthorizationCode(code), URI.create(REDIRECT)))
                .build();
        TokenResponse response = OIDCTokenResponseParser.parse(request.toHTTPRequest().send());
        assertTrue(response.indicatesSuccess(), () -> response.toErrorResponse().getErrorObject().toString());
        OIDCTokenResponse ok = (OIDCTokenResponse) response.toSuccessResponse();
        new IDTokenValidator(new Issuer(BASE), new ClientID(confidential.clientId()), JWSAlgorithm.RS256, jwks())
                .validate(ok.getOIDCTokens().getIDToken(), new Nonce("abc"));
    }

    @Test
    void withoutOpenidScopeTheResponseHasExactlyTheSeedsFields() {
        Http.Res r = variantA(confidentialCode("read_user api", null));
        assertEquals(200, r.status(), r::toString);
        assertEquals(SEED_FIELDS, r.json().keySet());
        assertEquals("read_user api", r.jsonString("scope"));
    }

    // ---------------------------------------------------------------- variant B

    @Test
    void variantBWithTheSeedsJsonBodyAndPkce() throws Exception {
        Http.Res r = variantB(publicCode("openid profile"), VERIFIER);
        assertEquals(200, r.status(), r::toString);
        assertNoStore(r);
        assertEquals("openid profile", r.jsonString("scope"));
        IDTokenClaimsSet id = new IDTokenValidator(new Issuer(BASE), new ClientID(publicClient.clientId()),
                JWSAlgorithm.RS256, jwks()).validate(SignedJWT.parse(r.jsonString("id_token")), null);
        assertEquals(user.userId(), id.getSubject().getValue());
    }

    @Test
    void variantBThroughTheNimbusClientWithCodeVerifier() throws Exception {
        CodeVerifier verifier = new CodeVerifier();
        fixtures();
        String challenge = com.nimbusds.oauth2.sdk.pkce.CodeChallenge.compute(
                com.nimbusds.oauth2.sdk.pkce.CodeChallengeMethod.S256, verifier).getValue();
        String code = CodeFixture.issue(publicClient.clientId(), user.userId(), SPA_REDIRECT, "openid", null, challenge);
        TokenRequest request = new TokenRequest.Builder(URI.create(BASE + "/oauth/token"),
                new ClientID(publicClient.clientId()), new com.nimbusds.oauth2.sdk.AuthorizationCodeGrant(
                        new AuthorizationCode(code), URI.create(SPA_REDIRECT), verifier)).build();
        TokenResponse response = OIDCTokenResponseParser.parse(request.toHTTPRequest().send());
        assertTrue(response.indicatesSuccess(), () -> response.toErrorResponse().getErrorObject().toString());
    }

    // ---------------------------------------------------------------- end to end through the real sign-in

    /**
     * The whole seed flow as a relying party sees it: the Nimbus SDK builds the authentication request, a browser
     * (UserAgent) signs in and consents at the real authorization endpoint, the code comes back with state and iss,
     * and the SDK exchanges it and validates the ID token (nonce included) against the published JWKS.
     */
    @Test
    void endToEndVariantAThroughTheRealSignInWithTheNimbusClient() throws Exception {
        fixtures();
        State state = new State();
        Nonce nonce = new Nonce();
        AuthenticationRequest authn = new AuthenticationRequest.Builder(ResponseType.CODE,
                new Scope("openid", "profile", "email"), new ClientID(confidential.clientId()), URI.create(REDIRECT))
                .state(state).nonce(nonce).endpointURI(URI.create(BASE + "/oauth/authorize")).build();
        Map<String, String> redirect = new UserAgent(BASE).authorizeAndGetRedirectParams(confidential, user,
                Http.query(authn.toURI().toString()));
        assertEquals(state.getValue(), redirect.get("state"));
        assertEquals(BASE, redirect.get("iss"), "RFC 9207 issuer in the authorization response");

        TokenRequest request = new TokenRequest.Builder(URI.create(BASE + "/oauth/token"),
                new ClientSecretBasic(new ClientID(confidential.clientId()), new Secret(confidential.secret())),
                new com.nimbusds.oauth2.sdk.AuthorizationCodeGrant(new AuthorizationCode(redirect.get("code")),
                        URI.create(REDIRECT))).build();
        TokenResponse response = OIDCTokenResponseParser.parse(request.toHTTPRequest().send());
        assertTrue(response.indicatesSuccess(), () -> response.toErrorResponse().getErrorObject().toString());
        OIDCTokenResponse ok = (OIDCTokenResponse) response.toSuccessResponse();
        IDTokenClaimsSet id = new IDTokenValidator(discovery().getIssuer(), new ClientID(confidential.clientId()),
                JWSAlgorithm.RS256, jwks()).validate(ok.getOIDCTokens().getIDToken(), nonce);
        assertEquals(user.userId(), id.getSubject().getValue());
        assertEquals(user.username(), id.getStringClaim("preferred_username"));
        assertEquals(user.username() + "@example.com", id.getStringClaim("email"));
    }

    @Test
    void endToEndVariantBThroughTheRealSignInWithPkceAndNoSecret() throws Exception {
        fixtures();
        CodeVerifier verifier = new CodeVerifier();
        State state = new State();
        AuthenticationRequest authn = new AuthenticationRequest.Builder(ResponseType.CODE, new Scope("openid"),
                new ClientID(publicClient.clientId()), URI.create(SPA_REDIRECT)).state(state).nonce(new Nonce())
                .codeChallenge(verifier, com.nimbusds.oauth2.sdk.pkce.CodeChallengeMethod.S256)
                .endpointURI(URI.create(BASE + "/oauth/authorize")).build();
        Map<String, String> redirect = new UserAgent(BASE).authorizeAndGetRedirectParams(publicClient, user,
                Http.query(authn.toURI().toString()));
        assertEquals(state.getValue(), redirect.get("state"));

        // the seed's JSON body for variant B: client_id, code_verifier, code, grant_type, redirect_uri
        Http.Res r = variantB(redirect.get("code"), verifier.getValue());
        assertEquals(200, r.status(), r::toString);
        Set<String> fields = new java.util.HashSet<>(r.json().keySet());
        assertTrue(fields.remove("id_token"));
        assertEquals(SEED_FIELDS, fields, "exactly the seed's token response fields, plus id_token");
        new IDTokenValidator(new Issuer(BASE), new ClientID(publicClient.clientId()), JWSAlgorithm.RS256, jwks())
                .validate(SignedJWT.parse(r.jsonString("id_token")), new Nonce(authn.getNonce().getValue()));
        assertEquals(400, variantB(redirect.get("code"), verifier.getValue()).status(), "a code works once");
    }

    // ---------------------------------------------------------------- error rows: request format

    @Test
    void unsupportedContentTypeIs415Json() {
        assertError(http.post("/oauth/token", "text/plain", "grant_type=authorization_code"), 415, "invalid_request");
        assertError(http.post("/oauth/token", null, "grant_type=authorization_code"), 415, "invalid_request");
    }

    @Test
    void duplicateParametersAreInvalidRequest() {
        fixtures();
        assertError(http.post("/oauth/token", "application/x-www-form-urlencoded",
                "grant_type=authorization_code&code=a&code=b&client_id=" + publicClient.clientId()), 400, "invalid_request");
        assertError(http.postJson("/oauth/token", "{\"grant_type\":\"authorization_code\",\"code\":\"a\",\"code\":\"b\"}"),
                400, "invalid_request");
    }

    @ParameterizedTest
    @ValueSource(strings = {"[]", "{\"grant_type\":1}", "{\"grant_type\":\"authorization_code\"", "not json", ""})
    void malformedJsonIsInvalidRequest(String body) {
        assertError(http.postJson("/oauth/token", body), 400, "invalid_request");
    }

    @Test
    void oversizedBodyIs413Json() {
        Http.Res r = http.post("/oauth/token", "application/x-www-form-urlencoded", "code=" + "a".repeat(70_000));
        assertEquals(413, r.status(), r::toString);
        assertEquals("invalid_request", r.jsonString("error"));
    }

    @Test
    void acceptWithoutJsonIs406AndAcceptJsonOrNoneIsServed() {
        Http.Res r = http.post("/oauth/token", "application/x-www-form-urlencoded", "grant_type=x", "Accept", "text/html");
        assertEquals(406, r.status(), r::toString);
        assertError(http.post("/oauth/token", "application/x-www-form-urlencoded", "grant_type=x"), 400,
                "unsupported_grant_type");
        assertError(http.post("/oauth/token", "application/x-www-form-urlencoded", "grant_type=x", "Accept",
                "application/json"), 400, "unsupported_grant_type");
    }

    @Test
    void missingGrantTypeIsInvalidRequest() {
        assertError(form(Map.of("code", "x")), 400, "invalid_request");
    }

    @ParameterizedTest
    @ValueSource(strings = {"password", "client_credentials", "implicit", "urn:ietf:params:oauth:grant-type:device_code"})
    void otherGrantTypesAreUnsupported(String grantType) {
        fixtures();
        assertError(form(Map.of("grant_type", grantType, "client_id", confidential.clientId(),
                "client_secret", confidential.secret())), 400, "unsupported_grant_type");
    }

    @Test
    void getIsNotAllowed() {
        Http.Res r = http.get("/oauth/token");
        assertEquals(405, r.status(), r::toString);
        assertEquals("method_not_allowed", r.jsonString("error"));
    }

    // ---------------------------------------------------------------- error rows: client authentication

    @Test
    void confidentialClientWithoutSecretIsInvalidClient() {
        Map<String, String> p = codeForm(confidential(), confidentialCode("openid", null), REDIRECT);
        p.remove("client_secret");
        Http.Res r = form(p);
        assertError(r, 401, "invalid_client");
        assertTrue(r.header("WWW-Authenticate").startsWith("Basic realm="),
                "RFC 9110 11.6.1: every 401 names a scheme, also when Basic was not tried");
    }

    @Test
    void wrongSecretInBodyIsInvalidClientAndAudited() {
        Map<String, String> p = codeForm(confidential(), confidentialCode("openid", null), REDIRECT);
        p.put("client_secret", Secrets.newSecret());
        long before = Db.count("SELECT COUNT(*) FROM audit_events WHERE event_type = 'CLIENT_AUTH_FAILURE'");
        assertError(form(p), 401, "invalid_client");
        assertTrue(Db.count("SELECT COUNT(*) FROM audit_events WHERE event_type = 'CLIENT_AUTH_FAILURE'") > before);
    }

    @Test
    void wrongSecretWithBasicIs401WithBasicChallenge() {
        Map<String, String> p = codeForm(confidential(), confidentialCode("openid", null), REDIRECT);
        p.remove("client_secret");
        p.remove("client_id");
        Http.Res r = form(p, "Authorization", basic(confidential.clientId(), "wrong"));
        assertError(r, 401, "invalid_client");
        assertTrue(r.header("WWW-Authenticate").startsWith("Basic realm="), r::toString);
    }

    @Test
    void basicWithTheRightSecretWorksWithRawForm() {
        Map<String, String> p = codeForm(confidential(), confidentialCode("openid", null), REDIRECT);
        p.remove("client_secret");
        assertEquals(200, form(p, "Authorization", basic(confidential.clientId(), confidential.secret())).status());
    }

    @Test
    void twoAuthenticationMethodsAtOnceAreInvalidRequest() {
        Map<String, String> p = codeForm(confidential(), confidentialCode("openid", null), REDIRECT);
        assertError(form(p, "Authorization", basic(confidential.clientId(), confidential.secret())), 400,
                "invalid_request");
    }

    @Test
    void unknownClientIsInvalidClient() {
        assertError(form(Map.of("grant_type", "authorization_code", "code", "x", "client_id", "nope",
                "client_secret", "x")), 401, "invalid_client");
        assertError(form(Map.of("grant_type", "authorization_code", "code", "x")), 401, "invalid_client");
    }

    @Test
    void publicClientSendingASecretIsInvalidClient() {
        Map<String, String> p = codeForm(publicClient(), publicCode("openid"), SPA_REDIRECT);
        p.put("code_verifier", VERIFIER);
        p.put("client_secret", "anything");
        assertError(form(p), 401, "invalid_client");
        p.remove("client_secret");
        p.remove("client_id");
        assertError(form(p, "Authorization", basic(publicClient.clientId(), "anything")), 401, "invalid_client");
    }

    // ---------------------------------------------------------------- error rows: the code

    @Test
    void missingCodeIsInvalidRequest() {
        Map<String, String> p = codeForm(confidential(), "x", REDIRECT);
        p.remove("code");
        assertError(form(p), 400, "invalid_request");
    }

    @Test
    void unknownCodeIsInvalidGrant() {
        fixtures();
        assertError(variantA(Secrets.newSecret()), 400, "invalid_grant");
    }

    @Test
    void expiredCodeIsInvalidGrant() {
        fixtures();
        String code = CodeFixture.issue(confidential.clientId(), user.userId(), REDIRECT, true, "openid", null, null, -1);
        assertError(variantA(code), 400, "invalid_grant");
    }

    @Test
    void codeOfAnotherClientIsInvalidGrant() {
        Admin.TestClient other = admin.confidentialClient("openid", REDIRECT);
        Http.Res r = form(codeForm(other, confidentialCode("openid", null), REDIRECT));
        assertError(r, 400, "invalid_grant");
    }

    @Test
    void redirectUriMismatchOrMissingIsInvalidGrant() {
        assertError(form(codeForm(confidential(), confidentialCode("openid", null), REDIRECT + "/other")), 400,
                "invalid_grant");
        Map<String, String> p = codeForm(confidential(), confidentialCode("openid", null), REDIRECT);
        p.remove("redirect_uri");
        assertError(form(p), 400, "invalid_grant");
    }

    @Test
    void redirectUriMayBeOmittedWhenTheAuthorizationRequestHadNone() {
        fixtures();
        String code = CodeFixture.issue(confidential.clientId(), user.userId(), REDIRECT, false, "openid", null, null, 60);
        Map<String, String> p = codeForm(confidential, code, REDIRECT);
        p.remove("redirect_uri");
        assertEquals(200, form(p).status());
    }

    // ---------------------------------------------------------------- error rows: PKCE

    @Test
    void wrongVerifierIsInvalidGrant() {
        assertError(variantB(publicCode("openid"), "x".repeat(43)), 400, "invalid_grant");
    }

    @ParameterizedTest
    @ValueSource(strings = {"short", "0123456789012345678901234567890123456789+/=", "with space 0123456789012345678901234567890"})
    void malformedVerifierIsInvalidRequest(String verifier) {
        assertError(variantB(publicCode("openid"), verifier), 400, "invalid_request");
    }

    @Test
    void overlongVerifierIsInvalidRequest() {
        assertError(variantB(publicCode("openid"), "a".repeat(129)), 400, "invalid_request");
    }

    @Test
    void missingVerifierWhenTheCodeHasAChallengeIsInvalidGrant() {
        assertError(form(codeForm(publicClient(), publicCode("openid"), SPA_REDIRECT)), 400, "invalid_grant");
    }

    @Test
    void verifierForACodeWithoutChallengeIsRejectedAsDowngrade() {
        Map<String, String> p = codeForm(confidential(), confidentialCode("openid", null), REDIRECT);
        p.put("code_verifier", VERIFIER);
        assertError(form(p), 400, "invalid_grant");
    }

    @Test
    void publicClientCodeWithoutChallengeIsInvalidGrant() {
        fixtures();
        String code = CodeFixture.issue(publicClient.clientId(), user.userId(), SPA_REDIRECT, "openid", null, null);
        assertError(form(codeForm(publicClient, code, SPA_REDIRECT)), 400, "invalid_grant");
    }

    @Test
    void confidentialClientWithPkceWorksToo() {
        fixtures();
        String code = CodeFixture.issue(confidential.clientId(), user.userId(), REDIRECT, "openid", null, CHALLENGE);
        Map<String, String> p = codeForm(confidential, code, REDIRECT);
        p.put("code_verifier", VERIFIER);
        assertEquals(200, form(p).status());
    }

    // ---------------------------------------------------------------- single use

    @Test
    void secondRedemptionFailsAndRevokesTheTokensOfTheFirst() throws Exception {
        String code = confidentialCode("openid", null);
        Http.Res first = variantA(code);
        assertEquals(200, first.status(), first::toString);
        String grantId = grantOf(first.jsonString("access_token"));
        assertFalse(grantRevoked(grantId));

        assertError(variantA(code), 400, "invalid_grant");
        assertTrue(grantRevoked(grantId), "the replay revoked the grant (committed although the request failed)");
        assertTrue(accessTokenRevoked(first.jsonString("access_token")));
        assertError(refresh(confidential, first.jsonString("refresh_token"), null), 400, "invalid_grant");
        assertTrue(Db.count("SELECT COUNT(*) FROM audit_events WHERE event_type = 'CODE_REPLAYED' AND client_id = ?",
                confidential.clientId()) >= 1);
    }

    @Test
    void twentyConcurrentRedemptionsOfOneCodeYieldExactlyOneSuccessAndItsTokensAreRevoked() throws Exception {
        String code = confidentialCode("openid", null);
        List<Http.Res> results = race(20, () -> variantA(code));
        List<Http.Res> ok = results.stream().filter(r -> r.status() == 200).toList();
        assertEquals(1, ok.size(), () -> results.stream().map(Http.Res::toString).toList().toString());
        results.stream().filter(r -> r.status() != 200).forEach(r -> assertError(r, 400, "invalid_grant"));

        String grantId = grantOf(ok.get(0).jsonString("access_token"));
        assertEquals(1, Db.count("SELECT COUNT(*) FROM token_grants WHERE grant_id = ?", grantId));
        assertEquals(grantId, Db.rows("SELECT grant_id FROM authorization_codes WHERE code_id = ?",
                SplitToken.parse(code).id()).get(0).get("grant_id"));
        assertTrue(grantRevoked(grantId), "the losers' replays revoked the winner's grant");
        assertTrue(accessTokenRevoked(ok.get(0).jsonString("access_token")));
        assertEquals(1, Db.count("SELECT COUNT(*) FROM access_tokens WHERE grant_id = ?", grantId),
                "the losers left no tokens behind");
        assertError(refresh(confidential, ok.get(0).jsonString("refresh_token"), null), 400, "invalid_grant");
    }

    // ---------------------------------------------------------------- refresh

    @Test
    void aCodeOrRefreshTokenWithTheRightIdButAnotherSecretIsUnknownAndChangesNothing() throws Exception {
        String code = confidentialCode("openid", null);
        String codeId = SplitToken.parse(code).id();
        assertError(variantA(codeId + "." + Secrets.newSecret()), 400, "invalid_grant");
        assertError(variantA(codeId), 400, "invalid_grant");
        Http.Res first = variantA(code);
        assertEquals(200, first.status(), "the genuine code was not burnt: " + first);

        String rt = first.jsonString("refresh_token");
        String tokenId = SplitToken.parse(rt).id();
        assertError(refresh(confidential, tokenId + "." + Secrets.newSecret(), null), 400, "invalid_grant");
        assertError(refresh(confidential, tokenId, null), 400, "invalid_grant");
        Http.Res next = refresh(confidential, rt, null);
        assertEquals(200, next.status(), "no rotation and no revocation happened: " + next);
    }

    @Test
    void codesAndRefreshTokensIssuedBeforeV3KeepWorking() throws Exception {
        // rows as written before V3: keyed by the hash of the whole value, no secret hash
        fixtures();
        Http.Res first = variantA(CodeFixture.issueBeforeV3(confidential.clientId(), user.userId(), REDIRECT,
                "openid"));
        assertEquals(200, first.status(), first::toString);
        String grantId = grantOf(first.jsonString("access_token"));
        String earlier = Secrets.newSecret();
        long now = java.time.Instant.now().getEpochSecond();
        Db.update("INSERT INTO refresh_tokens (token_id, secret_hash, grant_id, scope, created_at, expires_at, "
                + "used_at) VALUES (?, NULL, ?, 'openid', ?, ?, NULL)", Secrets.hash(earlier), grantId, now, now + 600);

        assertError(refresh(confidential, Secrets.hash(earlier) + "." + Secrets.newSecret(), null), 400,
                "invalid_grant");
        Http.Res rotated = refresh(confidential, earlier, null);
        assertEquals(200, rotated.status(), rotated::toString);
        assertTrue(rotated.jsonString("refresh_token").contains("."), "the next token has the current form");
        assertError(refresh(confidential, earlier, null), 400, "invalid_grant");
        assertTrue(grantRevoked(grantId), "reuse of the earlier token revoked its family");
    }

    @Test
    void refreshRotatesTheTokenAndMayNarrowButNeverWidenTheScope() throws Exception {
        Http.Res first = variantA(confidentialCode("openid profile read_user", null));
        String rt1 = first.jsonString("refresh_token");
        String grantId = grantOf(first.jsonString("access_token"));

        assertError(refresh(confidential, rt1, "openid api"), 400, "invalid_scope");

        Http.Res second = refresh(confidential, rt1, "read_user");
        assertEquals(200, second.status(), second::toString);
        assertNoStore(second);
        assertEquals(SEED_FIELDS, second.json().keySet(), "no openid in the narrowed scope: no id_token");
        assertEquals("read_user", second.jsonString("scope"));
        assertEquals("read_user", claims(second.jsonString("access_token")).getStringClaim("scope"));
        String rt2 = second.jsonString("refresh_token");
        assertNotEquals(rt1, rt2);
        assertEquals(grantId, grantOf(second.jsonString("access_token")), "same family");
        assertNotNull(Db.rows("SELECT used_at FROM refresh_tokens WHERE token_id = ?", SplitToken.parse(rt1).id())
                .get(0).get("used_at"));

        // the rotated token keeps the granted scope: the next refresh may ask for all of it again, with an ID token
        Http.Res third = refresh(confidential, rt2, null);
        assertEquals(200, third.status(), third::toString);
        assertEquals("openid profile read_user", third.jsonString("scope"));
        assertNotNull(third.jsonString("id_token"));
        assertTrue(Db.count("SELECT COUNT(*) FROM audit_events WHERE event_type = 'TOKEN_REFRESHED' AND client_id = ?",
                confidential.clientId()) >= 2);
    }

    @Test
    void replayOfARotatedRefreshTokenRevokesTheWholeFamily() throws Exception {
        Http.Res first = variantB(publicCode("openid read_user"), VERIFIER);
        assertEquals(200, first.status(), first::toString);
        String rt1 = first.jsonString("refresh_token");
        Http.Res second = refresh(publicClient, rt1, null);
        assertEquals(200, second.status(), second::toString);
        String newestAccessToken = second.jsonString("access_token");
        assertFalse(accessTokenRevoked(newestAccessToken));

        assertError(refresh(publicClient, rt1, null), 400, "invalid_grant");
        assertTrue(grantRevoked(grantOf(newestAccessToken)));
        assertTrue(accessTokenRevoked(newestAccessToken), "the newest access token stops working");
        assertTrue(accessTokenRevoked(first.jsonString("access_token")));
        assertError(refresh(publicClient, second.jsonString("refresh_token"), null), 400, "invalid_grant");
        assertTrue(Db.count("SELECT COUNT(*) FROM audit_events WHERE event_type = 'REFRESH_TOKEN_REUSED' AND client_id = ?",
                publicClient.clientId()) >= 1);
    }

    @Test
    void parallelUseOfOneRefreshTokenYieldsExactlyOneSuccessAndRevokesTheFamily() throws Exception {
        Http.Res first = variantA(confidentialCode("openid", null));
        String rt = first.jsonString("refresh_token");
        List<Http.Res> results = race(20, () -> refresh(confidential, rt, null));
        List<Http.Res> ok = results.stream().filter(r -> r.status() == 200).toList();
        assertEquals(1, ok.size(), () -> results.stream().map(Http.Res::toString).toList().toString());
        results.stream().filter(r -> r.status() != 200).forEach(r -> assertError(r, 400, "invalid_grant"));
        assertTrue(accessTokenRevoked(ok.get(0).jsonString("access_token")), "the winner's tokens are revoked");
        assertError(refresh(confidential, ok.get(0).jsonString("refresh_token"), null), 400, "invalid_grant");
    }

    @Test
    void refreshErrors() {
        assertError(refresh(confidential(), Secrets.newSecret(), null), 400, "invalid_grant");
        Http.Res first = variantA(confidentialCode("openid", null));
        Admin.TestClient other = admin.confidentialClient("openid", REDIRECT);
        assertError(refresh(other, first.jsonString("refresh_token"), null), 400, "invalid_grant");
        Map<String, String> p = new LinkedHashMap<>(Map.of("grant_type", "refresh_token",
                "client_id", confidential.clientId(), "client_secret", confidential.secret()));
        assertError(form(p), 400, "invalid_request");
        // the other client's failed attempt did not burn the token
        assertEquals(200, refresh(confidential, first.jsonString("refresh_token"), null).status());
    }

    @Test
    void deletingTheClientKillsItsTokens() throws Exception {
        fixtures();
        Admin.TestClient c = admin.confidentialClient("openid read_user", REDIRECT);
        String code = CodeFixture.issue(c.clientId(), user.userId(), REDIRECT, "openid read_user", null, null);
        Http.Res r = form(codeForm(c, code, REDIRECT));
        assertEquals(200, r.status(), r::toString);
        String accessToken = r.jsonString("access_token");
        String jti = claims(accessToken).getJWTID();
        assertEquals(200, http.get("/oauth/userinfo", "Authorization", "Bearer " + accessToken).status());
        assertEquals(204, admin.delete("/admin/clients/" + c.clientId()).status());
        assertEquals(0, Db.count("SELECT COUNT(*) FROM access_tokens WHERE jti = ?", jti));
        assertError(refresh(c, r.jsonString("refresh_token"), null), 401, "invalid_client");
        // at once, on every endpoint that reads them
        assertEquals(401, http.get("/oauth/userinfo", "Authorization", "Bearer " + accessToken).status());
        assertEquals(401, http.get("/api/v1/me", "Authorization", "Bearer " + accessToken).status());
        for (String token : List.of(accessToken, r.jsonString("refresh_token"))) {
            Http.Res introspected = http.postForm("/oauth/introspect", Map.of("token", token,
                    "client_id", confidential.clientId(), "client_secret", confidential.secret()));
            assertEquals(Boolean.FALSE, introspected.json().get("active"), introspected::toString);
        }
        assertError(refresh(confidential, r.jsonString("refresh_token"), null), 400, "invalid_grant");
    }

    @Test
    void aRedeemedCodePresentedByAnotherClientIsInvalidGrantAndRevokesNothing() throws Exception {
        String code = confidentialCode("openid", null);
        Http.Res first = variantA(code);
        assertEquals(200, first.status(), first::toString);
        String grantId = grantOf(first.jsonString("access_token"));
        Admin.TestClient other = admin.confidentialClient("openid", REDIRECT);

        assertError(form(codeForm(other, code, REDIRECT)), 400, "invalid_grant");
        assertFalse(grantRevoked(grantId), "only the client the code was issued to can trigger the revocation");
        assertFalse(accessTokenRevoked(first.jsonString("access_token")));
        assertEquals(0, Db.count("SELECT COUNT(*) FROM audit_events WHERE event_type = 'CODE_REPLAYED' "
                + "AND client_id = ?", other.clientId()));
        assertEquals(200, refresh(confidential, first.jsonString("refresh_token"), null).status());
    }

    @Test
    void aRefreshTokenFamilyEndsAtItsMaximumLifetimeHoweverOftenItIsRefreshed() throws Exception {
        long day = 86_400;
        long maxLifetime = 90 * day; // portcullis.refresh-token.max-lifetime's default
        Http.Res first = variantA(confidentialCode("openid", null));
        assertEquals(200, first.status(), first::toString);
        String grantId = grantOf(first.jsonString("access_token"));

        // refreshed daily for 80 days: the next token expires with the family, not a full ttl later
        Db.update("UPDATE token_grants SET created_at = created_at - ? WHERE grant_id = ?", 80 * day, grantId);
        Http.Res second = refresh(confidential, first.jsonString("refresh_token"), null);
        assertEquals(200, second.status(), second::toString);
        long createdAt = ((Number) Db.rows("SELECT created_at FROM token_grants WHERE grant_id = ?", grantId)
                .get(0).get("created_at")).longValue();
        long expiresAt = ((Number) Db.rows("SELECT expires_at FROM refresh_tokens WHERE token_id = ?",
                SplitToken.parse(second.jsonString("refresh_token")).id()).get(0).get("expires_at")).longValue();
        assertEquals(createdAt + maxLifetime, expiresAt);

        // past the family's end: introspection says inactive too: refused with a reason, although the presented token itself has not expired
        Db.update("UPDATE token_grants SET created_at = created_at - ? WHERE grant_id = ?", 10 * day, grantId);
        Db.update("UPDATE refresh_tokens SET expires_at = expires_at + ? WHERE token_id = ?", 10 * day,
                SplitToken.parse(second.jsonString("refresh_token")).id());
        Http.Res introspected = http.postForm("/oauth/introspect", Map.of("token", second.jsonString("refresh_token"),
                "client_id", confidential.clientId(), "client_secret", confidential.secret()));
        assertEquals(Boolean.FALSE, introspected.json().get("active"), introspected::toString);
        Http.Res third = refresh(confidential, second.jsonString("refresh_token"), null);
        assertError(third, 400, "invalid_grant");
        assertTrue(third.jsonString("error_description").contains("maximum lifetime"), third::toString);
    }

    // ---------------------------------------------------------------- discovery, JWKS, keys

    @Test
    void discoveryDocument() throws Exception {
        Http.Res r = http.get("/.well-known/openid-configuration");
        assertEquals(200, r.status(), r::toString);
        assertTrue(r.header("Cache-Control").contains("max-age=300"), r::toString);
        Map<String, Object> d = r.json();
        assertEquals(BASE, d.get("issuer"));
        assertEquals(BASE + "/oauth/authorize", d.get("authorization_endpoint"));
        assertEquals(BASE + "/oauth/token", d.get("token_endpoint"));
        assertEquals(BASE + "/oauth/discovery/keys", d.get("jwks_uri"));
        assertEquals(BASE + "/oauth/userinfo", d.get("userinfo_endpoint"));
        assertEquals(BASE + "/oauth/revoke", d.get("revocation_endpoint"));
        assertEquals(BASE + "/oauth/introspect", d.get("introspection_endpoint"));
        assertEquals(BASE + "/oauth/logout", d.get("end_session_endpoint"));
        assertEquals(List.of("code"), d.get("response_types_supported"));
        assertEquals(List.of("S256"), d.get("code_challenge_methods_supported"));
        assertEquals(List.of("client_secret_basic", "client_secret_post", "none"),
                d.get("token_endpoint_auth_methods_supported"));
        assertEquals(List.of("RS256"), d.get("id_token_signing_alg_values_supported"));
        assertEquals(true, d.get("authorization_response_iss_parameter_supported"));
        assertEquals(false, d.get("request_parameter_supported"));
        assertEquals(false, d.get("request_uri_parameter_supported"));
        assertTrue(((List<?>) d.get("grant_types_supported")).containsAll(List.of("authorization_code", "refresh_token")));
        assertTrue(((List<?>) d.get("scopes_supported")).contains("openid"));
        assertTrue(((List<?>) d.get("claims_supported")).contains("sub"));
        assertEquals(List.of("public"), d.get("subject_types_supported"));
        discovery(); // Nimbus parses and checks it too
    }

    @Test
    void jwksPublishesPublicKeysOnly() throws Exception {
        Http.Res r = http.get("/oauth/discovery/keys");
        assertEquals(200, r.status(), r::toString);
        assertTrue(r.header("Cache-Control").contains("max-age="), r::toString);
        for (String secretParam : List.of("\"d\"", "\"p\"", "\"q\"", "\"dp\"", "\"dq\"", "\"qi\"")) {
            assertFalse(r.body().contains(secretParam), r.body());
        }
        JWKSet set = JWKSet.parse(r.body());
        assertTrue(set.getKeys().stream().anyMatch(k -> k instanceof RSAKey && JWSAlgorithm.RS256.equals(k.getAlgorithm())));
        assertTrue(set.getKeys().stream().anyMatch(k -> k instanceof ECKey && JWSAlgorithm.ES256.equals(k.getAlgorithm())));
        set.getKeys().forEach(k -> assertFalse(k.isPrivate()));
    }

    @Test
    void keyRotationPublishesTheNewKeyBeforeItSignsAndKeepsTheOldOnePublished() throws Exception {
        String oldKid = SignedJWT.parse(variantA(confidentialCode("openid", null)).jsonString("id_token"))
                .getHeader().getKeyID();

        Http.Res scheduled = admin.post("/admin/keys/rotate", "{\"alg\":\"RS256\",\"activation_delay_seconds\":3600}");
        assertEquals(200, scheduled.status(), scheduled::toString);
        String pendingKid = (String) ((Map<?, ?>) ((List<?>) scheduled.json().get("keys")).get(0)).get("kid");
        assertNotNull(jwks().getKeyByKeyId(pendingKid), "published at once");
        assertEquals(oldKid, SignedJWT.parse(variantA(confidentialCode("openid", null)).jsonString("id_token"))
                .getHeader().getKeyID(), "the new key does not sign before its activation time");

        Http.Res immediate = admin.post("/admin/keys/rotate", "{\"alg\":\"RS256\",\"activation_delay_seconds\":0}");
        assertEquals(200, immediate.status(), immediate::toString);
        String newKid = (String) ((Map<?, ?>) ((List<?>) immediate.json().get("keys")).get(0)).get("kid");
        Http.Res r = variantA(confidentialCode("openid", null));
        SignedJWT idToken = SignedJWT.parse(r.jsonString("id_token"));
        assertEquals(newKid, idToken.getHeader().getKeyID());
        JWKSet published = jwks();
        assertNotNull(published.getKeyByKeyId(oldKid), "the old key stays published while its tokens live");
        assertTrue(idToken.verify(new RSASSAVerifier((RSAKey) published.getKeyByKeyId(newKid))));
        new IDTokenValidator(new Issuer(BASE), new ClientID(confidential.clientId()), JWSAlgorithm.RS256, published)
                .validate(idToken, null);

        Http.Res list = admin.get("/admin/keys");
        assertEquals(200, list.status());
        assertFalse(list.body().contains("\"d\""), "no key material in the admin listing");
        assertEquals(1, Db.count("SELECT COUNT(*) FROM signing_keys WHERE alg = 'RS256' AND retired_at IS NULL"));
    }

    @Test
    void rotationRequestIsValidated() {
        assertError(admin.post("/admin/keys/rotate", "{\"alg\":\"HS256\"}"), 400, "invalid_request");
        assertError(admin.post("/admin/keys/rotate", "{\"activation_delay_seconds\":-1}"), 400, "invalid_request");
        assertError(admin.post("/admin/keys/rotate", "{\"other\":1}"), 400, "invalid_request");
        assertEquals(401, http.postJson("/admin/keys/rotate", "{}").status());
    }

    @Test
    void browserAppsMayCallTheTokenEndpointJwksAndDiscoveryCrossOrigin() {
        String origin = "https://spa.example.com";
        Http.Res preflight = http.send(http.request("/oauth/token").header("Origin", origin)
                .header("Access-Control-Request-Method", "POST")
                .header("Access-Control-Request-Headers", "content-type")
                .method("OPTIONS", java.net.http.HttpRequest.BodyPublishers.noBody()).build());
        assertTrue(preflight.status() == 204 || preflight.status() == 200, preflight::toString);
        assertEquals("*", preflight.header("Access-Control-Allow-Origin"), preflight::toString);
        assertTrue(preflight.header("Access-Control-Allow-Headers").contains("Content-Type"));

        Http.Res ok = http.postJson("/oauth/token", "{\"client_id\":" + Http.q(publicClient().clientId())
                + ",\"code_verifier\":" + Http.q(VERIFIER) + ",\"code\":" + Http.q(publicCode("openid"))
                + ",\"grant_type\":\"authorization_code\",\"redirect_uri\":" + Http.q(SPA_REDIRECT) + "}",
                "Origin", origin);
        assertEquals(200, ok.status(), ok::toString);
        assertEquals("*", ok.header("Access-Control-Allow-Origin"));
        Http.Res error = http.postJson("/oauth/token", "{}", "Origin", origin);
        assertError(error, 400, "invalid_request");
        assertEquals("*", error.header("Access-Control-Allow-Origin"), "errors are readable by the app too");
        assertEquals("*", http.get("/oauth/discovery/keys", "Origin", origin).header("Access-Control-Allow-Origin"));
        assertEquals("*", http.get("/.well-known/openid-configuration", "Origin", origin)
                .header("Access-Control-Allow-Origin"));
        assertNull(http.get("/.well-known/openid-configuration").header("Access-Control-Allow-Origin"),
                "no CORS headers without an Origin");
    }

    // ---------------------------------------------------------------- retention (POST /admin/purge)

    @Test
    void purgeDeletesRowsPastTheirGraceAndKeepsWhatCanStillBeUsed() throws Exception {
        fixtures();
        long now = java.time.Instant.now().getEpochSecond();
        long twoDaysAgo = now - 2 * 86_400;
        long anHourAgo = now - 3_600;
        long fortyDaysAgo = now - 40 * 86_400;
        // a live family, rotated once: its first refresh token is used and must stay to detect reuse
        Http.Res issued = variantA(confidentialCode("openid", null));
        String usedRefreshToken = issued.jsonString("refresh_token");
        Http.Res rotated = refresh(confidential, usedRefreshToken, null);
        assertEquals(200, rotated.status(), rotated::toString);
        String liveGrant = grantOf(rotated.jsonString("access_token"));
        String oldRecordOfLiveGrant = insertAccessToken(liveGrant, twoDaysAgo);
        // a family whose last tokens expired two days ago, one whose token expired an hour ago (within the grace),
        // one revoked with no token left, and one created this second that has no token yet (being written)
        String deadGrant = insertGrant(fortyDaysAgo, null);
        String deadAccess = insertAccessToken(deadGrant, twoDaysAgo);
        String deadRefresh = insertRefreshToken(deadGrant, twoDaysAgo);
        String graceGrant = insertGrant(fortyDaysAgo, null);
        String graceRefresh = insertRefreshToken(graceGrant, anHourAgo);
        String revokedEmptyGrant = insertGrant(fortyDaysAgo, fortyDaysAgo);
        String newEmptyGrant = insertGrant(now, null);
        String oldCode = CodeFixture.issue(confidential.clientId(), user.userId(), REDIRECT, true, "openid", null,
                null, 60 - 2 * 86_400);
        String recentCode = CodeFixture.issue(confidential.clientId(), user.userId(), REDIRECT, true, "openid", null,
                null, 60 - 3_600);
        long oldEvent = insertAuditEvent(now - 91L * 86_400);
        long keptEvent = insertAuditEvent(now - 89L * 86_400);
        String expiredSession = Secrets.newSecret();
        Db.update("INSERT INTO sso_sessions (session_hash, user_id, auth_time, created_at, last_seen_at, expires_at) "
                + "VALUES (?,?,?,?,?,?)", expiredSession, user.userId(), twoDaysAgo, twoDaysAgo, twoDaysAgo, anHourAgo);

        assertEquals(401, http.postJson("/admin/purge", "").status(), "admin only");
        Http.Res purged = admin.post("/admin/purge", "");
        assertEquals(200, purged.status(), purged::toString);
        // counts per table; the rows themselves are checked below (the scheduled run may have taken some of them)
        Map<?, ?> counts = (Map<?, ?>) purged.json().get("purged");
        assertEquals(Set.of("sso_sessions", "throttle_counters", "authorization_codes", "access_tokens",
                "refresh_tokens", "token_grants", "audit_events"), counts.keySet(), purged::toString);
        assertEquals(counts.values().stream().mapToInt(n -> ((Number) n).intValue()).sum(),
                ((Number) purged.json().get("total")).intValue(), purged::toString);

        assertEquals(0, Db.count("SELECT COUNT(*) FROM access_tokens WHERE jti IN (?, ?)", oldRecordOfLiveGrant,
                deadAccess));
        assertEquals(0, Db.count("SELECT COUNT(*) FROM refresh_tokens WHERE token_id = ?", deadRefresh));
        assertEquals(0, Db.count("SELECT COUNT(*) FROM token_grants WHERE grant_id IN (?, ?)", deadGrant,
                revokedEmptyGrant));
        assertEquals(3, Db.count("SELECT COUNT(*) FROM token_grants WHERE grant_id IN (?, ?, ?)", liveGrant,
                graceGrant, newEmptyGrant));
        assertEquals(1, Db.count("SELECT COUNT(*) FROM refresh_tokens WHERE token_id = ?", graceRefresh));
        assertEquals(0, Db.count("SELECT COUNT(*) FROM authorization_codes WHERE code_id = ?",
                SplitToken.parse(oldCode).id()));
        assertEquals(1, Db.count("SELECT COUNT(*) FROM authorization_codes WHERE code_id = ?",
                SplitToken.parse(recentCode).id()));
        assertEquals(0, Db.count("SELECT COUNT(*) FROM audit_events WHERE event_id = ?", oldEvent));
        assertEquals(1, Db.count("SELECT COUNT(*) FROM audit_events WHERE event_id = ?", keptEvent));
        assertEquals(0, Db.count("SELECT COUNT(*) FROM sso_sessions WHERE session_hash = ?", expiredSession));
        assertTrue(Db.count("SELECT COUNT(*) FROM audit_events WHERE event_type = 'EXPIRED_ROWS_PURGED' "
                + "AND subject = 'admin' AND detail LIKE 'sso_sessions=%'") >= 1, "the purge is audited");

        // the live family still works, and its used refresh token is still recognised as reuse
        Http.Res again = refresh(confidential, rotated.jsonString("refresh_token"), null);
        assertEquals(200, again.status(), again::toString);
        assertError(refresh(confidential, usedRefreshToken, null), 400, "invalid_grant");
        assertTrue(grantRevoked(liveGrant), "reuse after the purge still revokes the family");
    }

    private String insertGrant(long createdAt, Long revokedAt) {
        String grantId = Secrets.newTimeOrderedId();
        Db.update("INSERT INTO token_grants (grant_id, client_id, user_id, scope, auth_time, created_at, revoked_at) "
                + "VALUES (?,?,?,?,?,?,?)", grantId, confidential.clientId(), user.userId(), "openid", createdAt,
                createdAt, revokedAt);
        return grantId;
    }

    private static String insertAccessToken(String grantId, long expiresAt) {
        String jti = Secrets.newTimeOrderedId();
        Db.update("INSERT INTO access_tokens (jti, grant_id, scope, created_at, expires_at, revoked_at, token_hash) "
                + "VALUES (?,?,?,?,?,NULL,?)", jti, grantId, "openid", expiresAt - 3_600, expiresAt,
                Secrets.hash(jti));
        return jti;
    }

    private static String insertRefreshToken(String grantId, long expiresAt) {
        SplitToken t = SplitToken.issue();
        Db.update("INSERT INTO refresh_tokens (token_id, secret_hash, grant_id, scope, created_at, expires_at, used_at) "
                + "VALUES (?,?,?,?,?,?,NULL)", t.id(), t.secretHash(), grantId, "openid", expiresAt - 86_400,
                expiresAt);
        return t.id();
    }

    /** An audit event at {@code epochSecond}, with a negative id so it never meets one of the sequence's. */
    private static long insertAuditEvent(long epochSecond) {
        long id = -1 - java.util.concurrent.ThreadLocalRandom.current().nextLong(Long.MAX_VALUE - 1);
        Db.update("INSERT INTO audit_events (event_id, occurred_at_ms, event_type, outcome, client_id, subject, ip, "
                + "detail) VALUES (?,?,?,?,NULL,NULL,NULL,NULL)", id, epochSecond * 1000, "SIGN_OUT", "success");
        return id;
    }

    // ---------------------------------------------------------------- helpers

    private Admin.TestClient confidential() {
        fixtures();
        return confidential;
    }

    private Admin.TestClient publicClient() {
        fixtures();
        return publicClient;
    }

    private static String basic(String id, String secret) {
        return "Basic " + Base64.getEncoder().encodeToString((Http.enc(id) + ":" + Http.enc(secret))
                .getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }

    /** Runs {@code n} copies of {@code call} released at the same instant; returns every result. */
    private static <T> List<T> race(int n, Callable<T> call) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(n);
        try {
            CountDownLatch ready = new CountDownLatch(n);
            CountDownLatch go = new CountDownLatch(1);
            List<Future<T>> futures = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                futures.add(pool.submit(() -> {
                    ready.countDown();
                    go.await();
                    return call.call();
                }));
            }
            assertTrue(ready.await(30, TimeUnit.SECONDS));
            go.countDown();
            List<T> out = new ArrayList<>();
            for (Future<T> f : futures) {
                out.add(f.get(120, TimeUnit.SECONDS));
            }
            return out;
        } finally {
            pool.shutdownNow();
        }
    }
}
