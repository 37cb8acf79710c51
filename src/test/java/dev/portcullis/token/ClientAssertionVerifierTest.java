package dev.portcullis.token;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.JWSObject;
import com.nimbusds.jose.Payload;
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
import com.nimbusds.jose.util.Base64URL;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.PlainJWT;
import com.nimbusds.jwt.SignedJWT;
import dev.portcullis.audit.AuditEvent;
import dev.portcullis.client.Client;
import dev.portcullis.client.ClientAuthMethods;
import dev.portcullis.client.ClientRepository;
import dev.portcullis.client.TestClients;
import dev.portcullis.config.ClientAssertionSettings;
import dev.portcullis.config.IssuerSettings;
import dev.portcullis.protocol.OAuthError;
import dev.portcullis.protocol.OAuthException;
import dev.portcullis.protocol.ProtocolParameters;
import dev.portcullis.testing.MutableClock;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Date;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * private_key_jwt client authentication (RFC 7523 3, OIDC Core 9) through {@link ClientAuthenticator}: what is
 * accepted, every class of refusal (each an audited invalid_client), the key set URL's refetch limit, the strict
 * secret methods and the secret overlap of a rotation.
 */
class ClientAssertionVerifierTest {

    private static final String ISSUER = "https://id.example.com";
    private static final String TOKEN_ENDPOINT = ISSUER + "/oauth/token";
    private static final String CLIENT = "backend-1";
    private static final String KEYS_URL = "https://backend.example.com/jwks.json";

    private static RSAKey rsa;
    private static ECKey ec;
    private static RSAKey stranger;

    private final MutableClock clock = new MutableClock(Instant.ofEpochSecond(1_800_000_000L));
    private final GrantFakes.Audit audit = new GrantFakes.Audit();
    private final Set<String> spent = new HashSet<>();
    private final List<String> fetches = new ArrayList<>();
    private String served;
    private Client client;
    private ClientAuthenticator authenticator;

    @BeforeAll
    static void keys() throws Exception {
        rsa = new RSAKeyGenerator(2048).keyID("rsa-1").generate();
        ec = new ECKeyGenerator(Curve.P_256).keyID("ec-1").generate();
        stranger = new RSAKeyGenerator(2048).keyID("rsa-1").generate();
    }

    @BeforeEach
    void wire() {
        client = TestClients.privateKeyJwt(CLIENT, publicSet(rsa, ec));
        ClientJwksSource keySets = new ClientJwksSource();
        keySets.clock = clock;
        keySets.fetcher = uri -> {
            fetches.add(uri);
            return served;
        };
        ClientAssertionVerifier assertions = new ClientAssertionVerifier();
        assertions.keySets = keySets;
        assertions.issuer = new IssuerSettings(URI.create(ISSUER));
        assertions.settings = new ClientAssertionSettings(false);
        assertions.clock = clock;
        authenticator = new ClientAuthenticator();
        authenticator.audit = audit;
        authenticator.clock = clock;
        authenticator.assertions = assertions;
        authenticator.jtis = new ClientAssertionJtiRepository() {
            @Override
            public boolean use(String clientId, String jti, Instant expiresAt) {
                return spent.add(clientId + " " + jti);
            }
        };
        authenticator.clients = new ClientRepository() {
            @Override
            public Optional<Client> findCached(String clientId) {
                return find(clientId);
            }

            @Override
            public Optional<Client> find(String clientId) {
                return Optional.ofNullable(client).filter(c -> c.clientId().equals(clientId));
            }
        };
    }

    private static String publicSet(JWK... keys) {
        return new JWKSet(List.of(keys)).toString(true);
    }

    private JWTClaimsSet.Builder claims() {
        Instant now = clock.instant();
        return new JWTClaimsSet.Builder().issuer(CLIENT).subject(CLIENT).audience(ISSUER)
                .issueTime(Date.from(now)).expirationTime(Date.from(now.plusSeconds(60)))
                .jwtID(UUID.randomUUID().toString());
    }

