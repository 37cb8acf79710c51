package dev.portcullis.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class AuthMethodsTest {

    @Test
    void twoKindsOfFactorAreMultiFactor() {
        assertFalse(AuthMethods.isMultiFactor("pwd"));
        assertFalse(AuthMethods.isMultiFactor("otp"));
        assertFalse(AuthMethods.isMultiFactor("otp hwk"), "two things held are one kind of factor");
        assertTrue(AuthMethods.isMultiFactor("pwd otp"));
        assertTrue(AuthMethods.isMultiFactor("pwd hwk"));
        assertTrue(AuthMethods.isMultiFactor("hwk user"), "a user-verifying passkey");
        assertFalse(AuthMethods.isMultiFactor("pwd mfa"), "stored values never claim mfa themselves");
    }

    @Test
    void claimAddsMfaAndAcrFollows() {
        assertEquals(List.of("pwd"), AuthMethods.claim("pwd"));
        assertEquals(List.of("pwd", "otp", "mfa"), AuthMethods.claim("pwd otp"));
        assertEquals(AuthMethods.ACR_PWD, AuthMethods.acr("pwd"));
        assertEquals(AuthMethods.ACR_MFA, AuthMethods.acr("pwd otp"));
        assertEquals("pwd otp", AuthMethods.with("pwd", "otp", "pwd"));
        assertEquals("pwd otp", AuthMethods.with("pwd otp bogus", "otp"));
    }

    @Test
    void onlyTheMfaLevelAsksForMore() {
        assertTrue(AuthMethods.asksForMultiFactor(List.of("urn:other", AuthMethods.ACR_MFA)));
        assertFalse(AuthMethods.asksForMultiFactor(List.of(AuthMethods.ACR_PWD)));
        assertFalse(AuthMethods.asksForMultiFactor(List.of()));
    }
}
