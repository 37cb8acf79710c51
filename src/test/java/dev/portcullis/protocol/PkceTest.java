package dev.portcullis.protocol;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Every PKCE rule: the authorization request's, the token request's and the S256 transformation. */
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

    // authorization request: 2c, 2d, 2e of the authorization endpoint
    // 2c
    @Test
    void publicClientNeedsChallengeConfidentialDoesNot() {
        assertEquals(OAuthError.INVALID_REQUEST, assertThrows(OAuthException.class,
                () -> Pkce.publicClientSendsChallenge(false, Optional.empty())).error());
        assertDoesNotThrow(() -> Pkce.publicClientSendsChallenge(false, Optional.of(RFC_CHALLENGE)));
        assertDoesNotThrow(() -> Pkce.publicClientSendsChallenge(true, Optional.empty()));
    }

    // 2d
    @Test
    void challengeMethodMustBeS256() {
        assertDoesNotThrow(() -> Pkce.challengeMethodIsS256(Optional.of(RFC_CHALLENGE), Optional.of("S256")));
        assertDoesNotThrow(() -> Pkce.challengeMethodIsS256(Optional.empty(), Optional.empty()));
        for (Optional<String> bad : List.of(Optional.of("plain"), Optional.of("s256"), Optional.<String>empty())) {
            assertEquals(OAuthError.INVALID_REQUEST, assertThrows(OAuthException.class,
                    () -> Pkce.challengeMethodIsS256(Optional.of(RFC_CHALLENGE), bad)).error());
        }
        assertEquals(OAuthError.INVALID_REQUEST, assertThrows(OAuthException.class,
                () -> Pkce.challengeMethodIsS256(Optional.empty(), Optional.of("S256"))).error());
    }

    // 2e
    @ParameterizedTest
    @ValueSource(strings = {"E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-c", "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cMx",
            "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw+cM", "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-c="})
    void challengeMustBe43Base64urlCharacters(String challenge) {
        assertEquals(OAuthError.INVALID_REQUEST, assertThrows(OAuthException.class,
                () -> Pkce.challengeIsWellFormed(Optional.of(challenge))).error());
    }

    @Test
    void wellFormedChallengePasses() {
        assertDoesNotThrow(() -> Pkce.challengeIsWellFormed(Optional.of(RFC_CHALLENGE)));
    }

    // token request

    private static final Optional<String> CHALLENGED = Optional.of(RFC_CHALLENGE);
    private static final Optional<String> S256 = Optional.of("S256");
    private static final Optional<String> NONE = Optional.empty();

    @Test
    void malformedVerifierIsInvalidRequest() {
        assertEquals(OAuthError.INVALID_REQUEST, assertThrows(OAuthException.class,
                () -> Pkce.verifierIsWellFormed(Optional.of("short"))).error());
        assertDoesNotThrow(() -> Pkce.verifierIsWellFormed(Optional.empty()));
        assertDoesNotThrow(() -> Pkce.verifierIsWellFormed(Optional.of(RFC_VERIFIER)));
    }

    @Test
    void verifierMatchingTheChallengePasses() {
        assertDoesNotThrow(() -> Pkce.verifierAnswersChallenge(CHALLENGED, S256, Optional.of(RFC_VERIFIER), false));
        assertDoesNotThrow(() -> Pkce.verifierAnswersChallenge(CHALLENGED, S256, Optional.of(RFC_VERIFIER), true));
    }

    @Test
    void challengeWithoutVerifierIsInvalidGrant() {
        OAuthException e = assertThrows(OAuthException.class,
                () -> Pkce.verifierAnswersChallenge(CHALLENGED, S256, Optional.empty(), true));
        assertEquals(OAuthError.INVALID_GRANT, e.error());
        assertTrue(e.description().contains("required"), e.description());
    }

    @Test
    void wrongVerifierIsInvalidGrant() {
        OAuthException e = assertThrows(OAuthException.class,
                () -> Pkce.verifierAnswersChallenge(CHALLENGED, S256, Optional.of("a".repeat(43)), true));
        assertEquals(OAuthError.INVALID_GRANT, e.error());
        assertTrue(e.description().contains("does not match"), e.description());
    }

    @Test
    void verifierWithoutChallengeIsADowngradeAndInvalidGrant() {
        OAuthException e = assertThrows(OAuthException.class,
                () -> Pkce.verifierAnswersChallenge(NONE, NONE, Optional.of(RFC_VERIFIER), true));
        assertEquals(OAuthError.INVALID_GRANT, e.error());
        assertTrue(e.description().contains("no code_challenge"), e.description());
    }

    @Test
    void publicClientWithoutPkceIsInvalidGrantConfidentialClientMayGoWithout() {
        OAuthException e = assertThrows(OAuthException.class,
                () -> Pkce.verifierAnswersChallenge(NONE, NONE, NONE, false));
        assertEquals(OAuthError.INVALID_GRANT, e.error());
        assertTrue(e.description().contains("Public clients must use PKCE"), e.description());
        assertDoesNotThrow(() -> Pkce.verifierAnswersChallenge(NONE, NONE, NONE, true));
    }
}
