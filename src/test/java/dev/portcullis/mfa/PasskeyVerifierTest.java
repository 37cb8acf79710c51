package dev.portcullis.mfa;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.portcullis.testing.SoftAuthenticator;
import java.net.URI;
import java.security.SecureRandom;
import java.util.Base64;
import org.junit.jupiter.api.Test;

/**
 * {@link PasskeyVerifier} against a software authenticator written here (P-256 key, attestation {@code none}, the
 * JSON a browser's {@code PublicKeyCredential} turns into): registration, assertions, the sign-count check, origin,
 * RP ID, user verification and malformed input.
 */
class PasskeyVerifierTest {

    private static final URI ISSUER = URI.create("https://login.example.com");
    private static final String ORIGIN = "https://login.example.com";

    private final PasskeyVerifier verifier = new PasskeyVerifier(ISSUER);

    @Test
    void registrationThenAssertionsWithARisingCountAreAccepted() throws Exception {
        SoftAuthenticator a = new SoftAuthenticator("login.example.com");
        String challenge = challenge();
        PasskeyVerifier.Registration r = verifier.parseRegistration(a.create(challenge, ORIGIN));
        assertEquals(challenge, r.challenge());
        PasskeyVerifier.NewCredential c = verifier.verifyRegistration(r);
        assertEquals(a.credentialId(), c.credentialId());
        assertEquals(0, c.signCount());

        String next = challenge();
        PasskeyVerifier.Assertion first = verifier.parseAssertion(a.get(next, ORIGIN, 1, true));
        assertEquals(a.credentialId(), first.credentialId());
        assertEquals(next, first.challenge());
        PasskeyVerifier.Verified v = verifier.verifyAssertion(first, c.publicKey(), 0, true);
        assertEquals(1, v.signCount());
        assertTrue(v.userVerified());
        assertEquals(2, verifier.verifyAssertion(verifier.parseAssertion(a.get(challenge(), ORIGIN, 2, false)),
                c.publicKey(), 1, false).signCount());
    }

    @Test
    void assertionWhenSignCountDoesNotIncreaseThenRefusedAsCloned() throws Exception {
        SoftAuthenticator a = new SoftAuthenticator("login.example.com");
        String key = verifier.verifyRegistration(verifier.parseRegistration(a.create(challenge(), ORIGIN))).publicKey();
        for (long presented : new long[] {5, 4}) {
            PasskeyVerifier.Rejected e = assertThrows(PasskeyVerifier.Rejected.class, () -> verifier.verifyAssertion(
                    verifier.parseAssertion(a.get(challenge(), ORIGIN, presented, true)), key, 5, false));
            assertTrue(e.signCountRegressed(), e.getMessage());
        }
        // an authenticator that does not count (always 0) is accepted while the stored count is 0 too
        assertEquals(0, verifier.verifyAssertion(verifier.parseAssertion(a.get(challenge(), ORIGIN, 0, true)),
                key, 0, false).signCount());
    }

    @Test
    void assertionWhenSignedByAnotherKeyOrForAnotherSiteThenRefused() throws Exception {
        SoftAuthenticator a = new SoftAuthenticator("login.example.com");
        String key = verifier.verifyRegistration(verifier.parseRegistration(a.create(challenge(), ORIGIN))).publicKey();
        SoftAuthenticator other = new SoftAuthenticator("login.example.com");
        assertRejected(() -> verifier.verifyAssertion(verifier.parseAssertion(other.get(challenge(), ORIGIN, 1, true)),
                key, 0, false));
        assertRejected(() -> verifier.verifyAssertion(verifier.parseAssertion(a.get(challenge(),
                "https://evil.example.net", 1, true)), key, 0, false));
        SoftAuthenticator phished = new SoftAuthenticator("evil.example.net");
        assertRejected(() -> verifier.verifyRegistration(verifier.parseRegistration(phished.create(challenge(),
                ORIGIN))));
        assertRejected(() -> verifier.verifyAssertion(verifier.parseAssertion(a.get(challenge(), ORIGIN, 1, false)),
                key, 0, true));
    }

    @Test
    void malformedInputIsRejectedNeverThrownThrough() {
        String ok = Base64.getUrlEncoder().withoutPadding().encodeToString(new byte[32]);
        for (String json : new String[] {null, "", "{", "[]", "null", "42", "{\"id\":1}", "{\"id\":\"" + ok + "\"}",
                "{\"id\":\"%%%\",\"rawId\":\"%%%\",\"type\":\"public-key\",\"response\":{\"clientDataJSON\":\"%%%\"}}",
                "{\"id\":\"" + ok + "\",\"rawId\":\"" + ok + "\",\"type\":\"public-key\",\"response\":"
                        + "{\"clientDataJSON\":\"" + ok + "\",\"authenticatorData\":\"" + ok + "\",\"signature\":\""
                        + ok + "\"},\"clientExtensionResults\":{}}",
                "{\"id\":[],\"rawId\":{},\"type\":7,\"response\":\"x\"}", "x".repeat(PasskeyVerifier.MAX_JSON + 1)}) {
            assertRejected(() -> verifier.parseRegistration(json));
            assertRejected(() -> verifier.parseAssertion(json));
        }
    }

    private static void assertRejected(org.junit.jupiter.api.function.Executable e) {
        assertThrows(PasskeyVerifier.Rejected.class, e);
    }

    private static String challenge() {
        byte[] b = new byte[32];
        new SecureRandom().nextBytes(b);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(b);
    }


    @Test
    void rpIdIsTheIssuersHostAndOriginItsOrigin() {
        assertEquals("login.example.com", verifier.rpId());
        assertFalse(new PasskeyVerifier(URI.create("http://localhost:8080")).rpId().contains(":"));
        assertEquals("http://localhost:8080", PasskeyVerifier.origin(URI.create("http://localhost:8080")));
        assertEquals("https://login.example.com", PasskeyVerifier.origin(URI.create("https://login.example.com:443/")));
        assertEquals("https://login.example.com:8443", PasskeyVerifier.origin(URI.create("https://login.example.com:8443/idp")));
    }
}