    private static String sign(JWTClaimsSet claims, JWSAlgorithm alg, JWK key) throws Exception {
        JWSSigner signer = key instanceof RSAKey r ? new RSASSASigner(r) : new ECDSASigner((ECKey) key);
        SignedJWT jwt = new SignedJWT(new JWSHeader.Builder(alg).keyID(key.getKeyID()).type(JOSEObjectType.JWT)
                .build(), claims);
        jwt.sign(signer);
        return jwt.serialize();
    }

    private Client authenticate(String assertion) {
        return authenticate(assertion, null);
    }

    private Client authenticate(String assertion, String clientId) {
        return authenticateAt("/oauth/token", assertion, clientId);
    }

    private Client authenticateAt(String endpointPath, String assertion, String clientId) {
        String form = "grant_type=client_credentials&client_assertion_type="
                + enc(ClientAssertionVerifier.ASSERTION_TYPE) + "&client_assertion=" + enc(assertion)
                + (clientId == null ? "" : "&client_id=" + enc(clientId));
        return authenticator.authenticate(ProtocolParameters.fromForm(form), null, "192.0.2.1", endpointPath);
    }

    /** An assertion whose claims are this JSON exactly (Nimbus writes a one-element aud as a string). */
    private static String signJson(String claimsJson, JWK key) throws Exception {
        JWSObject jws = new JWSObject(new JWSHeader.Builder(JWSAlgorithm.RS256).keyID(key.getKeyID()).build(),
                new Payload(claimsJson));
        jws.sign(new RSASSASigner((RSAKey) key));
        return jws.serialize();
    }

    private String claimsJsonWithAud(String audJson) {
        long now = clock.instant().getEpochSecond();
        return "{\"iss\":\"" + CLIENT + "\",\"sub\":\"" + CLIENT + "\",\"aud\":" + audJson + ",\"iat\":" + now
                + ",\"exp\":" + (now + 60) + ",\"jti\":\"" + UUID.randomUUID() + "\"}";
    }

    private static String enc(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }

    private OAuthException refused(String assertion, String why) {
        int before = audit.failures.size();
        OAuthException e = assertThrows(OAuthException.class, () -> authenticate(assertion));
        assertEquals(OAuthError.INVALID_CLIENT, e.error(), e::description);
        assertEquals(401, e.status());
        assertTrue(e.description().contains(why), e.description());
        assertEquals(List.of(AuditEvent.Type.CLIENT_AUTH_FAILURE), audit.failures.subList(before, audit.failures.size()));
        return e;
    }

    @Test
    void authenticateWhenSignedWithAnyAcceptedAlgorithmThenTheClient() throws Exception {
        assertSame(client, authenticate(sign(claims().build(), JWSAlgorithm.RS256, rsa)));
        assertSame(client, authenticate(sign(claims().build(), JWSAlgorithm.PS256, rsa)));
        assertSame(client, authenticate(sign(claims().build(), JWSAlgorithm.ES256, ec)), "client_id may be absent");
        assertSame(client, authenticate(sign(claims().audience(ISSUER).build(), JWSAlgorithm.RS256, rsa), CLIENT),
                "the issuer as aud, and a matching client_id");
        assertEquals(4, spent.size());
    }

    @Test
    void authenticateWhenTheJtiWasUsedBeforeThenInvalidClient() throws Exception {
        String assertion = sign(claims().build(), JWSAlgorithm.RS256, rsa);
        authenticate(assertion);
        refused(assertion, "used before");
    }

    @Test
    void authenticateWhenAudIsAnotherAudienceThenInvalidClient() throws Exception {
        refused(sign(claims().audience("https://other-idp.example.com/token").build(), JWSAlgorithm.RS256, rsa), "aud");
        refused(sign(claims().audience(ISSUER + "/oauth/introspect").build(), JWSAlgorithm.RS256, rsa), "aud");
        refused(sign(claims().audience((String) null).build(), JWSAlgorithm.RS256, rsa), "aud");
    }

