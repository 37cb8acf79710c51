package dev.portcullis.token;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.ECDSASigner;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jose.jwk.Curve;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jose.jwk.JWK;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.OctetSequenceKey;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.gen.ECKeyGenerator;
import com.nimbusds.jose.jwk.gen.OctetSequenceKeyGenerator;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import com.nimbusds.jose.jwk.source.ImmutableJWKSet;
import com.nimbusds.jose.proc.DefaultJOSEObjectTypeVerifier;
import com.nimbusds.jose.proc.JWSVerificationKeySelector;
import com.nimbusds.jose.proc.SecurityContext;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.proc.DefaultJWTClaimsVerifier;
import com.nimbusds.jwt.proc.DefaultJWTProcessor;
import com.sun.net.httpserver.HttpServer;
import dev.portcullis.testing.CodeFixture;
import dev.portcullis.testing.Db;
import dev.portcullis.testing.Http;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * private_key_jwt over HTTP on a real server: clients registered with an inline {@code jwks} and with a
 * {@code jwks_uri} served by a small HTTP server of the test get tokens with signed client assertions (client
 * credentials and the code grant), use them at introspection and revocation, and a backend verifies the tokens
 * with Nimbus against the JWKS; replays, foreign audiences, an endpoint URL as audience at every endpoint that
 * authenticates clients, expired assertions, wrong keys and an oversized, slow or moved {@code jwks_uri} are
 * invalid_client (the last three saying only that the key set could not be used); the registration rules, key set
 * URLs at addresses outside {@code portcullis.outbound.allowed-networks} included (the test servers admit loopback
 * only); the strict secret methods; a secret rotation with an overlap.
 */
class PrivateKeyJwtIT extends TokenEndpointTestBase {

    private static final String SERVICE_REDIRECT = "https://service.example.com/cb";

    private static RSAKey rsa;
    private static ECKey ec;
    private static HttpServer keyServer;
    private static volatile String served;
    /** Holds the slow path's answer back until the class ends: the server, not the test, waits. */
    private static final CountDownLatch releaseSlow = new CountDownLatch(1);

