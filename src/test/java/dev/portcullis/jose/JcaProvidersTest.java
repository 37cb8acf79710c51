package dev.portcullis.jose;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.JWSSigner;
import com.nimbusds.jose.JWSVerifier;
import com.nimbusds.jose.crypto.ECDSASigner;
import com.nimbusds.jose.crypto.ECDSAVerifier;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jose.crypto.RSASSAVerifier;
import com.nimbusds.jose.jca.JCAAware;
import com.nimbusds.jose.jwk.JWK;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.security.PrivateKey;
import java.security.Provider;
import java.time.Clock;
import java.util.Locale;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Which provider signs (ACCP by default where its native library loads, the JDK when forced or unavailable), and
 * that whatever signs produces standard signatures a plain JDK verifier accepts.
 */
class JcaProvidersTest {

    /** ACCP 2.5.0's linux-x86_64 jar is a dependency; on this platform the default must pick it. */
    @Test
    void defaultIsAccpOnLinuxX86_64() {
        assumeTrue(System.getProperty("os.name").toLowerCase(Locale.ROOT).contains("linux")
                && System.getProperty("os.arch").equals("amd64"), "ACCP's native library exists for Linux x86-64 only");
        Optional<Provider> p = JcaProviders.resolve(Optional.empty());
        assertEquals(JcaProviders.ACCP, p.map(Provider::getName).orElse("JDK"));
        assertEquals(p, JcaProviders.resolve(Optional.of(JcaProviders.ACCP)));
    }

    @Test
    void jdkForcesTheJdkAndAnUnknownNameFallsBackToIt() {
        assertTrue(JcaProviders.resolve(Optional.of("JDK")).isEmpty());
        assertTrue(JcaProviders.resolve(Optional.of("jdk")).isEmpty());
        assertTrue(JcaProviders.resolve(Optional.of("NoSuchProviderInstalled")).isEmpty());
    }

    @Test
    void defaultProviderSignaturesVerifyWithThePlainJdk() throws Exception {
        SigningKeyService keys = keys(Optional.empty());
        boolean accp = JcaProviders.resolve(Optional.empty()).isPresent();
        for (JWSAlgorithm alg : keys.algorithms()) {
            JWSSigner signer = keys.signingKey(alg).signer();
            assertEquals(accp, isAccpKey(privateKey(signer)), alg + ": the private key is translated once to ACCP");
            assertSignedAndJdkVerified(keys, alg);
        }
    }

    @Test
    void forcedJdkSignsWithJdkKeysAndVerifies() throws Exception {
        SigningKeyService keys = keys(Optional.of("JDK"));
        for (JWSAlgorithm alg : keys.algorithms()) {
            JWSSigner signer = keys.signingKey(alg).signer();
            assertFalse(isAccpKey(privateKey(signer)), alg + ": JDK key");
            assertEquals(null, signer.getJCAContext().getProvider(), "no provider set: the JDK's own");
            assertSignedAndJdkVerified(keys, alg);
        }
    }

    /** The WAR without the ACCP jar (or a server that strips it): JcaProviders still loads and picks the JDK. */
    @Test
    void withoutTheAccpJarTheDefaultFallsBackToTheJdk() throws Exception {
        URL classes = JcaProviders.class.getProtectionDomain().getCodeSource().getLocation();
        URL nimbus = JCAAware.class.getProtectionDomain().getCodeSource().getLocation();
        try (URLClassLoader noAccp = new URLClassLoader(new URL[] {classes, nimbus},
                ClassLoader.getPlatformClassLoader())) {
            Class<?> c = Class.forName(JcaProviders.class.getName(), true, noAccp);
            assertThrows(ClassNotFoundException.class, () -> noAccp.loadClass(
                    "com.amazon.corretto.crypto.provider.AmazonCorrettoCryptoProvider"));
            Method resolve = c.getDeclaredMethod("resolve", Optional.class);
            resolve.setAccessible(true);
            assertEquals(Optional.empty(), resolve.invoke(null, Optional.empty()));
        }
    }

    /** Signs through SigningKeyService's signer; verifies with a Nimbus verifier on the JDK's providers and the JWKS key. */
    private static void assertSignedAndJdkVerified(SigningKeyService keys, JWSAlgorithm alg) throws Exception {
        SigningKeyService.ActiveKey active = keys.signingKey(alg);
        SignedJWT jwt = new SignedJWT(new JWSHeader.Builder(alg).keyID(active.kid()).build(),
                new JWTClaimsSet.Builder().subject("alice").claim("payload", "x".repeat(300)).build());
        jwt.sign(active.signer());
        JWK published = keys.publicJwks().getKeyByKeyId(active.kid());
        JWSVerifier jdk = published instanceof com.nimbusds.jose.jwk.RSAKey ? new RSASSAVerifier(published.toRSAKey())
                : new ECDSAVerifier(published.toECKey());
        SignedJWT received = SignedJWT.parse(jwt.serialize());
        assertTrue(received.verify(jdk), alg + " signature verifies with the JDK");
        // and a tampered payload does not
        String[] parts = jwt.serialize().split("\\.");
        SignedJWT tampered = SignedJWT.parse(parts[0] + "." + new JWTClaimsSet.Builder().subject("mallory").build()
                .toPayload().toBase64URL() + "." + parts[2]);
        assertFalse(tampered.verify(jdk), alg + " tampered token rejected");
    }

    private static PrivateKey privateKey(JWSSigner signer) {
        return signer instanceof RSASSASigner r ? r.getPrivateKey() : ((ECDSASigner) signer).getPrivateKey();
    }

    private static boolean isAccpKey(PrivateKey k) {
        return k.getClass().getName().startsWith("com.amazon.corretto.crypto.provider.");
    }

    private static SigningKeyService keys(Optional<String> providerSetting) {
        SigningKeyService k = new SigningKeyService();
        k.store = new SigningKeyServiceTest.FakeStore();
        new SigningKeyServiceTest.Config() {
            @Override
            Optional<String> jcaProvider() {
                return providerSetting;
            }
        }.wire(k);
        k.clock = Clock.systemUTC();
        k.init();
        return k;
    }
}
