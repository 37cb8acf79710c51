package dev.portcullis.token;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.crypto.RSASSAVerifier;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.JWK;
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
import com.nimbusds.openid.connect.sdk.UserInfoRequest;
import com.nimbusds.openid.connect.sdk.UserInfoResponse;
import com.nimbusds.openid.connect.sdk.claims.IDTokenClaimsSet;
import com.nimbusds.openid.connect.sdk.op.OIDCProviderMetadata;
import com.nimbusds.openid.connect.sdk.validators.IDTokenValidator;
import dev.portcullis.crypto.Secrets;
import dev.portcullis.crypto.SplitToken;
import dev.portcullis.testing.Admin;
import dev.portcullis.testing.CodeFixture;
import dev.portcullis.testing.Db;
import dev.portcullis.testing.Http;
import dev.portcullis.testing.UserAgent;
import java.net.URI;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * POST /oauth/token with an authorization code: the confidential and the public client (the JSON token request, form
 * body, HTTP Basic; PKCE without a secret) with the Nimbus OIDC SDK as the client, end to end through the real sign-in, the
 * code's error rows, single-use codes under concurrency, and the code's PKCE rules: the code verifier against the
 * code's challenge, malformed verifiers, downgrades, public clients without a challenge, and confidential clients
 * that use PKCE too.
 */
class AuthorizationCodeGrantIT extends TokenEndpointTestBase {

    // ---------------------------------------------------------------- confidential client