    @Test
    void authenticateWhenAudIsTheIssuerAloneAsStringOrOneElementArrayThenTheClient() throws Exception {
        assertSame(client, authenticate(signJson(claimsJsonWithAud("\"" + ISSUER + "\""), rsa)));
        assertSame(client, authenticate(signJson(claimsJsonWithAud("[\"" + ISSUER + "\"]"), rsa)));
        for (String endpoint : List.of("/oauth/revoke", "/oauth/introspect", "/oauth/logout")) {
            assertSame(client, authenticateAt(endpoint, sign(claims().build(), JWSAlgorithm.RS256, rsa), null),
                    "the issuer at " + endpoint);
        }
    }

    /** draft-ietf-oauth-rfc7523bis: the issuer identifier alone; what the 2025 audience-injection attacks need is refused. */
    @Test
    void authenticateWhenAudIsTheEndpointOrNamesOthersBesidesTheIssuerThenInvalidClient() throws Exception {
        refused(sign(claims().audience(TOKEN_ENDPOINT).build(), JWSAlgorithm.RS256, rsa),
                "aud must be the issuer identifier " + ISSUER + ", and nothing else");
        refused(signJson(claimsJsonWithAud("[\"" + TOKEN_ENDPOINT + "\"]"), rsa), "aud must be the issuer");
        refused(signJson(claimsJsonWithAud("[\"https://other.example\",\"" + ISSUER + "\"]"), rsa),
                "aud must be the issuer");
        refused(signJson(claimsJsonWithAud("[\"" + ISSUER + "\",\"" + TOKEN_ENDPOINT + "\"]"), rsa),
                "aud must be the issuer");
        refused(signJson(claimsJsonWithAud("[\"" + ISSUER + "\",\"" + ISSUER + "\"]"), rsa), "aud must be the issuer");
        refused(signJson(claimsJsonWithAud("[]"), rsa), "aud must be the issuer");
        refused(signJson(claimsJsonWithAud("\"" + ISSUER + "/\""), rsa), "aud must be the issuer");
        refused(signJson(claimsJsonWithAud("\"" + ISSUER.toUpperCase(java.util.Locale.ROOT) + "\""), rsa),
                "aud must be the issuer");
        for (String endpoint : List.of("/oauth/revoke", "/oauth/introspect", "/oauth/logout")) {
            String atEndpoint = sign(claims().audience(ISSUER + endpoint).build(), JWSAlgorithm.RS256, rsa);
            OAuthException e = assertThrows(OAuthException.class, () -> authenticateAt(endpoint, atEndpoint, null));
            assertEquals(OAuthError.INVALID_CLIENT, e.error(), e::description);
            assertTrue(e.description().contains("aud must be the issuer"), e.description());
        }
        assertEquals(0, spent.size(), "a refused assertion spends no jti");
    }

    @Test
    void authenticateWhenTheCompatibilitySwitchIsOnThenTheReceivingEndpointsUrlAloneToo() throws Exception {
        authenticator.assertions.settings = new ClientAssertionSettings(true);
        assertSame(client, authenticate(sign(claims().audience(TOKEN_ENDPOINT).build(), JWSAlgorithm.RS256, rsa)));
        assertSame(client, authenticate(sign(claims().build(), JWSAlgorithm.RS256, rsa)), "the issuer still");
        assertSame(client, authenticateAt("/oauth/revoke", sign(claims().audience(ISSUER + "/oauth/revoke").build(),
                JWSAlgorithm.RS256, rsa), null));
        refused(sign(claims().audience(ISSUER + "/oauth/revoke").build(), JWSAlgorithm.RS256, rsa),
                "aud must be the issuer identifier " + ISSUER + " or " + TOKEN_ENDPOINT);
        refused(signJson(claimsJsonWithAud("[\"" + ISSUER + "\",\"" + TOKEN_ENDPOINT + "\"]"), rsa),
                "aud must be the issuer");
    }

