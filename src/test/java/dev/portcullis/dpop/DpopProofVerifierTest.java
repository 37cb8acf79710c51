package dev.portcullis.dpop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.crypto.MACSigner;
import com.nimbusds.jose.jwk.Curve;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jose.jwk.gen.ECKeyGenerator;
import com.nimbusds.jose.util.Base64URL;
import com.nimbusds.oauth2.sdk.dpop.DefaultDPoPProofFactory;
import com.nimbusds.oauth2.sdk.id.JWTID;
import com.nimbusds.oauth2.sdk.token.DPoPAccessToken;
import com.nimbusds.openid.connect.sdk.Nonce;
import dev.portcullis.config.DpopSettings;
import dev.portcullis.crypto.EncryptionKeys;
import dev.portcullis.protocol.OAuthError;
import dev.portcullis.protocol.OAuthException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Date;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The checks of a DPoP proof (RFC 9449 4.3), each by the class of proof it refuses, with proofs made by Nimbus'
 * client SDK ({@link DefaultDPoPProofFactory}) wherever it can make them.
 */
class DpopProofVerifierTest {

    private static final Instant NOW = Instant.parse("2026-11-28T10:00:00Z");
    private static final String TOKEN_URL = "https://id.example.com/oauth/token";
    private static final String ACCESS_TOKEN = "eyJhbGciOiJFUzI1NiJ9.e30.c2ln";

    private final Set<String> used = new HashSet<>();
    private final DpopProofJtiRepository jtis = new DpopProofJtiRepository() {
        @Override
        public boolean use(String jkt, String jti, Instant expiresAt) {
            return used.add(jkt + " " + jti);
        }
    };
    private final DpopNonces nonces = DpopNonces.with(new EncryptionKeys(new byte[32], List.of()));
    private final ECKey key;
    private final DefaultDPoPProofFactory factory;

    DpopProofVerifierTest() throws JOSEException {
        key = new ECKeyGenerator(Curve.P_256).generate();
        factory = new DefaultDPoPProofFactory(key, JWSAlgorithm.ES256);
    }

    private DpopProofVerifier verifier(boolean nonceRequired) {
        return DpopProofVerifier.of(new DpopSettings(Duration.ofSeconds(60), nonceRequired), nonces, jtis,
                Clock.fixed(NOW, ZoneOffset.UTC));
    }

    private String proof(String htm, String htu, Instant iat, String accessToken) throws JOSEException {
        return factory.createDPoPJWT(new JWTID(), htm, URI.create(htu), Date.from(iat),
                accessToken == null ? null : new DPoPAccessToken(accessToken)).serialize();
    }

    private String proof() throws JOSEException {
        return proof("POST", TOKEN_URL, NOW, null);
    }

    private DpopRefusal refused(Runnable call) {
        return assertThrows(DpopRefusal.class, call::run);
    }

    private DpopRefusal refusedAtTokenEndpoint(String proof) {
        return refused(() -> verifier(false).verify(List.of(proof), "POST", TOKEN_URL, null, null));
    }

    @Test
    void aValidProofAnswersItsKeysThumbprint() throws JOSEException {
        assertEquals(key.computeThumbprint().toString(),
                verifier(false).verify(List.of(proof()), "POST", TOKEN_URL, null, null));
    }

    @Test
    void htuIsComparedWithoutQueryAndFragmentAfterNormalisation() throws JOSEException {
        String jkt = key.computeThumbprint().toString();
        for (String htu : List.of("https://ID.Example.com:443/oauth/token", "HTTPS://id.example.com/oauth/token")) {
            assertEquals(jkt, verifier(false).verify(List.of(proof("POST", htu, NOW, null)), "POST", TOKEN_URL,
                    null, null), htu);
        }
        // Nimbus' factory will not put a query in htu; the comparison drops one all the same
        assertEquals(TOKEN_URL, DpopProofVerifier.normalized(TOKEN_URL + "?x=1#f"));
        assertEquals("https://id.example.com/", DpopProofVerifier.normalized("https://id.example.com"));
        assertEquals("", DpopProofVerifier.normalized("https://user@id.example.com/oauth/token"));
        assertEquals("", DpopProofVerifier.normalized("/oauth/token"));
    }

