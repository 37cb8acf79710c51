package dev.portcullis.authorize;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.JWSSigner;
import com.nimbusds.jose.crypto.ECDSASigner;
import com.nimbusds.jose.crypto.MACSigner;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jose.jwk.Curve;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jose.jwk.JWK;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.gen.ECKeyGenerator;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import com.nimbusds.jwt.JWT;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.PlainJWT;
import com.nimbusds.jwt.SignedJWT;
import com.nimbusds.oauth2.sdk.AuthorizationCode;
import com.nimbusds.oauth2.sdk.AuthorizationCodeGrant;
import com.nimbusds.oauth2.sdk.AuthorizationRequest;
import com.nimbusds.oauth2.sdk.PushedAuthorizationRequest;
import com.nimbusds.oauth2.sdk.PushedAuthorizationResponse;
import com.nimbusds.oauth2.sdk.ResponseType;
import com.nimbusds.oauth2.sdk.Scope;
import com.nimbusds.oauth2.sdk.TokenRequest;
import com.nimbusds.oauth2.sdk.TokenResponse;
import com.nimbusds.oauth2.sdk.auth.PrivateKeyJWT;
import com.nimbusds.oauth2.sdk.id.ClientID;
import com.nimbusds.oauth2.sdk.id.State;
import com.nimbusds.oauth2.sdk.pkce.CodeChallengeMethod;
import com.nimbusds.oauth2.sdk.pkce.CodeVerifier;
import com.nimbusds.openid.connect.sdk.AuthenticationRequest;
import com.nimbusds.openid.connect.sdk.Nonce;
import com.nimbusds.openid.connect.sdk.OIDCTokenResponseParser;
import com.nimbusds.openid.connect.sdk.op.OIDCProviderMetadata;
import com.sun.net.httpserver.HttpServer;
import dev.portcullis.testing.Admin;
import dev.portcullis.testing.ClassServer;
import dev.portcullis.testing.Db;
import dev.portcullis.testing.Http;
import dev.portcullis.testing.ServerTestBase;
import dev.portcullis.testing.UserAgent;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Date;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Signed request objects (RFC 9101) over HTTP: built and sent by Nimbus' OAuth SDK, by value at the authorization
 * endpoint (an OpenID authentication request) and inside a pushed request, each to the end of the code flow; keys
 * inline and at a key set URL served by the test; every refusal by class (unsigned, HMAC, a foreign key, expired, not
 * yet valid, wrong audience, wrong issuer, another client_id, replayed), the query's parameters beside an object
 * ignored, {@code require_signed_request_object} and {@code portcullis.request-object.required} (on a server of its
 * own), and a request_uri not issued here.
 */
class RequestObjectIT extends ServerTestBase {

    private static final String PASSWORD = "correct horse battery";
    private static final String REDIRECT = "https://app.example.com/cb";
    private static final String OTHER_REDIRECT = "https://app.example.com/other";

    private static RSAKey rsa;
    private static ECKey ec;
    private static HttpServer keyServer;

    private final Admin admin = admin();