    @Test
    void authenticateWhenExpiredOrExpiringTooFarAheadOrWithoutExpThenInvalidClient() throws Exception {
        Instant now = clock.instant();
        refused(sign(claims().expirationTime(Date.from(now.minusSeconds(31))).build(), JWSAlgorithm.RS256, rsa),
                "expired");
        refused(sign(claims().expirationTime(Date.from(now.plus(Duration.ofMinutes(6)))).build(), JWSAlgorithm.RS256,
                rsa), "ahead");
        refused(sign(claims().expirationTime(null).build(), JWSAlgorithm.RS256, rsa), "exp is required");
        refused(sign(claims().issueTime(Date.from(now.plusSeconds(120))).build(), JWSAlgorithm.RS256, rsa), "future");
        refused(sign(claims().notBeforeTime(Date.from(now.plusSeconds(120))).build(), JWSAlgorithm.RS256, rsa),
                "future");
        assertSame(client, authenticate(sign(claims().expirationTime(Date.from(now.minusSeconds(10)))
                .issueTime(Date.from(now.plusSeconds(10))).build(), JWSAlgorithm.RS256, rsa)),
                "within the clock skew");
        assertEquals(1, spent.size(), "a refused assertion spends no jti");
    }

    @Test
    void authenticateWhenSignedWithAnotherKeyThenInvalidClient() throws Exception {
        refused(sign(claims().build(), JWSAlgorithm.RS256, stranger), "signature");
    }

    @Test
    void authenticateWhenAlgIsNoneOrHs256ThenInvalidClient() throws Exception {
        refused(new PlainJWT(claims().build()).serialize(), "not a signed JWT");
        SignedJWT hs = new SignedJWT(new JWSHeader(JWSAlgorithm.HS256), claims().build());
        hs.sign(new MACSigner(new byte[32]));
        refused(hs.serialize(), "RS256, PS256 or ES256");
        // an RS384 signature by a registered key: still not an accepted algorithm
        refused(sign(claims().build(), JWSAlgorithm.RS384, rsa), "RS256, PS256 or ES256");
        // "none" in the header with a signature part of a real assertion's
        String[] real = sign(claims().build(), JWSAlgorithm.RS256, rsa).split("\\.");
        String noneHeader = Base64URL.encode("{\"alg\":\"none\"}").toString();
        refused(noneHeader + "." + real[1] + "." + real[2], "");
    }

    @Test
    void authenticateWhenIssIsNotSubOrNotTheClientThenInvalidClient() throws Exception {
        refused(sign(claims().subject("someone-else").build(), JWSAlgorithm.RS256, rsa), "iss and sub");
        refused(sign(claims().issuer("other-client").build(), JWSAlgorithm.RS256, rsa), "Unknown client");
        OAuthException e = assertThrows(OAuthException.class,
                () -> authenticate(sign(claims().build(), JWSAlgorithm.RS256, rsa), "other-client"));
        assertEquals(OAuthError.INVALID_CLIENT, e.error());
        assertTrue(e.description().contains("client_id differs"), e.description());
    }

    @Test
    void authenticateWhenJtiIsMissingThenInvalidClient() throws Exception {
        refused(sign(claims().jwtID(null).build(), JWSAlgorithm.RS256, rsa), "jti is required");
        refused(sign(claims().jwtID("x".repeat(257)).build(), JWSAlgorithm.RS256, rsa), "jti is required");
    }

    @Test
    void authenticateWhenTheKidIsUnknownThenInvalidClient() throws Exception {
        RSAKey unknown = new RSAKeyGenerator(2048).keyID("rsa-unknown").generate();
        refused(sign(claims().build(), JWSAlgorithm.RS256, unknown), "no registered key");
    }