    @Test
    void missingOrSeveralProofsAreRefused() throws JOSEException {
        assertEquals(OAuthError.INVALID_DPOP_PROOF, refused(() -> verifier(false).verify(List.of(), "POST",
                TOKEN_URL, null, null)).error());
        String a = proof();
        String b = proof();
        refused(() -> verifier(false).verify(List.of(a, b), "POST", TOKEN_URL, null, null));
        refused(() -> verifier(false).verify(List.of(a + "," + b), "POST", TOKEN_URL, null, null));
        refusedAtTokenEndpoint("not a jwt");
    }

    @Test
    void anotherMethodOrUrlIsRefused() throws JOSEException {
        refusedAtTokenEndpoint(proof("GET", TOKEN_URL, NOW, null));
        refusedAtTokenEndpoint(proof("POST", "https://id.example.com/oauth/userinfo", NOW, null));
        refusedAtTokenEndpoint(proof("POST", "http://id.example.com/oauth/token", NOW, null));
        refusedAtTokenEndpoint(proof("POST", "https://id.example.com:8443/oauth/token", NOW, null));
        refusedAtTokenEndpoint(proof("POST", "https://evil.example/oauth/token", NOW, null));
    }

    @Test
    void aStaleOrFutureIatIsRefused() throws JOSEException {
        refusedAtTokenEndpoint(proof("POST", TOKEN_URL, NOW.minusSeconds(61), null));
        refusedAtTokenEndpoint(proof("POST", TOKEN_URL, NOW.plusSeconds(6), null));
        verifier(false).verify(List.of(proof("POST", TOKEN_URL, NOW.minusSeconds(59), null)), "POST", TOKEN_URL,
                null, null);
    }

    @Test
    void athMustHashTheAccessTokenItIsPresentedWith() throws JOSEException {
        String url = "https://id.example.com/oauth/userinfo";
        String jkt = key.computeThumbprint().toString();
        assertEquals(jkt, verifier(false).verify(List.of(proof("GET", url, NOW, ACCESS_TOKEN)), "GET", url,
                ACCESS_TOKEN, jkt));
        String noAth = proof("GET", url, NOW, null);
        refused(() -> verifier(false).verify(List.of(noAth), "GET", url, ACCESS_TOKEN, jkt));
        String otherAth = proof("GET", url, NOW, ACCESS_TOKEN + "x");
        refused(() -> verifier(false).verify(List.of(otherAth), "GET", url, ACCESS_TOKEN, jkt));
    }

    @Test
    void aProofByAnotherKeyThanTheBoundOneIsRefused() throws JOSEException {
        String other = new ECKeyGenerator(Curve.P_256).generate().computeThumbprint().toString();
        String proof = proof();
        refused(() -> verifier(false).verify(List.of(proof), "POST", TOKEN_URL, null, other));
        assertEquals(Set.of(), used, "a refused proof does not spend its jti");
    }

    @Test
    void aJtiIsAcceptedOnce() throws JOSEException {
        String proof = proof();
        verifier(false).verify(List.of(proof), "POST", TOKEN_URL, null, null);
        assertEquals("The DPoP proof was used before", refusedAtTokenEndpoint(proof).getMessage());
    }

    @Test
    void aSymmetricAlgorithmIsRefused() throws JOSEException {
        String header = "{\"typ\":\"dpop+jwt\",\"alg\":\"HS256\",\"jwk\":" + key.toPublicJWK().toJSONString() + "}";
        String payload = "{\"jti\":\"j1\",\"htm\":\"POST\",\"htu\":\"" + TOKEN_URL + "\",\"iat\":"
                + NOW.getEpochSecond() + "}";
        String input = Base64URL.encode(header) + "." + Base64URL.encode(payload);
        byte[] mac = new MACSigner(new byte[32]).sign(new com.nimbusds.jose.JWSHeader(JWSAlgorithm.HS256),
                input.getBytes(StandardCharsets.US_ASCII)).decode();
        assertEquals("The DPoP proof's alg must be one of ES256 ES384 ES512 PS256 PS384 PS512 RS256 RS384 RS512",
                refusedAtTokenEndpoint(input + "." + Base64URL.encode(mac)).getMessage());
    }

