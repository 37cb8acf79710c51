package dev.portcullis.discovery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.crypto.RSASSAVerifier;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jwt.SignedJWT;
import com.nimbusds.oauth2.sdk.id.ClientID;
import com.nimbusds.oauth2.sdk.id.Issuer;
import com.nimbusds.openid.connect.sdk.validators.IDTokenValidator;
import dev.portcullis.testing.Db;
import dev.portcullis.testing.Http;
import dev.portcullis.token.TokenEndpointTestBase;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The discovery document and the JWKS as a relying party reads them, and signing-key rotation through the admin API:
 * a new key is published before it signs, and the old one stays published.
 */
class DiscoveryAndKeysIT extends TokenEndpointTestBase {

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
        assertEquals(List.of("client_secret_basic", "client_secret_post", "private_key_jwt", "none"),
                d.get("token_endpoint_auth_methods_supported"));
        assertEquals(d.get("token_endpoint_auth_methods_supported"), d.get("revocation_endpoint_auth_methods_supported"));
        assertEquals(List.of("client_secret_basic", "client_secret_post", "private_key_jwt"),
                d.get("introspection_endpoint_auth_methods_supported"));
        for (String endpoint : List.of("token", "revocation", "introspection")) {
            assertEquals(List.of("RS256", "PS256", "ES256"), d.get(endpoint + "_endpoint_auth_signing_alg_values_supported"),
                    endpoint);
        }
        assertEquals(List.of("RS256"), d.get("id_token_signing_alg_values_supported"));
        assertEquals(true, d.get("authorization_response_iss_parameter_supported"));
        assertEquals(true, d.get("request_parameter_supported"));
        assertEquals(List.of("RS256", "PS256", "ES256"), d.get("request_object_signing_alg_values_supported"));
        assertEquals(false, d.get("require_signed_request_object"));
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
        // a key pair of its own for PS256, never the RS256 key under another name
        RSAKey ps = (RSAKey) set.getKeys().stream().filter(k -> JWSAlgorithm.PS256.equals(k.getAlgorithm()))
                .findFirst().orElseThrow();
        assertTrue(set.getKeys().stream().filter(k -> JWSAlgorithm.RS256.equals(k.getAlgorithm()))
                .noneMatch(k -> ((RSAKey) k).getModulus().equals(ps.getModulus())));
        set.getKeys().forEach(k -> assertFalse(k.isPrivate()));
    }

    @Test
    void keyRotationPublishesTheNewKeyBeforeItSignsAndKeepsTheOldOnePublished() throws Exception {
        String oldKid = SignedJWT.parse(confidentialJsonRequest(confidentialCode("openid", null)).jsonString("id_token"))
                .getHeader().getKeyID();

        Http.Res scheduled = admin.post("/admin/keys/rotate", "{\"alg\":\"RS256\",\"activation_delay_seconds\":3600}");
        assertEquals(200, scheduled.status(), scheduled::toString);
        String pendingKid = (String) ((Map<?, ?>) ((List<?>) scheduled.json().get("keys")).get(0)).get("kid");
        assertNotNull(jwks().getKeyByKeyId(pendingKid), "published at once");
        assertEquals(oldKid, SignedJWT.parse(confidentialJsonRequest(confidentialCode("openid", null)).jsonString("id_token"))
                .getHeader().getKeyID(), "the new key does not sign before its activation time");

        Http.Res immediate = admin.post("/admin/keys/rotate", "{\"alg\":\"RS256\",\"activation_delay_seconds\":0}");
        assertEquals(200, immediate.status(), immediate::toString);
        String newKid = (String) ((Map<?, ?>) ((List<?>) immediate.json().get("keys")).get(0)).get("kid");
        Http.Res r = confidentialJsonRequest(confidentialCode("openid", null));
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
}