    @Test
    void authenticateWhenAKidIsNewThenTheKeySetUrlIsRefetchedAtMostOnceAMinute() throws Exception {
        client = TestClients.privateKeyJwtAt(CLIENT, KEYS_URL);
        served = publicSet(rsa);
        assertSame(client, authenticate(sign(claims().build(), JWSAlgorithm.RS256, rsa)));
        assertSame(client, authenticate(sign(claims().build(), JWSAlgorithm.RS256, rsa)));
        assertEquals(1, fetches.size(), "the fetched set is kept");

        // the client rolls over to its EC key: the first assertion with it refetches
        served = publicSet(rsa, ec);
        refused(sign(claims().build(), JWSAlgorithm.ES256, ec), "no registered key");
        assertEquals(1, fetches.size(), "not within a minute of the last fetch");
        clock.set(clock.instant().plusSeconds(61));
        assertSame(client, authenticate(sign(claims().build(), JWSAlgorithm.ES256, ec)));
        assertEquals(2, fetches.size());

        // an unknown kid asks again only once a minute: a flood of them costs one fetch
        RSAKey unknown = new RSAKeyGenerator(2048).keyID("nobody").generate();
        clock.set(clock.instant().plusSeconds(61));
        for (int i = 0; i < 5; i++) {
            refused(sign(claims().build(), JWSAlgorithm.RS256, unknown), "no registered key");
        }
        assertEquals(3, fetches.size());
    }

    @Test
    void authenticateWhenTheKeySetUrlFailsThenInvalidClientAndNoRetryWithinAMinute() throws Exception {
        client = TestClients.privateKeyJwtAt(CLIENT, KEYS_URL);
        ClientJwksSource failing = new ClientJwksSource();
        failing.clock = clock;
        failing.fetcher = uri -> {
            fetches.add(uri);
            throw new ClientJwksSource.Unavailable("jwks_uri " + uri + ": no complete answer within 3000 ms");
        };
        authenticator.assertions.keySets = failing;
        refusedSayingOnlyTheKeySetCouldNotBeUsed(sign(claims().build(), JWSAlgorithm.RS256, rsa));
        assertTrue(audit.details.get(0).contains(KEYS_URL + ": no complete answer within 3000 ms"),
                audit.details::toString);
        refusedSayingOnlyTheKeySetCouldNotBeUsed(sign(claims().build(), JWSAlgorithm.RS256, rsa));
        assertTrue(audit.details.get(1).contains("not tried again"), audit.details::toString);
        assertEquals(1, fetches.size(), "a failing URL is not asked again within a minute");
    }

    @Test
    void authenticateWhenTheKeySetUrlServesPrivateOrSymmetricKeysThenInvalidClient() throws Exception {
        client = TestClients.privateKeyJwtAt(CLIENT, KEYS_URL);
        served = new JWKSet(rsa).toString(false);
        refusedSayingOnlyTheKeySetCouldNotBeUsed(sign(claims().build(), JWSAlgorithm.RS256, rsa));
        assertTrue(audit.details.get(0).contains("private key material"), audit.details::toString);
    }

    /** The answer is the same whatever happened at the URL: what did goes to the audit trail alone. */
    private void refusedSayingOnlyTheKeySetCouldNotBeUsed(String assertion) {
        assertEquals(ClientAssertionVerifier.KEYS_UNUSABLE, refused(assertion, "").description());
    }

    @Test
    void authenticateWhenAClientWithAnotherMethodSendsAnAssertionThenInvalidClient() throws Exception {
        client = TestClients.withSecretMethod(ClientAuthMethods.CLIENT_SECRET_BASIC, "s3cret");
        String assertion = sign(claims().issuer(client.clientId()).subject(client.clientId()).build(),
                JWSAlgorithm.RS256, rsa);
        refused(assertion, "not private_key_jwt");
    }

    @Test
    void authenticateWhenAPrivateKeyJwtClientSendsASecretThenInvalidClient() {
        OAuthException e = assertThrows(OAuthException.class, () -> authenticator.authenticate(
                ProtocolParameters.fromForm("client_id=" + CLIENT + "&client_secret=anything"), null, "192.0.2.1",
                "/oauth/token"));
        assertEquals(OAuthError.INVALID_CLIENT, e.error());
        assertTrue(e.description().contains("private_key_jwt"), e.description());
    }