    @Test
    void aPrivateKeyInTheHeaderOrAnotherTypIsRefused() throws JOSEException {
        String payload = "{\"jti\":\"j2\",\"htm\":\"POST\",\"htu\":\"" + TOKEN_URL + "\",\"iat\":"
                + NOW.getEpochSecond() + "}";
        for (String header : List.of(
                "{\"typ\":\"dpop+jwt\",\"alg\":\"ES256\",\"jwk\":" + key.toJSONString() + "}",
                "{\"typ\":\"JWT\",\"alg\":\"ES256\",\"jwk\":" + key.toPublicJWK().toJSONString() + "}")) {
            String input = Base64URL.encode(header) + "." + Base64URL.encode(payload);
            byte[] sig = new com.nimbusds.jose.crypto.ECDSASigner(key).sign(
                    new com.nimbusds.jose.JWSHeader(JWSAlgorithm.ES256), input.getBytes(StandardCharsets.US_ASCII))
                    .decode();
            refusedAtTokenEndpoint(input + "." + Base64URL.encode(sig));
        }
    }

    @Test
    void aSignatureByAnotherKeyThanTheHeadersIsRefused() throws JOSEException {
        ECKey other = new ECKeyGenerator(Curve.P_256).generate();
        String[] parts = proof().split("\\.");
        String[] forged = new DefaultDPoPProofFactory(other, JWSAlgorithm.ES256).createDPoPJWT(new JWTID(), "POST",
                URI.create(TOKEN_URL), Date.from(NOW), null).serialize().split("\\.");
        assertEquals("The DPoP proof's signature is invalid",
                refusedAtTokenEndpoint(parts[0] + "." + forged[1] + "." + forged[2]).getMessage());
    }

    @Test
    void whenNoncesAreRequiredAProofWithoutOneGetsUseDpopNonceThenPassesWithIt() throws JOSEException {
        String first = proof();
        DpopRefusal r = refused(() -> verifier(true).verify(List.of(first), "POST", TOKEN_URL, null, null));
        assertEquals(OAuthError.USE_DPOP_NONCE, r.error());
        OAuthException json = r.atTokenEndpoint();
        assertEquals(400, json.status());
        String nonce = json.dpopNonce();
        assertNotNull(nonce);
        String withNonce = factory.createDPoPJWT(new JWTID(), "POST", URI.create(TOKEN_URL), Date.from(NOW), null,
                new Nonce(nonce)).serialize();
        assertEquals(key.computeThumbprint().toString(),
                verifier(true).verify(List.of(withNonce), "POST", TOKEN_URL, null, null));
        String forged = factory.createDPoPJWT(new JWTID(), "POST", URI.create(TOKEN_URL), Date.from(NOW), null,
                new Nonce(nonce + "x")).serialize();
        assertEquals(OAuthError.USE_DPOP_NONCE, refused(() -> verifier(true).verify(List.of(forged), "POST",
                TOKEN_URL, null, null)).error());
    }

    @Test
    void aNonceLivesItsSlotAndTheNextOnly() {
        String nonce = nonces.current(NOW);
        assertEquals(true, nonces.isValid(nonce, NOW.plusSeconds(DpopNonces.SLOT_SECONDS)));
        assertEquals(false, nonces.isValid(nonce, NOW.plusSeconds(3 * DpopNonces.SLOT_SECONDS)));
        assertEquals(false, DpopNonces.with(new EncryptionKeys(new byte[32], List.of())).isValid(null, NOW));
    }

    @Test
    void atAResourceARefusalIs401WithADpopChallenge() {
        OAuthException e = DpopRefusal.invalid("bad").atResource();
        assertEquals(401, e.status());
        assertEquals("DPoP realm=\"portcullis\", error=\"invalid_dpop_proof\", error_description=\"bad\", "
                + "algs=\"ES256 ES384 ES512 PS256 PS384 PS512 RS256 RS384 RS512\"", e.wwwAuthenticate());
    }
}
