package dev.portcullis.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.nimbusds.jose.jwk.Curve;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.gen.ECKeyGenerator;
import com.nimbusds.jose.jwk.gen.OctetSequenceKeyGenerator;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import dev.portcullis.admin.Refusal;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Which key sets and key set URLs a private_key_jwt client may register, and which method goes with which type. */
class ClientJwksRulesTest {

    @Test
    void checkJwksWhenPublicRsaAndP256KeysThenStoredWithoutAnythingElse() throws Exception {
        RSAKey rsa = new RSAKeyGenerator(2048).keyID("a").generate();
        String stored = ClientJwksRules.checkJwks(new JWKSet(java.util.List.of(rsa.toPublicJWK(),
                new ECKeyGenerator(Curve.P_256).keyID("b").generate().toPublicJWK())).toString());
        assertEquals(2, JWKSet.parse(stored).getKeys().size());
        assertFalse(stored.contains("\"d\""));
    }

    @Test
    void checkJwksWhenPrivateSymmetricWeakOrOtherCurveKeysThenRefused() throws Exception {
        refused(new JWKSet(new RSAKeyGenerator(2048).generate()).toString(false), "private");
        refused(new JWKSet(new OctetSequenceKeyGenerator(256).generate()).toString(false), "symmetric");
        refused(new JWKSet(new RSAKeyGenerator(1024, true).generate().toPublicJWK()).toString(), "2048");
        refused(new JWKSet(new ECKeyGenerator(Curve.P_384).generate().toPublicJWK()).toString(), "P-256");
        refused("{\"keys\":[{\"kty\":\"OKP\",\"crv\":\"Ed25519\",\"x\":\"11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo\"}]}",
                "OKP");
        refused("{\"keys\":[]}", "1 to");
        refused("not json", "not a JWK set");
        RSAKey one = new RSAKeyGenerator(2048).keyID("same").generate();
        RSAKey two = new RSAKeyGenerator(2048).keyID("same").generate();
        refused(new JWKSet(java.util.List.of(one.toPublicJWK(), two.toPublicJWK())).toString(), "two keys");
    }

    private static void refused(String jwks, String why) {
        Refusal e = assertThrows(Refusal.class, () -> ClientJwksRules.checkJwks(jwks));
        assertTrue(e.getMessage().startsWith("jwks: ") && e.getMessage().contains(why), e.getMessage());
    }

    @ParameterizedTest
    @ValueSource(strings = {"https://keys.example.com/jwks.json", "http://127.0.0.1:8081/jwks", "http://localhost/k"})
    void checkJwksUriWhenHttpsOrLoopbackHttpThenAccepted(String uri) {
        assertEquals(uri, ClientJwksRules.checkJwksUri(uri));
    }

    @ParameterizedTest
    @ValueSource(strings = {"http://keys.example.com/jwks", "ftp://keys.example.com/jwks", "/relative",
        "https://user:pw@keys.example.com/jwks", "https://keys.example.com/jwks#frag", "https://keys .example.com"})
    void checkJwksUriWhenPlainHttpElsewhereOrMalformedThenRefused(String uri) {
        Refusal e = assertThrows(Refusal.class, () -> ClientJwksRules.checkJwksUri(uri));
        assertTrue(e.getMessage().startsWith("jwks_uri: "), e.getMessage());
    }

    @Test
    void checkMethodAgainstTheType() {
        assertEquals("private_key_jwt", ClientAuthMethods.check("private_key_jwt", true));
        assertEquals("none", ClientAuthMethods.check("none", false));
        assertThrows(Refusal.class, () -> ClientAuthMethods.check("none", true));
        assertThrows(Refusal.class, () -> ClientAuthMethods.check("client_secret_basic", false));
        assertThrows(Refusal.class, () -> ClientAuthMethods.check("client_secret_jwt", true));
    }
}