    @Test
    void authenticateWhenAnAssertionAndASecretAreSentThenInvalidRequest() throws Exception {
        String form = "client_assertion_type=" + enc(ClientAssertionVerifier.ASSERTION_TYPE) + "&client_assertion="
                + enc(sign(claims().build(), JWSAlgorithm.RS256, rsa)) + "&client_secret=x";
        OAuthException e = assertThrows(OAuthException.class, () -> authenticator.authenticate(
                ProtocolParameters.fromForm(form), null, "192.0.2.1", "/oauth/token"));
        assertEquals(OAuthError.INVALID_REQUEST, e.error());
        OAuthException type = assertThrows(OAuthException.class, () -> authenticator.authenticate(
                ProtocolParameters.fromForm("client_assertion_type=urn%3Aother&client_assertion="
                        + enc(sign(claims().build(), JWSAlgorithm.RS256, rsa))), null, "192.0.2.1", "/oauth/token"));
        assertEquals(OAuthError.INVALID_CLIENT, type.error());
    }

    @Test
    void authenticateWhenASecretMethodIsChosenThenOnlyThatOneIsAccepted() {
        client = TestClients.withSecretMethod(ClientAuthMethods.CLIENT_SECRET_BASIC, "s3cret");
        assertSame(client, authenticator.authenticate(ProtocolParameters.fromForm(""), basic(client.clientId(), "s3cret"),
                "192.0.2.1", "/oauth/token"));
        OAuthException post = assertThrows(OAuthException.class, () -> authenticator.authenticate(
                secretInBody(client.clientId(), "s3cret"), null, "192.0.2.1", "/oauth/token"));
        assertTrue(post.description().contains("client_secret_basic"), post.description());

        client = TestClients.withSecretMethod(ClientAuthMethods.CLIENT_SECRET_POST, "s3cret");
        assertSame(client, authenticator.authenticate(secretInBody(client.clientId(), "s3cret"), null, "192.0.2.1",
                "/oauth/token"));
        OAuthException basic = assertThrows(OAuthException.class, () -> authenticator.authenticate(
                ProtocolParameters.fromForm(""), basic(client.clientId(), "s3cret"), "192.0.2.1", "/oauth/token"));
        assertTrue(basic.description().contains("client_secret_post"), basic.description());

        // registered without a method: either, as before the field existed
        client = TestClients.confidentialWithSecret("s3cret", "openid", "https://app.example.com/cb");
        assertSame(client, authenticator.authenticate(secretInBody(client.clientId(), "s3cret"), null, "192.0.2.1",
                "/oauth/token"));
        assertSame(client, authenticator.authenticate(ProtocolParameters.fromForm(""), basic(client.clientId(), "s3cret"),
                "192.0.2.1", "/oauth/token"));
    }

    @Test
    void authenticateDuringARotationsOverlapThenBothSecretsUntilItEnds() {
        Instant until = clock.instant().plusSeconds(3600);
        client = TestClients.rotated("old", "new", until);
        assertSame(client, authenticator.authenticate(secretInBody(client.clientId(), "new"), null, "192.0.2.1",
                "/oauth/token"));
        assertSame(client, authenticator.authenticate(secretInBody(client.clientId(), "old"), null, "192.0.2.1",
                "/oauth/token"));
        clock.set(until);
        assertThrows(OAuthException.class, () -> authenticator.authenticate(secretInBody(client.clientId(), "old"),
                null, "192.0.2.1", "/oauth/token"));
        assertSame(client, authenticator.authenticate(secretInBody(client.clientId(), "new"), null, "192.0.2.1",
                "/oauth/token"));
    }

    private static ProtocolParameters secretInBody(String clientId, String secret) {
        return ProtocolParameters.fromForm("client_id=" + enc(clientId) + "&client_secret=" + enc(secret));
    }

    private static String basic(String id, String secret) {
        return "Basic " + Base64.getEncoder().encodeToString((enc(id) + ":" + enc(secret))
                .getBytes(StandardCharsets.UTF_8));
    }
}
