package dev.portcullis.token;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class PkceTest {

    private static final String RFC_VERIFIER = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk";
    private static final String RFC_CHALLENGE = "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM";

    @Test
    void rfc7636AppendixBVector() {
        assertEquals(RFC_CHALLENGE, Pkce.s256Challenge(RFC_VERIFIER));
        assertTrue(Pkce.matches(RFC_VERIFIER, RFC_CHALLENGE, "S256"));
    }

    @Test
    void wrongVerifierOrMethodDoesNotMatch() {
        assertFalse(Pkce.matches(RFC_VERIFIER.replace('d', 'e'), RFC_CHALLENGE, "S256"));
        assertFalse(Pkce.matches(RFC_VERIFIER, RFC_CHALLENGE, "plain"));
        assertFalse(Pkce.matches(RFC_VERIFIER, RFC_VERIFIER, "plain"), "plain is never accepted");
        assertFalse(Pkce.matches(RFC_VERIFIER, null, "S256"));
    }

    @Test
    void verifierLengthBounds() {
        assertTrue(Pkce.isWellFormedVerifier("a".repeat(43)));
        assertTrue(Pkce.isWellFormedVerifier("a".repeat(128)));
        assertFalse(Pkce.isWellFormedVerifier("a".repeat(42)));
        assertFalse(Pkce.isWellFormedVerifier("a".repeat(129)));
        assertTrue(Pkce.isWellFormedVerifier("AZaz09-._~".repeat(5)));
    }

    @ParameterizedTest
    @ValueSource(strings = {"+", "/", "=", " ", "%", "é", "!", "*"})
    void verifierCharacterSet(String bad) {
        assertFalse(Pkce.isWellFormedVerifier("a".repeat(50) + bad));
    }
}
