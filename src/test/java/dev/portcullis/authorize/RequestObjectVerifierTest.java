package dev.portcullis.authorize;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.JWSSigner;
import com.nimbusds.jose.Payload;
import com.nimbusds.jose.crypto.ECDSASigner;
import com.nimbusds.jose.crypto.ECDSAVerifier;
import com.nimbusds.jose.crypto.MACSigner;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jose.crypto.RSASSAVerifier;
import com.nimbusds.jose.jwk.Curve;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.gen.ECKeyGenerator;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.PlainJWT;
import com.nimbusds.jwt.SignedJWT;
import dev.portcullis.client.Client;
import dev.portcullis.client.TestClients;
import dev.portcullis.config.IssuerSettings;
import dev.portcullis.protocol.OAuthError;
import dev.portcullis.protocol.OAuthException;
import java.net.URI;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Date;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Every rule of a request object, one refusal each, signed with real keys; the key sets are the IT's part. */
class RequestObjectVerifierTest {

    private static final String ISSUER = "https://id.example.com";
    private static final String CLIENT = "pub-1";
    private static final Instant NOW = Instant.parse("2026-11-28T10:00:00Z");

    private static final RSAKey RSA = generate(() -> new RSAKeyGenerator(2048).keyID("r1").generate());
    private static final ECKey EC = generate(() -> new ECKeyGenerator(Curve.P_256).keyID("e1").generate());
    private static final RSAKey OTHER = generate(() -> new RSAKeyGenerator(2048).keyID("r1").generate());

    private final Client client = TestClients.publicClient("openid", "https://spa.example.com/cb");
    private final RequestObjectVerifier verifier = new RequestObjectVerifier();

    RequestObjectVerifierTest() {
        verifier.issuer = new IssuerSettings(URI.create(ISSUER));
        verifier.clock = Clock.fixed(NOW, ZoneOffset.UTC);
        // the client's registered keys: RSA and EC (ClientSignatures selects and fetches them in the server)
        verifier.signatures = (c, jwt) -> {
            try {
                boolean ok = jwt.getHeader().getAlgorithm().equals(JWSAlgorithm.ES256)
                        ? jwt.verify(new ECDSAVerifier(EC.toECPublicKey()))
                        : jwt.verify(new RSASSAVerifier(RSA.toRSAPublicKey()));
                if (!ok) {
                    throw new ClientSignatureCheck.NotSignedByClient("the signature does not verify", null);
                }
            } catch (com.nimbusds.jose.JOSEException e) {
                throw new ClientSignatureCheck.NotSignedByClient("unusable", null);
            }
        };
    }

    interface KeyMaker<K> {
        K make() throws Exception;
    }