    @Test
    void confidentialClientJsonRequestReturnsTheTokenResponseFieldsAndAValidIdToken() throws Exception {
        String code = confidentialCode("openid profile email", "n-0S6_WzA2Mj");
        long before = System.currentTimeMillis() / 1000;
        Http.Res r = confidentialJsonRequest(code);
        assertEquals(200, r.status(), r::toString);
        assertNoStore(r);
        assertTrue(r.header("Content-Type").startsWith("application/json"));
        Map<String, Object> json = r.json();
        Set<String> expected = new java.util.HashSet<>(TOKEN_RESPONSE_FIELDS);
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
        // data-minimal: with an access token to read them at userinfo, the scopes' claims stay out of the ID token
        assertNull(id.getStringClaim("preferred_username"));
        assertNull(id.getStringClaim("email"));
        assertNull(id.getClaim("email_verified"));
        assertEquals(com.nimbusds.openid.connect.sdk.claims.AccessTokenHash.compute(
                new com.nimbusds.oauth2.sdk.token.BearerAccessToken(accessToken), JWSAlgorithm.RS256, null),
                id.getAccessTokenHash());

        // RFC 9068 access token, verifiable from the JWKS alone
        SignedJWT at = SignedJWT.parse(accessToken);
        assertEquals(new JOSEObjectType("at+jwt"), at.getHeader().getType());
        assertEquals(JWSAlgorithm.RS256, at.getHeader().getAlgorithm(), "portcullis.access-token.signing-alg's default");
        JWK key = jwks().getKeyByKeyId(at.getHeader().getKeyID());
        assertNotNull(key, "access token kid is published");
        assertTrue(at.verify(new RSASSAVerifier((RSAKey) key)));
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
    void confidentialClientFormBodyAndClientSecretPostThroughTheNimbusClient() throws Exception {
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
    void confidentialClientHttpBasicThroughTheNimbusClient() throws Exception {
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
        Http.Res r = confidentialJsonRequest(confidentialCode("read_user api", null));
        assertEquals(200, r.status(), r::toString);
        assertEquals(TOKEN_RESPONSE_FIELDS, r.json().keySet());
        assertEquals("read_user api", r.jsonString("scope"));
    }

    // ---------------------------------------------------------------- public client

    @Test
    void publicClientJsonRequestWithPkce() throws Exception {
        Http.Res r = publicJsonRequest(publicCode("openid profile"), VERIFIER);
        assertEquals(200, r.status(), r::toString);
        assertNoStore(r);
        assertEquals("openid profile", r.jsonString("scope"));
        IDTokenClaimsSet id = new IDTokenValidator(new Issuer(BASE), new ClientID(publicClient.clientId()),
                JWSAlgorithm.RS256, jwks()).validate(SignedJWT.parse(r.jsonString("id_token")), null);
        assertEquals(user.userId(), id.getSubject().getValue());
    }

    @Test
    void publicClientThroughTheNimbusClientWithCodeVerifier() throws Exception {
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
     * The whole code flow as a relying party sees it: the Nimbus SDK builds the authentication request, a browser
     * (UserAgent) signs in and consents at the real authorization endpoint, the code comes back with state and iss,
     * and the SDK exchanges it and validates the ID token (nonce included) against the published JWKS.
     */
    @Test
    void endToEndConfidentialClientThroughTheRealSignInWithTheNimbusClient() throws Exception {
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
        assertNull(id.getStringClaim("preferred_username"), "the profile and email claims are at userinfo");
        UserInfoResponse info = UserInfoResponse.parse(new UserInfoRequest(URI.create(BASE + "/oauth/userinfo"),
                ok.getOIDCTokens().getBearerAccessToken()).toHTTPRequest().send());
        assertTrue(info.indicatesSuccess());
        assertEquals(user.username(), info.toSuccessResponse().getUserInfo().getPreferredUsername());
        assertEquals(user.username() + "@example.com", info.toSuccessResponse().getUserInfo().getEmailAddress());
    }

    /**
     * Without a nonce the code flow still succeeds (OIDC Core 3.1.2.1: optional there) and the ID token carries none,
     * as the Nimbus SDK's validator, told to expect none, checks.
     */
    @Test
    void aRequestWithoutNonceGetsAnIdTokenWithoutOne() throws Exception {
        fixtures();
        Map<String, String> redirect = new UserAgent(BASE).authorizeAndGetRedirectParams(confidential, user,
                Map.of("scope", "openid"));
        assertNotNull(redirect.get("code"), redirect::toString);
        TokenRequest request = new TokenRequest.Builder(URI.create(BASE + "/oauth/token"),
                new ClientSecretBasic(new ClientID(confidential.clientId()), new Secret(confidential.secret())),
                new com.nimbusds.oauth2.sdk.AuthorizationCodeGrant(new AuthorizationCode(redirect.get("code")),
                        URI.create(REDIRECT))).build();
        TokenResponse response = OIDCTokenResponseParser.parse(request.toHTTPRequest().send());
        assertTrue(response.indicatesSuccess(), () -> response.toErrorResponse().getErrorObject().toString());
        IDTokenClaimsSet id = new IDTokenValidator(discovery().getIssuer(), new ClientID(confidential.clientId()),
                JWSAlgorithm.RS256, jwks()).validate(((OIDCTokenResponse) response.toSuccessResponse())
                        .getOIDCTokens().getIDToken(), null);
        assertNull(id.getNonce());
        assertEquals(user.userId(), id.getSubject().getValue());
    }

    @Test
    void endToEndPublicClientThroughTheRealSignInWithPkceAndNoSecret() throws Exception {
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

        // the public client's JSON token request: client_id, code_verifier, code, grant_type, redirect_uri
        Http.Res r = publicJsonRequest(redirect.get("code"), verifier.getValue());
        assertEquals(200, r.status(), r::toString);
        Set<String> fields = new java.util.HashSet<>(r.json().keySet());
        assertTrue(fields.remove("id_token"));
        assertEquals(TOKEN_RESPONSE_FIELDS, fields, "exactly the token response's fields, plus id_token");
        new IDTokenValidator(new Issuer(BASE), new ClientID(publicClient.clientId()), JWSAlgorithm.RS256, jwks())
                .validate(SignedJWT.parse(r.jsonString("id_token")), new Nonce(authn.getNonce().getValue()));
        assertEquals(400, publicJsonRequest(redirect.get("code"), verifier.getValue()).status(), "a code works once");
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
        assertError(confidentialJsonRequest(Secrets.newSecret()), 400, "invalid_grant");
    }

    @Test
    void expiredCodeIsInvalidGrant() {
        fixtures();
        String code = CodeFixture.issue(confidential.clientId(), user.userId(), REDIRECT, true, "openid", null, null, -1);
        assertError(confidentialJsonRequest(code), 400, "invalid_grant");
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

    // ---------------------------------------------------------------- single use

    @Test
    void secondRedemptionFailsAndRevokesTheTokensOfTheFirst() throws Exception {
        String code = confidentialCode("openid", null);
        Http.Res first = confidentialJsonRequest(code);
        assertEquals(200, first.status(), first::toString);
        String grantId = grantOf(first.jsonString("access_token"));
        assertFalse(grantRevoked(grantId));

        assertError(confidentialJsonRequest(code), 400, "invalid_grant");
        assertTrue(grantRevoked(grantId), "the replay revoked the grant (committed although the request failed)");
        assertTrue(accessTokenRevoked(first.jsonString("access_token")));
        assertError(refresh(confidential, first.jsonString("refresh_token"), null), 400, "invalid_grant");
        assertTrue(Db.count("SELECT COUNT(*) FROM audit_events WHERE event_type = 'CODE_REPLAYED' AND client_id = ?",
                confidential.clientId()) >= 1);
    }

    @Test
    void twentyConcurrentRedemptionsOfOneCodeYieldExactlyOneSuccessAndItsTokensAreRevoked() throws Exception {
        String code = confidentialCode("openid", null);
        List<Http.Res> results = race(20, () -> confidentialJsonRequest(code));
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

    @Test
    void aRedeemedCodePresentedByAnotherClientIsInvalidGrantAndRevokesNothing() throws Exception {
        String code = confidentialCode("openid", null);
        Http.Res first = confidentialJsonRequest(code);
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

    // ---------------------------------------------------------------- error rows: PKCE

    @Test
    void wrongVerifierIsInvalidGrant() {
        assertError(publicJsonRequest(publicCode("openid"), "x".repeat(43)), 400, "invalid_grant");
    }

    @ParameterizedTest
    @ValueSource(strings = {"short", "0123456789012345678901234567890123456789+/=", "with space 0123456789012345678901234567890"})
    void malformedVerifierIsInvalidRequest(String verifier) {
        assertError(publicJsonRequest(publicCode("openid"), verifier), 400, "invalid_request");
    }

    @Test
    void overlongVerifierIsInvalidRequest() {
        assertError(publicJsonRequest(publicCode("openid"), "a".repeat(129)), 400, "invalid_request");
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
}