    @BeforeAll
    static void keysAndKeyServer() throws Exception {
        rsa = new RSAKeyGenerator(2048).keyID("rsa-" + UUID.randomUUID()).generate();
        ec = new ECKeyGenerator(Curve.P_256).keyID("ec-" + UUID.randomUUID()).generate();
        keyServer = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        keyServer.setExecutor(java.util.concurrent.Executors.newCachedThreadPool());
        keyServer.createContext("/jwks", exchange -> answer(exchange, 200, served.getBytes(StandardCharsets.UTF_8)));
        keyServer.createContext("/huge", exchange -> {
            // a valid-looking start, then padding past the 64 KiB limit
            byte[] big = ("{\"keys\":[],\"pad\":\"" + "x".repeat(70 * 1024) + "\"}").getBytes(StandardCharsets.UTF_8);
            answer(exchange, 200, big);
        });
        keyServer.createContext("/slow", exchange -> {
            try {
                releaseSlow.await(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            answer(exchange, 200, publicSet(rsa).getBytes(StandardCharsets.UTF_8));
        });
        keyServer.createContext("/moved", exchange -> {
            exchange.getResponseHeaders().add("Location", keysUrl("/jwks"));
            answer(exchange, 302, new byte[0]);
        });
        keyServer.start();
    }

    @AfterAll
    static void stopKeyServer() {
        releaseSlow.countDown();
        keyServer.stop(0);
    }

    private static void answer(com.sun.net.httpserver.HttpExchange exchange, int status, byte[] body)
            throws java.io.IOException {
        exchange.getResponseHeaders().add("Content-Type", "application/json");
        exchange.sendResponseHeaders(status, body.length == 0 ? -1 : body.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(body);
        }
    }

    private static String keysUrl(String path) {
        return "http://127.0.0.1:" + keyServer.getAddress().getPort() + path;
    }

    private static String publicSet(JWK... keys) {
        return new JWKSet(List.of(keys)).toString(true);
    }

    /** Registers a private_key_jwt client with {@code keys} ("jwks":… or "jwks_uri":…); returns its id. */
    private String register(String keys) {
        Http.Res r = admin.post("/admin/clients", "{\"client_name\":\"Backend\",\"redirect_uris\":[\""
                + SERVICE_REDIRECT + "\"],\"scopes\":\"openid read_user api\",\"grant_types\":[\"authorization_code\","
                + "\"client_credentials\"],\"token_endpoint_auth_method\":\"private_key_jwt\"," + keys + "}");
        assertEquals(201, r.status(), r::toString);
        assertNull(r.jsonString("client_secret"), "no secret for a private_key_jwt client");
        assertEquals("private_key_jwt", r.jsonString("token_endpoint_auth_method"));
        assertEquals(true, r.json().get("confidential"));
        return r.jsonString("client_id");
    }

    private static JWTClaimsSet.Builder assertionClaims(String clientId, String aud) {
        Instant now = Instant.now();
        return new JWTClaimsSet.Builder().issuer(clientId).subject(clientId).audience(aud)
                .issueTime(Date.from(now)).expirationTime(Date.from(now.plusSeconds(60)))
                .jwtID(UUID.randomUUID().toString());
    }

    private static String assertion(JWTClaimsSet claims, JWK key) throws Exception {
        JWSHeader header = new JWSHeader.Builder(key instanceof RSAKey ? JWSAlgorithm.PS256 : JWSAlgorithm.ES256)
                .keyID(key.getKeyID()).type(JOSEObjectType.JWT).build();
        com.nimbusds.jwt.SignedJWT jwt = new com.nimbusds.jwt.SignedJWT(header, claims);
        jwt.sign(key instanceof RSAKey r ? new RSASSASigner(r) : new ECDSASigner((ECKey) key));
        return jwt.serialize();
    }

    /** An assertion for the issuer, the one audience accepted (draft-ietf-oauth-rfc7523bis). */
    private static String assertion(String clientId, JWK key) throws Exception {
        return assertion(assertionClaims(clientId, BASE).build(), key);
    }

    private Http.Res call(String endpoint, Map<String, String> params, String assertion) {
        Map<String, String> p = new LinkedHashMap<>(params);
        p.put("client_assertion_type", ClientAssertionVerifier.ASSERTION_TYPE);
        p.put("client_assertion", assertion);
        return http.postForm(endpoint, p);
    }

    private Http.Res clientCredentials(String assertion) {
        return call("/oauth/token", Map.of("grant_type", "client_credentials"), assertion);
    }

    /** A backend's check of an access token: signature against the JWKS, issuer, audience, subject. */
    private static JWTClaimsSet verifiedAccessToken(String token, String subject) throws Exception {
        DefaultJWTProcessor<SecurityContext> backend = new DefaultJWTProcessor<>();
        backend.setJWSTypeVerifier(new DefaultJOSEObjectTypeVerifier<>(new JOSEObjectType("at+jwt")));
        backend.setJWSKeySelector(new JWSVerificationKeySelector<>(Set.of(JWSAlgorithm.RS256, JWSAlgorithm.ES256,
                JWSAlgorithm.PS256), new ImmutableJWKSet<>(jwks())));
        backend.setJWTClaimsSetVerifier(new DefaultJWTClaimsVerifier<>(BASE + "/api", new JWTClaimsSet.Builder()
                .issuer(BASE).subject(subject).build(), Set.of("exp", "iat", "jti", "client_id")));
        return backend.process(token, null);
    }

    private static long failuresFor(String clientId, String detailPart) {
        return Db.count("SELECT COUNT(*) FROM audit_events WHERE event_type = 'CLIENT_AUTH_FAILURE' AND client_id = ? "
                + "AND detail LIKE ?", clientId, "%" + detailPart + "%");
    }

    @Test
    void aClientWithInlineKeysGetsTokensIntrospectsAndRevokesWithAssertions() throws Exception {
        fixtures();
        String id = register("\"jwks\":" + publicSet(rsa, ec));
        Http.Res shown = admin.get("/admin/clients/" + id);
        assertEquals("private_key_jwt", shown.jsonString("token_endpoint_auth_method"), shown::toString);
        assertEquals(Set.of(rsa.getKeyID(), ec.getKeyID()), JWKSet.parse(shown.body().substring(
                shown.body().indexOf("\"jwks\":") + 7, shown.body().indexOf("]}", shown.body().indexOf("\"jwks\":")) + 2))
                .getKeys().stream().map(JWK::getKeyID).collect(java.util.stream.Collectors.toSet()));

        // client credentials, signed with the RSA key (PS256)
        Http.Res cc = clientCredentials(assertion(id, rsa));
        assertEquals(200, cc.status(), cc::toString);
        JWTClaimsSet token = verifiedAccessToken(cc.jsonString("access_token"), id);
        assertEquals(id, token.getStringClaim("client_id"));

        // the code grant, signed with the EC key (ES256)
        String code = CodeFixture.issue(id, user.userId(), SERVICE_REDIRECT, "openid read_user", "n-1", null);
        Http.Res redeemed = call("/oauth/token", Map.of("grant_type", "authorization_code", "code", code,
                "redirect_uri", SERVICE_REDIRECT, "client_id", id), assertion(assertionClaims(id, BASE).build(), ec));
        assertEquals(200, redeemed.status(), redeemed::toString);
        verifiedAccessToken(redeemed.jsonString("access_token"), user.userId());
        DefaultJWTProcessor<SecurityContext> rp = new DefaultJWTProcessor<>();
        rp.setJWSKeySelector(new JWSVerificationKeySelector<>(JWSAlgorithm.RS256, new ImmutableJWKSet<>(jwks())));
        rp.setJWTClaimsSetVerifier(new DefaultJWTClaimsVerifier<>(id, new JWTClaimsSet.Builder().issuer(BASE)
                .subject(user.userId()).claim("nonce", "n-1").build(), Set.of("exp", "iat")));
        rp.process(redeemed.jsonString("id_token"), null);

        // introspection and revocation, each with an assertion of its own for the issuer
        String at = cc.jsonString("access_token");
        Http.Res active = call("/oauth/introspect", Map.of("token", at), assertion(id, rsa));
        assertEquals(200, active.status(), active::toString);
        assertEquals(true, active.json().get("active"), active::toString);
        Http.Res revoked = call("/oauth/revoke", Map.of("token", at), assertion(id, ec));
        assertEquals(200, revoked.status(), revoked::toString);
        Http.Res inactive = call("/oauth/introspect", Map.of("token", at), assertion(id, rsa));
        assertEquals(false, inactive.json().get("active"), inactive::toString);
        assertTrue(accessTokenRevoked(at));
    }

    @Test
    void replaysForeignAudiencesExpiredAssertionsWrongKeysAndSecretsAreInvalidClient() throws Exception {
        String id = register("\"jwks\":" + publicSet(rsa));
        String once = assertion(id, rsa);
        assertEquals(200, clientCredentials(once).status());
        assertError(clientCredentials(once), 401, "invalid_client");
        assertEquals(1, failuresFor(id, "used before"));

        assertError(clientCredentials(assertion(assertionClaims(id, "https://another-idp.example.com/token").build(),
                rsa)), 401, "invalid_client");
        assertError(clientCredentials(assertion(assertionClaims(id, BASE + "/oauth/introspect").build(), rsa)), 401,
                "invalid_client");
        Instant past = Instant.now().minus(Duration.ofMinutes(5));
        assertError(clientCredentials(assertion(assertionClaims(id, BASE)
                .issueTime(Date.from(past)).expirationTime(Date.from(past.plusSeconds(60))).build(), rsa)), 401,
                "invalid_client");
        assertError(clientCredentials(assertion(assertionClaims(id, BASE)
                .expirationTime(Date.from(Instant.now().plus(Duration.ofHours(1)))).build(), rsa)), 401,
                "invalid_client");
        RSAKey impostor = new RSAKeyGenerator(2048).keyID(rsa.getKeyID()).generate();
        assertError(clientCredentials(assertion(id, impostor)), 401, "invalid_client");
        assertEquals(1, failuresFor(id, "signature"));
        assertError(form(Map.of("grant_type", "client_credentials", "client_id", id, "client_secret", "guess")), 401,
                "invalid_client");
        assertEquals(1, Db.count("SELECT COUNT(*) FROM token_grants WHERE client_id = ?", id),
                "only the first request got a token");
    }

    /**
     * The 2025 audience-injection class: an assertion whose aud is an endpoint URL (the token endpoint's, or the one
     * it is sent to), or that names another audience besides the issuer, authenticates nowhere; the issuer alone
     * does, as a string or a one-element array. Each endpoint that authenticates clients: token, introspection,
     * revocation, and logout by refresh token.
     */
    @Test
    void anAssertionAuthenticatesAtEveryEndpointOnlyWithTheIssuerAloneAsAudience() throws Exception {
        String id = register("\"jwks\":" + publicSet(rsa));
        Map<String, Map<String, String>> endpoints = new LinkedHashMap<>();
        endpoints.put("/oauth/token", Map.of("grant_type", "client_credentials"));
        endpoints.put("/oauth/introspect", Map.of("token", "not-a-token"));
        endpoints.put("/oauth/revoke", Map.of("token", "not-a-token"));
        endpoints.put("/oauth/logout", Map.of("refresh_token", "not-a-token"));
        for (Map.Entry<String, Map<String, String>> e : endpoints.entrySet()) {
            String endpoint = e.getKey();
            for (List<String> aud : List.of(List.of(BASE + "/oauth/token"), List.of(BASE + endpoint),
                    List.of(BASE, BASE + "/oauth/token"), List.of("https://attacker.example", BASE))) {
                Http.Res r = call(endpoint, e.getValue(), assertion(assertionClaims(id, BASE).audience(aud).build(),
                        rsa));
                assertError(r, 401, "invalid_client");
                assertTrue(r.jsonString("error_description").contains("aud must be the issuer identifier " + BASE
                        + ", and nothing else"), () -> endpoint + " " + aud + " → " + r);
            }
            Http.Res asArray = call(endpoint, e.getValue(), assertionWithAudArray(id, BASE));
            assertTrue(asArray.status() != 401, () -> endpoint + ": the issuer as a one-element array → " + asArray);
        }
        assertEquals(16, failuresFor(id, "aud must be the issuer identifier"));
        assertEquals(200, clientCredentials(assertion(id, rsa)).status());
    }

    /** Nimbus writes a one-element aud as a string: this one's claims are written by hand, aud an array. */
    private static String assertionWithAudArray(String clientId, String aud) throws Exception {
        long now = Instant.now().getEpochSecond();
        com.nimbusds.jose.JWSObject jws = new com.nimbusds.jose.JWSObject(new JWSHeader.Builder(JWSAlgorithm.PS256)
                .keyID(rsa.getKeyID()).type(JOSEObjectType.JWT).build(), new com.nimbusds.jose.Payload(
                "{\"iss\":" + Http.q(clientId) + ",\"sub\":" + Http.q(clientId) + ",\"aud\":[" + Http.q(aud)
                        + "],\"iat\":" + now + ",\"exp\":" + (now + 60) + ",\"jti\":" + Http.q(UUID.randomUUID()
                        .toString()) + "}"));
        jws.sign(new RSASSASigner(rsa));
        return jws.serialize();
    }

    /** What a key set URL did is audited; the caller learns only that the key set could not be used. */
    private void refusedSayingOnlyTheKeySetCouldNotBeUsed(Http.Res r) {
        assertError(r, 401, "invalid_client");
        assertEquals(ClientAssertionVerifier.KEYS_UNUSABLE, r.jsonString("error_description"), r::toString);
        assertFalse(r.body().contains("127.0.0.1") || r.body().contains(String.valueOf(keyServer.getAddress()
                .getPort())), r::toString);
    }

    @Test
    void aClientWithAKeySetUrlIsServedFromItAndAMovedUrlIsNotFollowed() throws Exception {
        served = publicSet(ec);
        String id = register("\"jwks_uri\":\"" + keysUrl("/jwks") + "\"");
        Http.Res r = clientCredentials(assertion(id, ec));
        assertEquals(200, r.status(), r::toString);
        verifiedAccessToken(r.jsonString("access_token"), id);
        assertEquals(keysUrl("/jwks"), admin.get("/admin/clients/" + id).jsonString("jwks_uri"));

        String moved = register("\"jwks_uri\":\"" + keysUrl("/moved") + "\"");
        refusedSayingOnlyTheKeySetCouldNotBeUsed(clientCredentials(assertion(moved, ec)));
        assertEquals(1, failuresFor(moved, keysUrl("/moved") + ": answered 302"));
    }

    @Test
    void anOversizedKeySetIsInvalidClient() throws Exception {
        String id = register("\"jwks_uri\":\"" + keysUrl("/huge") + "\"");
        refusedSayingOnlyTheKeySetCouldNotBeUsed(clientCredentials(assertion(id, rsa)));
        assertEquals(1, failuresFor(id, "answered more than 65536 bytes"));
    }

    @Test
    void aSlowKeySetUrlIsInvalidClientWithinTheTimeOut() throws Exception {
        String id = register("\"jwks_uri\":\"" + keysUrl("/slow") + "\"");
        long start = System.nanoTime();
        Http.Res r = clientCredentials(assertion(id, rsa));
        long tookMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        refusedSayingOnlyTheKeySetCouldNotBeUsed(r);
        assertTrue(tookMs < 6_000, "answered after " + tookMs + " ms");
        assertEquals(1, failuresFor(id, "no complete answer within 3000 ms"));
        // within the minute the URL is not asked again: the next request is refused at once
        long again = System.nanoTime();
        refusedSayingOnlyTheKeySetCouldNotBeUsed(clientCredentials(assertion(id, rsa)));
        assertTrue(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - again) < 2_000);
    }

    /**
     * The test servers admit loopback alone ({@code portcullis.outbound.allowed-networks}): a key set URL anywhere
     * else, in any spelling, is refused at registration and at a change, with the rule named.
     */
    @Test
    void aKeySetUrlOutsideTheAllowedNetworksIsRefusedAtRegistrationAndChange() throws Exception {
        for (String uri : List.of("https://169.254.169.254/latest/meta-data/jwks", "https://10.0.0.8/jwks",
                "https://[fe80::1]/jwks", "https://[fe80::1%25eth0]/jwks", "http://2130706433:" + keyServer
                .getAddress().getPort() + "/jwks", "http://0x7f000001/jwks", "https://224.0.0.1/jwks")) {
            Http.Res r = admin.post("/admin/clients", "{\"client_name\":\"Backend\",\"redirect_uris\":[\""
                    + SERVICE_REDIRECT + "\"],\"scopes\":\"openid\",\"token_endpoint_auth_method\":\"private_key_jwt\","
                    + "\"jwks_uri\":" + Http.q(uri) + "}");
            assertError(r, 400, "invalid_request");
            assertTrue(r.jsonString("error_description").startsWith("jwks_uri: "), r::toString);
        }
        String id = register("\"jwks_uri\":\"" + keysUrl("/jwks") + "\"");
        Http.Res patched = admin.patch("/admin/clients/" + id, "{\"jwks_uri\":\"https://169.254.169.254/jwks\"}");
        assertError(patched, 400, "invalid_request");
        assertTrue(patched.jsonString("error_description").contains("outside portcullis.outbound.allowed-networks"),
                patched::toString);
        assertEquals(keysUrl("/jwks"), admin.get("/admin/clients/" + id).jsonString("jwks_uri"));
    }

    @Test
    void registrationRefusesPrivateKeysSymmetricKeysBothOrNoKeysAndPlainHttp() throws Exception {
        OctetSequenceKey secretKey = new OctetSequenceKeyGenerator(256).generate();
        for (String keys : List.of("\"jwks\":" + new JWKSet(rsa).toString(false),
                "\"jwks\":" + new JWKSet(secretKey).toString(false),
                "\"jwks\":" + publicSet(rsa) + ",\"jwks_uri\":\"" + keysUrl("/jwks") + "\"",
                "\"jwks_uri\":\"http://keys.example.com/jwks\"",
                "\"jwks\":{\"keys\":[]}",
                "\"jwks\":\"not an object\"")) {
            Http.Res r = admin.post("/admin/clients", "{\"client_name\":\"Backend\",\"redirect_uris\":[\""
                    + SERVICE_REDIRECT + "\"],\"scopes\":\"openid\",\"token_endpoint_auth_method\":\"private_key_jwt\","
                    + keys + "}");
            assertEquals(400, r.status(), () -> keys + " → " + r);
            assertEquals("invalid_request", r.jsonString("error"), r::toString);
            assertFalse(r.body().contains("\"d\""), "no private key material echoed");
        }
        Http.Res noKeys = admin.post("/admin/clients", "{\"client_name\":\"Backend\",\"redirect_uris\":[\""
                + SERVICE_REDIRECT + "\"],\"scopes\":\"openid\",\"token_endpoint_auth_method\":\"private_key_jwt\"}");
        assertEquals(400, noKeys.status(), noKeys::toString);
        Http.Res keysWithSecret = admin.post("/admin/clients", "{\"client_name\":\"Backend\",\"redirect_uris\":[\""
                + SERVICE_REDIRECT + "\"],\"scopes\":\"openid\",\"jwks\":" + publicSet(rsa) + "}");
        assertEquals(400, keysWithSecret.status(), keysWithSecret::toString);
        Http.Res noneConfidential = admin.post("/admin/clients", "{\"client_name\":\"Backend\",\"redirect_uris\":[\""
                + SERVICE_REDIRECT + "\"],\"scopes\":\"openid\",\"confidential\":true,"
                + "\"token_endpoint_auth_method\":\"none\"}");
        assertEquals(400, noneConfidential.status(), noneConfidential::toString);

        String id = register("\"jwks\":" + publicSet(rsa));
        Http.Res rotate = admin.post("/admin/clients/" + id + "/secret", "");
        assertEquals(400, rotate.status(), rotate::toString);
        assertTrue(rotate.jsonString("error_description").contains("private_key_jwt"), rotate::toString);
    }

    @Test
    void aChosenSecretMethodIsTheOnlyOneAccepted() {
        Http.Res r = admin.post("/admin/clients", "{\"client_name\":\"Poster\",\"redirect_uris\":[\""
                + SERVICE_REDIRECT + "\"],\"scopes\":\"api\",\"grant_types\":[\"client_credentials\"],"
                + "\"token_endpoint_auth_method\":\"client_secret_post\"}");
        assertEquals(201, r.status(), r::toString);
        String id = r.jsonString("client_id");
        String secret = r.jsonString("client_secret");
        assertEquals(200, form(Map.of("grant_type", "client_credentials", "client_id", id, "client_secret", secret))
                .status());
        assertError(form(Map.of("grant_type", "client_credentials"), "Authorization", basic(id, secret)), 401,
                "invalid_client");

        Http.Res basicOnly = admin.patch("/admin/clients/" + id, "{\"token_endpoint_auth_method\":\"client_secret_basic\"}");
        assertEquals(200, basicOnly.status(), basicOnly::toString);
        assertNull(basicOnly.jsonString("client_secret"), "the secret stays");
        assertEquals(200, form(Map.of("grant_type", "client_credentials"), "Authorization", basic(id, secret))
                .status());
        assertError(form(Map.of("grant_type", "client_credentials", "client_id", id, "client_secret", secret)), 401,
                "invalid_client");

        fixtures();
        assertEquals("client_secret_basic", admin.get("/admin/clients/" + confidential.clientId())
                .jsonString("token_endpoint_auth_method"), "the default shown for a client that chose none");
        assertEquals("none", admin.get("/admin/clients/" + publicClient.clientId())
                .jsonString("token_endpoint_auth_method"));
    }

    @Test
    void aRotationWithAnOverlapKeepsTheOldSecretUntilTheStatedTime() throws Exception {
        Http.Res r = admin.post("/admin/clients", "{\"client_name\":\"Rotating\",\"redirect_uris\":[\""
                + SERVICE_REDIRECT + "\"],\"scopes\":\"api\",\"grant_types\":[\"client_credentials\"]}");
        String id = r.jsonString("client_id");
        String first = r.jsonString("client_secret");

        for (String bad : List.of("{\"previous_secret_valid_for\":0}", "{\"previous_secret_valid_for\":2592001}",
                "{\"previous_secret_valid_for\":\"86400\"}", "{\"previous_secret_valid_for\":1.5}",
                "{\"previous_secret_valid_forr\":60}", "[]")) {
            Http.Res refused = admin.post("/admin/clients/" + id + "/secret", bad);
            assertEquals(400, refused.status(), () -> bad + " → " + refused);
            assertEquals("invalid_request", refused.jsonString("error"), refused::toString);
        }
        assertEquals(200, form(Map.of("grant_type", "client_credentials"), "Authorization", basic(id, first))
                .status(), "a refused rotation changed nothing");

        long before = Instant.now().getEpochSecond();
        Http.Res rotated = admin.post("/admin/clients/" + id + "/secret", "{\"previous_secret_valid_for\":3600}");
        assertEquals(200, rotated.status(), rotated::toString);
        String second = rotated.jsonString("client_secret");
        long until = ((Number) rotated.json().get("previous_secret_expires_at")).longValue();
        assertTrue(until >= before + 3600 && until <= Instant.now().getEpochSecond() + 3600, rotated::toString);
        assertEquals(until, ((Number) admin.get("/admin/clients/" + id).json().get("previous_secret_expires_at"))
                .longValue());
        assertEquals(until, Db.count("SELECT previous_secret_expires_at FROM clients WHERE client_id = ?", id));
        assertEquals(200, form(Map.of("grant_type", "client_credentials"), "Authorization", basic(id, second))
                .status());
        assertEquals(200, form(Map.of("grant_type", "client_credentials"), "Authorization", basic(id, first))
                .status(), "the old secret during the overlap");
        assertEquals(1, Db.count("SELECT COUNT(*) FROM audit_events WHERE event_type = 'CLIENT_SECRET_ROTATED' "
                + "AND client_id = ? AND detail LIKE '%valid for 3600 s%'", id));

        // past the overlap (the row's expiry moved into the past, as time would), the old secret is refused; a
        // refused request re-reads the row, which refreshes this instance's cached copy of the client
        Db.update("UPDATE clients SET previous_secret_expires_at = ? WHERE client_id = ?",
                Instant.now().getEpochSecond() - 1, id);
        assertError(form(Map.of("grant_type", "client_credentials"), "Authorization", basic(id, "wrong")), 401,
                "invalid_client");
        assertError(form(Map.of("grant_type", "client_credentials"), "Authorization", basic(id, first)), 401,
                "invalid_client");
        assertEquals(200, form(Map.of("grant_type", "client_credentials"), "Authorization", basic(id, second))
                .status());

        // without the field the old secret ends at once: no previous secret is kept
        Http.Res rotatedAgain = admin.post("/admin/clients/" + id + "/secret", "");
        assertEquals(200, rotatedAgain.status(), rotatedAgain::toString);
        assertNull(rotatedAgain.jsonString("previous_secret_expires_at"), "without the field: no overlap");
        assertEquals(0, Db.count("SELECT COUNT(*) FROM clients WHERE client_id = ? AND (previous_secret_hash IS NOT "
                + "NULL OR previous_secret_expires_at IS NOT NULL)", id));
        assertEquals(200, form(Map.of("grant_type", "client_credentials"), "Authorization",
                basic(id, rotatedAgain.jsonString("client_secret"))).status());
        assertEquals(1, Db.count("SELECT COUNT(*) FROM audit_events WHERE event_type = 'CLIENT_SECRET_ROTATED' "
                + "AND client_id = ? AND detail LIKE '%ended at once%'", id));
    }

    private static String basic(String id, String secret) {
        return "Basic " + java.util.Base64.getEncoder().encodeToString((Http.enc(id) + ":" + Http.enc(secret))
                .getBytes(StandardCharsets.UTF_8));
    }
}