    private static <K> K generate(KeyMaker<K> maker) {
        try {
            return maker.make();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static JWTClaimsSet.Builder claims() {
        return new JWTClaimsSet.Builder().issuer(CLIENT).audience(ISSUER).claim("client_id", CLIENT)
                .expirationTime(Date.from(NOW.plusSeconds(300))).jwtID("jti-1")
                .claim("response_type", "code").claim("scope", "openid").claim("state", "s1")
                .claim("redirect_uri", "https://spa.example.com/cb");
    }

    private static String sign(JWTClaimsSet claims, JWSAlgorithm alg, JWSSigner signer) {
        return sign(claims, new JWSHeader.Builder(alg).keyID("r1").build(), signer);
    }

    private static String sign(JWTClaimsSet claims, JWSHeader header, JWSSigner signer) {
        try {
            SignedJWT jwt = new SignedJWT(header, claims);
            jwt.sign(signer);
            return jwt.serialize();
        } catch (com.nimbusds.jose.JOSEException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String rs256(JWTClaimsSet claims) {
        return sign(claims, JWSAlgorithm.RS256, generate(() -> new RSASSASigner(RSA)));
    }

    private void refused(String object, String because) {
        OAuthException e = assertThrows(OAuthException.class, () -> verifier.verify(client, object), because);
        assertEquals(OAuthError.INVALID_REQUEST_OBJECT, e.error(), because);
    }

    @Test
    void aSignedObjectGivesItsParametersAndWhatItsSingleUseNeeds() {
        RequestObject o = verifier.verify(client, rs256(claims().claim("max_age", 600L)
                .claim("resource", List.of("https://a.example", "https://b.example"))
                .claim("claims", Map.of("userinfo", Map.of("email", Map.of("essential", true))))
                .claim("unknown", true).build()));
        assertEquals("s1", o.parameters().get("state").orElseThrow());
        assertEquals("600", o.parameters().get("max_age").orElseThrow());
        assertEquals(List.of("https://a.example", "https://b.example"), o.parameters().all("resource"));
        assertTrue(o.parameters().get("claims").orElseThrow().contains("\"essential\":true"));
        assertEquals(CLIENT, o.parameters().get("client_id").orElseThrow());
        assertTrue(o.parameters().get("iss").isEmpty() && o.parameters().get("unknown").isEmpty());
        assertEquals("jti-1", o.jti());
        assertEquals(NOW.plusSeconds(300), o.expiresAt());

        assertEquals("s1", verifier.verify(client, sign(claims().build(), JWSAlgorithm.PS256,
                generate(() -> new RSASSASigner(RSA)))).parameters().get("state").orElseThrow());
        assertEquals("s1", verifier.verify(client, sign(claims().build(), JWSAlgorithm.ES256,
                generate(() -> new ECDSASigner(EC)))).parameters().get("state").orElseThrow());
        assertNull(verifier.verify(client, rs256(claims().jwtID(null).build())).jti(), "jti is optional");
        verifier.verify(client, sign(claims().build(), new JWSHeader.Builder(JWSAlgorithm.RS256)
                .type(new JOSEObjectType("oauth-authz-req+jwt")).build(), generate(() -> new RSASSASigner(RSA))));
    }

    @Test
    void unsignedHmacAndForeignKeysAreRefused() {
        refused(new PlainJWT(claims().build()).serialize(), "alg none");
        refused(sign(claims().build(), JWSAlgorithm.HS256, generate(() -> new MACSigner(new byte[32]))), "HMAC");
        refused(sign(claims().build(), JWSAlgorithm.RS512, generate(() -> new RSASSASigner(RSA))), "RS512");
        refused(sign(claims().build(), JWSAlgorithm.RS256, generate(() -> new RSASSASigner(OTHER))), "wrong key");
        refused("not.a.jwt", "garbage");
        refused(sign(claims().build(), new JWSHeader.Builder(JWSAlgorithm.RS256).type(new JOSEObjectType("at+jwt"))
                .build(), generate(() -> new RSASSASigner(RSA))), "another kind of JWT");
        refused(sign(claims().build(), new JWSHeader.Builder(JWSAlgorithm.RS256).criticalParams(java.util.Set.of("x"))
                .customParam("x", 1).build(), generate(() -> new RSASSASigner(RSA))), "a critical header");
        String good = rs256(claims().build());
        refused(good.substring(0, good.lastIndexOf('.') + 1) + "AAAA", "a broken signature");
        refused(new SignedJWT(new JWSHeader(JWSAlgorithm.RS256), claims().build()).getHeader().toBase64URL() + "."
                + new Payload("[1]").toBase64URL() + ".AAAA", "a payload that is no object");
    }

    @Test
    void theClaimsAreChecked() {
        refused(rs256(claims().issuer("other").build()), "iss not the client");
        refused(rs256(claims().issuer(null).build()), "no iss");
        refused(rs256(claims().claim("client_id", "other").build()), "client_id mismatch");
        refused(rs256(claims().claim("client_id", null).build()), "no client_id");
        refused(rs256(claims().audience("https://evil.example").build()), "wrong aud");
        refused(rs256(claims().audience(List.of(ISSUER, "https://evil.example")).build()), "aud among others");
        refused(rs256(claims().audience((String) null).build()), "no aud");
        refused(rs256(claims().expirationTime(null).build()), "no exp");
        refused(rs256(claims().expirationTime(Date.from(NOW.minusSeconds(31))).build()), "expired");
        refused(rs256(claims().expirationTime(Date.from(NOW.plusSeconds(3631))).build()), "too long a lifetime");
        refused(rs256(claims().notBeforeTime(Date.from(NOW.plusSeconds(31))).build()), "nbf in the future");
        refused(rs256(claims().notBeforeTime(Date.from(NOW.minusSeconds(3631))).build()), "nbf long past");
        refused(rs256(claims().issueTime(Date.from(NOW.plusSeconds(31))).build()), "iat in the future");
        refused(rs256(claims().jwtID("x".repeat(257)).build()), "jti too long");
        // within the skew
        verifier.verify(client, rs256(claims().expirationTime(Date.from(NOW.minusSeconds(29)))
                .notBeforeTime(Date.from(NOW.plusSeconds(29))).issueTime(Date.from(NOW.plusSeconds(29))).build()));
    }

    @Test
    void theParametersMustBeWhatAQueryCouldCarry() {
        refused(rs256(claims().claim("request", "x").build()), "a request inside");
        refused(rs256(claims().claim("request_uri", "urn:x").build()), "a request_uri inside");
        refused(rs256(claims().claim("state", true).build()), "a boolean parameter");
        refused(rs256(claims().claim("state", Map.of("a", "b")).build()), "an object parameter");
        refused(rs256(claims().claim("max_age", -1L).build()), "a negative number");
        refused(rs256(claims().claim("state", "a\u0001").build()), "a control character");
        refused(rs256(claims().claim("nonce", "n".repeat(5000)).build()), "too long");
    }
}