    @BeforeAll
    static void keysAndKeyServer() throws Exception {
        rsa = new RSAKeyGenerator(2048).keyID("rsa-" + UUID.randomUUID()).generate();
        ec = new ECKeyGenerator(Curve.P_256).keyID("ec-" + UUID.randomUUID()).generate();
        keyServer = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        keyServer.createContext("/jwks", exchange -> {
            byte[] body = publicSet(ec).getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(200, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        });
        keyServer.start();
    }

    @AfterAll
    static void stopKeyServer() {
        keyServer.stop(0);
    }

    private static String publicSet(JWK... keys) {
        return new JWKSet(List.of(keys)).toPublicJWKSet().toString(true);
    }

    /** A private_key_jwt client (the keys its request objects are signed with) with two redirect URIs. */
    private ClientID client(String keys) {
        Http.Res r = admin.post("/admin/clients", "{\"client_name\":\"Signing app\",\"redirect_uris\":["
                + Http.q(REDIRECT) + "," + Http.q(OTHER_REDIRECT) + "],\"scopes\":\"openid profile\","
                + "\"token_endpoint_auth_method\":\"private_key_jwt\"," + keys + "}");
        assertEquals(201, r.status(), r::toString);
        return new ClientID(r.jsonString("client_id"));
    }

    private ClientID inlineClient() {
        return client("\"jwks\":" + publicSet(rsa, ec));
    }

    /** The claims of a good object: Nimbus' own rendering of the request, with iss, aud, exp and a fresh jti. */
    private static JWTClaimsSet.Builder claims(ClientID id, CodeVerifier verifier, String state) throws Exception {
        AuthorizationRequest request = new AuthorizationRequest.Builder(new ResponseType(ResponseType.Value.CODE), id)
                .redirectionURI(URI.create(REDIRECT)).scope(new Scope("openid", "profile")).state(new State(state))
                .codeChallenge(verifier, CodeChallengeMethod.S256).build();
        return new JWTClaimsSet.Builder(request.toJWTClaimsSet()).issuer(id.getValue()).audience(BASE)
                .expirationTime(Date.from(Instant.now().plusSeconds(300))).jwtID(UUID.randomUUID().toString());
    }

    private static SignedJWT signed(JWTClaimsSet claims, JWSAlgorithm alg, JWK key, JWSSigner signer)
            throws Exception {
        SignedJWT jwt = new SignedJWT(new JWSHeader.Builder(alg).keyID(key.getKeyID()).build(), claims);
        jwt.sign(signer);
        return jwt;
    }

    private static SignedJWT rs256(JWTClaimsSet claims) throws Exception {
        return signed(claims, JWSAlgorithm.RS256, rsa, new RSASSASigner(rsa));
    }

    private static PrivateKeyJWT assertion(ClientID id) throws Exception {
        return new PrivateKeyJWT(id, URI.create(BASE), JWSAlgorithm.RS256, rsa.toPrivateKey(), rsa.getKeyID(), null);
    }

    /** Signs in and consents from the first redirect to the login page; returns the client's redirect's parameters. */
    private Map<String, String> signInAndConsent(UserAgent ua, Http.Res login) {
        assertEquals(302, login.status(), login::toString);
        assertTrue(login.header("Location").startsWith(BASE + "/login.xhtml?"), login::toString);
        Admin.TestUser u = admin.user(PASSWORD);
        Http.Res consent = ua.follow(ua.signIn(ua.follow(login), u.username(), u.password()));
        Http.Res back = ua.consent(consent, true);
        assertEquals(303, back.status(), back::toString);
        assertTrue(back.header("Location").startsWith(REDIRECT + "?"), back::toString);
        return Http.query(back.header("Location"));
    }

    private static void redeems(ClientID id, String code, CodeVerifier verifier) throws Exception {
        TokenResponse tokens = OIDCTokenResponseParser.parse(new TokenRequest(URI.create(BASE + "/oauth/token"),
                assertion(id), new AuthorizationCodeGrant(new AuthorizationCode(code), URI.create(REDIRECT), verifier))
                .toHTTPRequest().send());
        assertTrue(tokens.indicatesSuccess(), tokens::toString);
        assertEquals(new Scope("openid", "profile"), tokens.toSuccessResponse().getTokens().getAccessToken().getScope());
    }

    private static Http.Res authorize(Map<String, String> params) {
        return new UserAgent(BASE).authorize(params);
    }

    private static Map<String, String> byValue(ClientID id, JWT object, String... more) {
        Map<String, String> p = new LinkedHashMap<>();
        p.put("client_id", id.getValue());
        p.put("request", object.serialize());
        for (int i = 0; i < more.length; i += 2) {
            p.put(more[i], more[i + 1]);
        }
        return p;
    }

    private static void assertErrorRedirect(Http.Res r, String redirectUri, String error, String state) {
        assertErrorRedirect(r, redirectUri, error, state, BASE);
    }

    private static void assertErrorRedirect(Http.Res r, String redirectUri, String error, String state,
                                            String issuer) {
        assertEquals(302, r.status(), r::toString);
        String location = r.header("Location");
        assertTrue(location.startsWith(redirectUri + "?"), r::toString);
        Map<String, String> q = Http.query(location);
        assertEquals(error, q.get("error"), location);
        assertEquals(state, q.get("state"), location);
        assertEquals(issuer, q.get("iss"));
    }

    private static void assertJsonError(Http.Res r, String error) {
        assertEquals(400, r.status(), r::toString);
        assertTrue(r.header("Content-Type").startsWith("application/json"), r::toString);
        assertEquals(error, r.jsonString("error"), r::toString);
    }

    // ---------------- whole flows, with a client library ----------------

    @Test
    void anOpenIdRequestSignedByValueRunsTheWholeFlowWithTheObjectsParametersAlone() throws Exception {
        ClientID id = inlineClient();
        CodeVerifier verifier = new CodeVerifier();
        SignedJWT object = rs256(claims(id, verifier, "object-state").claim("nonce", "n-1").build());
        // the query's own parameters (OIDC Core 6.1 repeats them) differ: RFC 9101 6.3 ignores them
        URI front = new AuthenticationRequest.Builder(new ResponseType(ResponseType.Value.CODE),
                new Scope("openid"), id, URI.create(OTHER_REDIRECT)).state(new State("query-state"))
                .nonce(new Nonce("query-nonce")).requestObject(object)
                .endpointURI(URI.create(BASE + "/oauth/authorize")).build().toURI();
        UserAgent ua = new UserAgent(BASE);
        Http.Res login = ua.get(front.toString());
        assertFalse(login.header("Location").contains(object.getSignature().toString()),
                "the pages carry the request by hash, not the object");
        assertTrue(login.header("Location").contains("pushed_request="), login::toString);
        Map<String, String> q = signInAndConsent(ua, login);
        assertEquals("object-state", q.get("state"));
        redeems(id, q.get("code"), verifier);
        assertEquals(1, Db.count("SELECT COUNT(*) FROM request_object_jtis WHERE client_id = ?", id.getValue()));

        // the same object again: its jti is used
        assertErrorRedirect(new UserAgent(BASE).get(front.toString()), REDIRECT, "invalid_request_object",
                "object-state");
        // the pages take no object: only the endpoint uses one up
        assertErrorRedirect(new UserAgent(BASE).get("/login.xhtml?" + Http.form(byValue(id,
                rs256(claims(id, verifier, "page-state").build()), "redirect_uri", REDIRECT, "state", "q"))),
                REDIRECT, "invalid_request_object", "q");
    }

    @Test
    void aSignedRequestPushedByNimbusRunsTheWholeFlow() throws Exception {
        ClientID id = inlineClient();
        CodeVerifier verifier = new CodeVerifier();
        SignedJWT object = signed(claims(id, verifier, "pushed-state").build(), JWSAlgorithm.ES256, ec,
                new ECDSASigner(ec));
        AuthorizationRequest jar = new AuthorizationRequest.Builder(object, id).build();
        PushedAuthorizationResponse pushed = PushedAuthorizationResponse.parse(new PushedAuthorizationRequest(
                URI.create(BASE + "/oauth/par"), assertion(id), jar).toHTTPRequest().send());
        assertTrue(pushed.indicatesSuccess(), () -> pushed.toErrorResponse().getErrorObject().toString());
        assertEquals(1, Db.count("SELECT COUNT(*) FROM pushed_authorization_requests WHERE client_id = ? "
                + "AND signed = TRUE", id.getValue()));
        URI front = new AuthorizationRequest.Builder(pushed.toSuccessResponse().getRequestURI(), id)
                .endpointURI(URI.create(BASE + "/oauth/authorize")).build().toURI();
        UserAgent ua = new UserAgent(BASE);
        Map<String, String> q = signInAndConsent(ua, ua.get(front.toString()));
        assertEquals("pushed-state", q.get("state"));
        redeems(id, q.get("code"), verifier);

        PushedAuthorizationResponse again = PushedAuthorizationResponse.parse(new PushedAuthorizationRequest(
                URI.create(BASE + "/oauth/par"), assertion(id), jar).toHTTPRequest().send());
        assertEquals("invalid_request_object", again.toErrorResponse().getErrorObject().getCode(), "its jti is used");
    }

    @Test
    void keysAtAKeySetUrlVerifyAnObject() throws Exception {
        ClientID id = client("\"jwks_uri\":\"http://127.0.0.1:" + keyServer.getAddress().getPort() + "/jwks\"");
        CodeVerifier verifier = new CodeVerifier();
        SignedJWT object = signed(claims(id, verifier, "uri-state").build(), JWSAlgorithm.ES256, ec,
                new ECDSASigner(ec));
        Http.Res login = authorize(byValue(id, object));
        assertEquals(302, login.status(), login::toString);
        assertTrue(login.header("Location").startsWith(BASE + "/login.xhtml?"), login::toString);
        assertErrorRedirect(authorize(byValue(id, rs256(claims(id, verifier, "uri-state").build()),
                "state", "q", "redirect_uri", REDIRECT)), REDIRECT, "invalid_request_object", "q");
    }

    // ---------------- refusals by class ----------------

    @Test
    void everyObjectThatIsNotTheClientsValidOneIsInvalidRequestObjectAtTheQuerysRedirectUri() throws Exception {
        ClientID id = inlineClient();
        CodeVerifier v = new CodeVerifier();
        RSAKey foreign = new RSAKeyGenerator(2048).keyID(rsa.getKeyID()).generate();
        Instant now = Instant.now();
        Map<String, JWT> refused = new LinkedHashMap<>();
        refused.put("unsigned (alg none)", new PlainJWT(claims(id, v, "s").build()));
        refused.put("HMAC", signed(claims(id, v, "s").build(), JWSAlgorithm.HS256, rsa,
                new MACSigner(new byte[32])));
        refused.put("a foreign key", signed(claims(id, v, "s").build(), JWSAlgorithm.RS256, foreign,
                new RSASSASigner(foreign)));
        refused.put("expired", rs256(claims(id, v, "s").expirationTime(Date.from(now.minusSeconds(120))).build()));
        refused.put("not yet valid", rs256(claims(id, v, "s").notBeforeTime(Date.from(now.plusSeconds(600))).build()));
        refused.put("another audience", rs256(claims(id, v, "s").audience(BASE + "/oauth/token").build()));
        refused.put("another issuer", rs256(claims(id, v, "s").issuer("someone-else").build()));
        refused.put("another client_id", rs256(claims(id, v, "s").claim("client_id", "someone-else").build()));
        refused.put("a request_uri inside", rs256(claims(id, v, "s").claim("request_uri", "urn:x").build()));
        for (Map.Entry<String, JWT> e : refused.entrySet()) {
            Http.Res r = authorize(byValue(id, e.getValue(), "state", "query-state", "redirect_uri", REDIRECT));
            assertErrorRedirect(r, REDIRECT, "invalid_request_object", "query-state");
            assertTrue(Http.query(r.header("Location")).get("error_description") != null, e.getKey());
            assertJsonError(http().postForm("/oauth/par", parForm(id, e.getValue())), "invalid_request_object");
        }
        // an unverifiable object with an unregistered redirect URI has nowhere to go: the error page
        Http.Res page = authorize(byValue(id, refused.get("a foreign key"), "redirect_uri", "https://evil.example/cb"));
        assertEquals(400, page.status(), page::toString);
        assertNull(page.header("Location"));
        assertTrue(page.header("Content-Type").startsWith("text/html"), page::toString);
        assertEquals(0, Db.count("SELECT COUNT(*) FROM request_object_jtis WHERE client_id = ?", id.getValue()),
                "nothing refused is recorded");
        assertEquals(0, Db.count("SELECT COUNT(*) FROM pushed_authorization_requests WHERE client_id = ?",
                id.getValue()));
    }

    private Map<String, String> parForm(ClientID id, JWT object) throws Exception {
        Map<String, String> p = new LinkedHashMap<>();
        p.put("client_id", id.getValue());
        p.put("request", object.serialize());
        p.put("client_assertion_type", "urn:ietf:params:oauth:client-assertion-type:jwt-bearer");
        p.put("client_assertion", assertion(id).getClientAssertion().serialize());
        return p;
    }

    @Test
    void aForeignRequestUriStaysUnsupported() throws Exception {
        ClientID id = inlineClient();
        Map<String, String> p = new LinkedHashMap<>();
        p.put("client_id", id.getValue());
        p.put("redirect_uri", REDIRECT);
        p.put("response_type", "code");
        p.put("scope", "openid");
        p.put("state", "st");
        p.put("request_uri", "https://app.example.com/request.jwt");
        assertErrorRedirect(authorize(p), REDIRECT, "request_uri_not_supported", "st");
        CodeVerifier v = new CodeVerifier();
        assertErrorRedirect(authorize(byValue(id, rs256(claims(id, v, "s")
                .claim("request_uri", "https://app.example.com/request.jwt").build()), "state", "q",
                "redirect_uri", REDIRECT)), REDIRECT, "invalid_request_object", "q");
    }

    @Test
    void aClientRegisteredWithRequireSignedRequestObjectSendsNothingElse() throws Exception {
        ClientID id = inlineClient();
        Http.Res patched = admin.patch("/admin/clients/" + id.getValue(), "{\"require_signed_request_object\":true}");
        assertEquals(200, patched.status(), patched::toString);
        assertEquals(true, patched.json().get("require_signed_request_object"));
        assertEquals(1, Db.count("SELECT COUNT(*) FROM audit_events WHERE event_type = 'CLIENT_UPDATED' "
                + "AND client_id = ? AND detail LIKE ?", id.getValue(), "%require_signed_request_object%"));
        CodeVerifier v = new CodeVerifier();
        Map<String, String> plain = new LinkedHashMap<>();
        plain.put("client_id", id.getValue());
        plain.put("redirect_uri", REDIRECT);
        plain.put("response_type", "code");
        plain.put("scope", "openid");
        plain.put("state", "plain");
        plain.put("code_challenge", com.nimbusds.oauth2.sdk.pkce.CodeChallenge.compute(CodeChallengeMethod.S256, v)
                .getValue());
        plain.put("code_challenge_method", "S256");
        assertErrorRedirect(authorize(plain), REDIRECT, "invalid_request", "plain");

        Map<String, String> pushedPlain = new LinkedHashMap<>(plain);
        pushedPlain.put("client_assertion_type", "urn:ietf:params:oauth:client-assertion-type:jwt-bearer");
        pushedPlain.put("client_assertion", assertion(id).getClientAssertion().serialize());
        assertJsonError(http().postForm("/oauth/par", pushedPlain), "invalid_request");

        Http.Res login = authorize(byValue(id, rs256(claims(id, v, "signed").build())));
        assertEquals(302, login.status(), login::toString);
        assertTrue(login.header("Location").startsWith(BASE + "/login.xhtml?"), login::toString);

        assertEquals(200, admin.patch("/admin/clients/" + id.getValue(), "{\"require_signed_request_object\":false}")
                .status());
        assertEquals(400, admin.patch("/admin/clients/" + id.getValue(), "{\"require_signed_request_object\":null}")
                .status());
        Http.Res shown = admin.get("/admin/clients/" + id.getValue());
        assertEquals(false, shown.json().get("require_signed_request_object"));
        assertEquals(302, authorize(plain).status());
        assertTrue(authorize(plain).header("Location").startsWith(BASE + "/login.xhtml?"), "plain requests again");
    }

    @Test
    void discoveryAnnouncesSignedRequestObjects() throws Exception {
        OIDCProviderMetadata m = OIDCProviderMetadata.parse(http().get("/.well-known/openid-configuration").body());
        assertTrue(m.supportsRequestParam());
        assertFalse(m.supportsRequestURIParam());
        assertEquals(List.of(JWSAlgorithm.RS256, JWSAlgorithm.PS256, JWSAlgorithm.ES256),
                m.getRequestObjectJWSAlgs());
        assertFalse(m.requiresSignedRequestObject());
        assertEquals(false, http().get("/.well-known/openid-configuration").json().get("require_signed_request_object"));
    }

    @Test
    void withTheServerWideSettingEveryClientMustSign() throws Exception {
        ClientID id = inlineClient(); // one database: the client is known to both servers
        try (ClassServer strict = ClassServer.startOwn("-Dportcullis.request-object.required=true")) {
            assertEquals(true, strict.http().get("/.well-known/openid-configuration").json()
                    .get("require_signed_request_object"), strict::output);
            CodeVerifier v = new CodeVerifier();
            Map<String, String> plain = new LinkedHashMap<>();
            plain.put("client_id", id.getValue());
            plain.put("redirect_uri", REDIRECT);
            plain.put("response_type", "code");
            plain.put("scope", "openid");
            plain.put("state", "plain");
            assertErrorRedirect(new UserAgent(strict.base()).authorize(plain), REDIRECT, "invalid_request", "plain",
                    strict.base());
            SignedJWT object = signed(new JWTClaimsSet.Builder(claims(id, v, "signed").build())
                    .audience(strict.base()).build(), JWSAlgorithm.RS256, rsa, new RSASSASigner(rsa));
            Http.Res login = new UserAgent(strict.base()).authorize(byValue(id, object));
            assertTrue(login.header("Location").startsWith(strict.base() + "/login.xhtml?"), login::toString);
        }
    }
}
