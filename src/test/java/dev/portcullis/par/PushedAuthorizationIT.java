package dev.portcullis.par;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import com.nimbusds.oauth2.sdk.AuthorizationCode;
import com.nimbusds.oauth2.sdk.AuthorizationCodeGrant;
import com.nimbusds.oauth2.sdk.AuthorizationRequest;
import com.nimbusds.oauth2.sdk.PushedAuthorizationRequest;
import com.nimbusds.oauth2.sdk.PushedAuthorizationResponse;
import com.nimbusds.oauth2.sdk.PushedAuthorizationSuccessResponse;
import com.nimbusds.oauth2.sdk.ResponseType;
import com.nimbusds.oauth2.sdk.Scope;
import com.nimbusds.oauth2.sdk.TokenRequest;
import com.nimbusds.oauth2.sdk.TokenResponse;
import com.nimbusds.oauth2.sdk.auth.ClientAuthentication;
import com.nimbusds.oauth2.sdk.auth.ClientSecretBasic;
import com.nimbusds.oauth2.sdk.auth.PrivateKeyJWT;
import com.nimbusds.oauth2.sdk.auth.Secret;
import com.nimbusds.oauth2.sdk.id.ClientID;
import com.nimbusds.oauth2.sdk.id.State;
import com.nimbusds.oauth2.sdk.pkce.CodeChallengeMethod;
import com.nimbusds.oauth2.sdk.pkce.CodeVerifier;
import com.nimbusds.openid.connect.sdk.OIDCTokenResponseParser;
import dev.portcullis.crypto.Secrets;
import dev.portcullis.testing.Admin;
import dev.portcullis.testing.ClassServer;
import dev.portcullis.testing.Db;
import dev.portcullis.testing.Http;
import dev.portcullis.testing.ServerTestBase;
import dev.portcullis.testing.UserAgent;
import java.net.URI;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Pushed authorization requests (RFC 9126) over HTTP: a whole flow driven by Nimbus' client classes, client
 * authentication as at the token endpoint, the checks of the authorization endpoint answered in JSON, and the
 * request_uri by class of input: used twice, expired (its row's expiry moved into the past), of another client, with
 * other parameters beside it, not issued here; the requirement to push, per client and for the whole server.
 */
class PushedAuthorizationIT extends ServerTestBase {

    private static final String PASSWORD = "correct horse battery";
    private static final String REDIRECT = "https://app.example.com/cb";
    private static final String PREFIX = "urn:ietf:params:oauth:request_uri:";

    private final Admin admin = admin();

    private Admin.TestClient confidential() {
        return admin.confidentialClient("openid profile", REDIRECT);
    }

    /** A pushed request's parameters: code flow, scope openid, the client's redirect URI, state par-1. */
    private static Map<String, String> request(Admin.TestClient c, String... overrides) {
        Map<String, String> p = new LinkedHashMap<>();
        p.put("response_type", "code");
        p.put("client_id", c.clientId());
        p.put("redirect_uri", c.redirectUri());
        p.put("scope", "openid");
        p.put("state", "par-1");
        return Http.overridden(p, overrides);
    }

    /** Pushes with the client secret in the body (confidential) or client_id alone (public). */
    private static Http.Res push(Http http, Admin.TestClient c, Map<String, String> params) {
        Map<String, String> p = new LinkedHashMap<>(params);
        if (c.secret() != null) {
            p.put("client_secret", c.secret());
        }
        return http.postForm("/oauth/par", p);
    }

    private static String pushed(Http http, Admin.TestClient c, Map<String, String> params) {
        Http.Res r = push(http, c, params);
        assertEquals(201, r.status(), r::toString);
        assertEquals("no-store", r.header("Cache-Control"));
        assertEquals(60, ((Number) r.json().get("expires_in")).intValue());
        String uri = r.jsonString("request_uri");
        assertTrue(uri.startsWith(PREFIX) && uri.length() == PREFIX.length() + 43, uri);
        return uri;
    }

    private static void assertJsonError(Http.Res r, int status, String error) {
        assertEquals(status, r.status(), r::toString);
        assertTrue(r.header("Content-Type").startsWith("application/json"), r::toString);
        assertEquals("no-store", r.header("Cache-Control"));
        assertEquals(error, r.jsonString("error"), r::toString);
        assertNotNull(r.jsonString("error_description"));
    }

    private static void assertErrorPage(Http.Res r, String text) {
        assertEquals(400, r.status(), r::toString);
        assertNull(r.header("Location"), "no redirect: the redirect URI is the pushed request's");
        assertTrue(r.header("Content-Type").startsWith("text/html"), r::toString);
        assertTrue(r.body().contains(text), r::body);
    }

    private static Http.Res authorize(String clientId, String requestUri, String... more) {
        Map<String, String> p = new LinkedHashMap<>();
        p.put("client_id", clientId);
        p.put("request_uri", requestUri);
        for (int i = 0; i < more.length; i += 2) {
            p.put(more[i], more[i + 1]);
        }
        return new UserAgent(BASE).authorize(p);
    }

    private static long rows(String clientId) {
        return Db.count("SELECT COUNT(*) FROM pushed_authorization_requests WHERE client_id = ?", clientId);
    }

    // ---------------- the whole flow, with a client library ----------------

    @Test
    void nimbusPushesThenTheBrowserSignsInByRequestUriAndTheCodeIsRedeemed() throws Exception {
        Admin.TestClient c = confidential();
        Admin.TestUser u = admin.user(PASSWORD);
        ClientAuthentication auth = new ClientSecretBasic(new ClientID(c.clientId()), new Secret(c.secret()));
        CodeVerifier verifier = new CodeVerifier();
        AuthorizationRequest authz = new AuthorizationRequest.Builder(new ResponseType(ResponseType.Value.CODE),
                new ClientID(c.clientId())).redirectionURI(URI.create(REDIRECT)).scope(new Scope("openid", "profile"))
                .state(new State("nimbus-state")).codeChallenge(verifier, CodeChallengeMethod.S256).build();
        PushedAuthorizationResponse response = PushedAuthorizationResponse.parse(new PushedAuthorizationRequest(
                URI.create(BASE + "/oauth/par"), auth, authz).toHTTPRequest().send());
        assertTrue(response.indicatesSuccess(), () -> response.toErrorResponse().getErrorObject().toString());
        PushedAuthorizationSuccessResponse ok = response.toSuccessResponse();
        assertEquals(60, ok.getLifetime());
        String requestUri = ok.getRequestURI().toString();

        // the stored row has the hash of the reference, never the reference
        String reference = requestUri.substring(PREFIX.length());
        assertEquals(1, Db.count("SELECT COUNT(*) FROM pushed_authorization_requests WHERE reference_hash = ? "
                + "AND client_id = ?", Secrets.hash(reference), c.clientId()));
        assertEquals(0, Db.count("SELECT COUNT(*) FROM pushed_authorization_requests WHERE reference_hash = ? "
                + "OR parameters LIKE ?", reference, "%" + reference + "%"));

        URI front = new AuthorizationRequest.Builder(ok.getRequestURI(), new ClientID(c.clientId()))
                .endpointURI(URI.create(BASE + "/oauth/authorize")).build().toURI();
        UserAgent ua = new UserAgent(BASE);
        Http.Res login = ua.get(front.toString());
        assertEquals(302, login.status(), login::toString);
        assertTrue(login.header("Location").startsWith(BASE + "/login.xhtml?"), login::toString);
        assertFalse(login.header("Location").contains(reference), "the pages carry the request by its hash");
        Http.Res consent = ua.follow(ua.signIn(ua.follow(login), u.username(), u.password()));
        Http.Res back = ua.consent(consent, true);
        assertEquals(303, back.status(), back::toString);
        Map<String, String> q = Http.query(back.header("Location"));
        assertTrue(back.header("Location").startsWith(REDIRECT + "?"), back::toString);
        assertEquals("nimbus-state", q.get("state"));
        assertEquals(BASE, q.get("iss"));

        TokenResponse tokens = OIDCTokenResponseParser.parse(new TokenRequest(URI.create(BASE + "/oauth/token"), auth,
                new AuthorizationCodeGrant(new AuthorizationCode(q.get("code")), URI.create(REDIRECT), verifier))
                .toHTTPRequest().send());
        assertTrue(tokens.indicatesSuccess(), tokens::toString);
        assertEquals(new Scope("openid", "profile"), tokens.toSuccessResponse().getTokens().getAccessToken().getScope());
    }

    @Test
    void aPrivateKeyJwtClientPushesWithItsAssertionAndAPublicClientWithItsId() throws Exception {
        RSAKey key = new RSAKeyGenerator(2048).keyID("par-key").generate();
        Http.Res registered = admin.post("/admin/clients", "{\"client_name\":\"Signed pusher\",\"redirect_uris\":["
                + Http.q(REDIRECT) + "],\"scopes\":\"openid\",\"token_endpoint_auth_method\":\"private_key_jwt\","
                + "\"jwks\":" + new JWKSet(key.toPublicJWK()).toString(true) + "}");
        assertEquals(201, registered.status(), registered::toString);
        ClientID id = new ClientID(registered.jsonString("client_id"));
        AuthorizationRequest authz = new AuthorizationRequest.Builder(new ResponseType(ResponseType.Value.CODE), id)
                .redirectionURI(URI.create(REDIRECT)).scope(new Scope("openid")).build();
        PrivateKeyJWT assertion = new PrivateKeyJWT(id, URI.create(BASE), JWSAlgorithm.RS256, key.toPrivateKey(),
                key.getKeyID(), null);
        PushedAuthorizationResponse r = PushedAuthorizationResponse.parse(new PushedAuthorizationRequest(
                URI.create(BASE + "/oauth/par"), assertion, authz).toHTTPRequest().send());
        assertTrue(r.indicatesSuccess(), () -> r.toErrorResponse().getErrorObject().toString());
        PushedAuthorizationResponse replayed = PushedAuthorizationResponse.parse(new PushedAuthorizationRequest(
                URI.create(BASE + "/oauth/par"), assertion, authz).toHTTPRequest().send());
        assertEquals("invalid_client", replayed.toErrorResponse().getErrorObject().getCode(), "its jti is spent");

        Admin.TestClient pub = admin.publicClient("openid", "https://spa.example.com/cb");
        String challenge = "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM";
        pushed(http(), pub, request(pub, "code_challenge", challenge, "code_challenge_method", "S256"));
        assertJsonError(push(http(), pub, request(pub)), 400, "invalid_request"); // a public client without PKCE
    }

    // ---------------- client authentication ----------------

    @Test
    void pushingNeedsTheClientAuthenticationOfTheTokenEndpoint() {
        Admin.TestClient c = confidential();
        Http http = http();
        long before = rows(c.clientId());
        assertJsonError(http.postForm("/oauth/par", request(c)), 401, "invalid_client");
        Map<String, String> wrong = new LinkedHashMap<>(request(c));
        wrong.put("client_secret", "not-the-secret");
        assertJsonError(http.postForm("/oauth/par", wrong), 401, "invalid_client");
        Map<String, String> unknown = new LinkedHashMap<>(request(c, "client_id", "no-such-client"));
        unknown.put("client_secret", c.secret());
        assertJsonError(http.postForm("/oauth/par", unknown), 401, "invalid_client");
        Map<String, String> twice = new LinkedHashMap<>(request(c));
        twice.put("client_secret", c.secret());
        assertJsonError(http.postForm("/oauth/par", twice, "Authorization", "Basic " + java.util.Base64.getEncoder()
                .encodeToString((c.clientId() + ":" + c.secret()).getBytes())), 400, "invalid_request");
        assertEquals(before, rows(c.clientId()), "nothing stored for a refused push");
        assertTrue(Db.count("SELECT COUNT(*) FROM audit_events WHERE event_type = 'CLIENT_AUTH_FAILURE' "
                + "AND client_id = ?", c.clientId()) >= 1, "failures are audited as at the token endpoint");

        Map<String, String> basic = new LinkedHashMap<>(request(c, "client_id", null));
        Http.Res ok = http.postForm("/oauth/par", basic, "Authorization", "Basic " + java.util.Base64.getEncoder()
                .encodeToString((c.clientId() + ":" + c.secret()).getBytes()));
        assertEquals(201, ok.status(), "HTTP Basic names the client: " + ok);
        assertEquals(before + 1, rows(c.clientId()));
    }

    // ---------------- the authorization endpoint's checks, in JSON ----------------

    @Test
    void theAuthorizationEndpointsChecksAnswerInJson() {
        Admin.TestClient c = confidential();
        Http http = http();
        long before = rows(c.clientId());
        assertJsonError(push(http, c, request(c, "redirect_uri", "https://evil.example.com/cb")), 400,
                "invalid_request");
        assertJsonError(push(http, c, request(c, "redirect_uri", null)), 400, "invalid_request");
        assertJsonError(push(http, c, request(c, "response_type", "token")), 400, "unsupported_response_type");
        assertJsonError(push(http, c, request(c, "scope", "openid admin")), 400, "invalid_scope");
        assertJsonError(push(http, c, request(c, "prompt", "none login")), 400, "invalid_request");
        assertJsonError(push(http, c, request(c, "response_mode", "jwt")), 400, "invalid_request");
        assertJsonError(push(http, c, request(c, "request", "eyJhbGciOiJub25lIn0.e30.")), 400,
                "invalid_request_object");
        assertJsonError(push(http, c, request(c, "request_uri", PREFIX + "abc")), 400, "invalid_request");
        assertJsonError(push(http, c, request(c, "resource", "https://unknown.example.com")), 400, "invalid_target");
        assertEquals(before, rows(c.clientId()));
    }

    // ---------------- the request_uri at the authorization endpoint ----------------

    @Test
    void aRequestUriIsRedeemedOnceAndTheSecondUseIsAnErrorPage() {
        Admin.TestClient c = confidential();
        String uri = pushed(http(), c, request(c));
        Http.Res first = authorize(c.clientId(), uri);
        assertEquals(302, first.status(), first::toString);
        assertTrue(first.header("Location").startsWith(BASE + "/login.xhtml?"), first::toString);
        assertErrorPage(authorize(c.clientId(), uri), "unknown, expired or was used already");
    }

    @Test
    void anExpiredRequestUriIsAnErrorPageAndPurged() {
        Admin.TestClient c = confidential();
        String uri = pushed(http(), c, request(c));
        String hash = Secrets.hash(uri.substring(PREFIX.length()));
        // the row's own clock: its expiry moved a second into the past instead of waiting a minute
        assertEquals(1, Db.update("UPDATE pushed_authorization_requests SET expires_at = ? WHERE reference_hash = ?",
                System.currentTimeMillis() / 1000 - 1, hash));
        assertErrorPage(authorize(c.clientId(), uri), "unknown, expired or was used already");

        Http.Res purged = admin.post("/admin/purge", "");
        assertEquals(200, purged.status(), purged::toString);
        assertTrue(((Map<?, ?>) purged.json().get("purged")).containsKey("pushed_authorization_requests"));
        assertEquals(0, Db.count("SELECT COUNT(*) FROM pushed_authorization_requests WHERE reference_hash = ?",
                hash));
    }

    @Test
    void aRequestUriIsBoundToItsClientAndAnotherClientDoesNotSpendIt() {
        Admin.TestClient c = confidential();
        Admin.TestClient other = confidential();
        String uri = pushed(http(), c, request(c));
        assertErrorPage(authorize(other.clientId(), uri), "unknown, expired or was used already");
        assertErrorPage(new UserAgent(BASE).authorize(Map.of("request_uri", uri)), "client_id is missing");
        Http.Res own = authorize(c.clientId(), uri);
        assertEquals(302, own.status(), "still there for its own client: " + own);
    }

    @Test
    void requestUrisNotIssuedHereStayRefused() {
        Admin.TestClient c = confidential();
        assertErrorPage(authorize(c.clientId(), PREFIX + Secrets.newSecret()), "unknown, expired or was used");
        assertErrorPage(authorize(c.clientId(), PREFIX), "unknown, expired or was used");
        Http.Res outside = authorize(c.clientId(), "https://app.example.com/request.jwt", "redirect_uri", REDIRECT,
                "response_type", "code", "scope", "openid", "state", "s");
        assertEquals(302, outside.status(), outside::toString);
        assertEquals("request_uri_not_supported", Http.query(outside.header("Location")).get("error"));
    }

    @Test
    void onlyThePushedParametersCountAtTheAuthorizationEndpoint() {
        Admin.TestClient c = admin.client(true, "openid profile", true, REDIRECT, "https://app.example.com/other");
        Admin.TestUser u = admin.user(PASSWORD);
        String uri = pushed(http(), c, request(c, "response_mode", "form_post"));
        // whatever else the browser's URL says (another registered redirect URI, another state, prompt=none) is ignored
        Map<String, String> posted = new UserAgent(BASE).authorizeAndGetRedirectParams(c, u, Map.of(
                "request_uri", uri, "redirect_uri", "https://app.example.com/other", "state", "forged",
                "prompt", "none", "response_mode", "query"));
        assertEquals("par-1", posted.get("state"), posted::toString);
        assertNotNull(posted.get("code"), "signed in, not login_required: " + posted);
        Http.Res token = http().postForm("/oauth/token", Map.of("grant_type", "authorization_code",
                "code", posted.get("code"), "redirect_uri", REDIRECT, "client_id", c.clientId(),
                "client_secret", c.secret()));
        assertEquals(200, token.status(), "the code is bound to the pushed redirect URI: " + token);
    }

    // ---------------- require_pushed_authorization_requests ----------------

    @Test
    void aClientThatMustPushIsRefusedItsPlainRequestsAtTheEndpointAndThePages() {
        Admin.TestClient c = confidential();
        Http.Res patched = admin.patch("/admin/clients/" + c.clientId(),
                "{\"require_pushed_authorization_requests\":true}");
        assertEquals(200, patched.status(), patched::toString);
        assertEquals(true, patched.json().get("require_pushed_authorization_requests"));
        assertEquals(1, Db.count("SELECT COUNT(*) FROM audit_events WHERE event_type = 'CLIENT_UPDATED' "
                + "AND client_id = ? AND detail LIKE ?", c.clientId(), "%require_pushed_authorization_requests%"));

        Map<String, String> plain = request(c);
        for (Http.Res r : List.of(new UserAgent(BASE).authorize(plain),
                new UserAgent(BASE).get("/login.xhtml?" + Http.form(plain)))) {
            assertEquals(302, r.status(), r::toString);
            Map<String, String> q = Http.query(r.header("Location"));
            assertTrue(r.header("Location").startsWith(REDIRECT + "?"), r::toString);
            assertEquals("invalid_request", q.get("error"));
            assertEquals("par-1", q.get("state"));
        }
        Http.Res pushedOne = authorize(c.clientId(), pushed(http(), c, request(c)));
        assertTrue(pushedOne.header("Location").startsWith(BASE + "/login.xhtml?"), pushedOne::toString);

        assertEquals(200, admin.patch("/admin/clients/" + c.clientId(),
                "{\"require_pushed_authorization_requests\":false}").status());
        Http.Res again = new UserAgent(BASE).authorize(plain);
        assertTrue(again.header("Location").startsWith(BASE + "/login.xhtml?"), again::toString);
        assertEquals(400, admin.patch("/admin/clients/" + c.clientId(),
                "{\"require_pushed_authorization_requests\":null}").status());
    }

    @Test
    void discoveryNamesTheEndpointAndTheServerWideRequirement() {
        Map<String, Object> d = http().get("/.well-known/openid-configuration").json();
        assertEquals(BASE + "/oauth/par", d.get("pushed_authorization_request_endpoint"));
        assertEquals(false, d.get("require_pushed_authorization_requests"));
        assertEquals(List.of("query", "fragment", "form_post"), d.get("response_modes_supported"));
        assertEquals(false, d.get("request_uri_parameter_supported"));
    }

    @Test
    void withTheServerWideSettingEveryClientMustPush() {
        try (ClassServer strict = ClassServer.startOwn("-Dportcullis.par.required=true")) {
            Http http = strict.http();
            assertEquals(true, http.get("/.well-known/openid-configuration").json()
                    .get("require_pushed_authorization_requests"), strict::output);
            Admin.TestClient c = confidential(); // one database: the client is known to both servers
            Http.Res plain = new UserAgent(strict.base()).authorize(request(c));
            assertEquals(302, plain.status(), plain::toString);
            assertEquals("invalid_request", Http.query(plain.header("Location")).get("error"));
            String uri = pushed(http, c, request(c));
            Map<String, String> p = new LinkedHashMap<>();
            p.put("client_id", c.clientId());
            p.put("request_uri", uri);
            Http.Res redeemed = new UserAgent(strict.base()).authorize(p);
            assertTrue(redeemed.header("Location").startsWith(strict.base() + "/login.xhtml?"), redeemed::toString);
        }
    }
}
