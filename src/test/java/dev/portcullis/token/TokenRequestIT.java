package dev.portcullis.token;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.portcullis.crypto.Secrets;
import dev.portcullis.testing.Db;
import dev.portcullis.testing.Http;
import java.util.Base64;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A request to POST /oauth/token as such: client authentication (client_secret_post, client_secret_basic and none,
 * and every error row: missing or wrong secret, two methods at once, unknown client, a public client sending a
 * secret), the shape of the request and of its error answers (content types, duplicate parameters, malformed JSON,
 * the body limit, Accept, the grant type, the method), and cross-origin calls by browser apps.
 */
class TokenRequestIT extends TokenEndpointTestBase {

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
    @ValueSource(strings = {"password", "implicit", "urn:ietf:params:oauth:grant-type:device_code"})
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

    // ---------------------------------------------------------------- helpers

    private static String basic(String id, String secret) {
        return "Basic " + Base64.getEncoder().encodeToString((Http.enc(id) + ":" + Http.enc(secret))
                .getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }
}
