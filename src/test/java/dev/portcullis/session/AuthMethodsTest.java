package dev.portcullis.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class AuthMethodsTest {

    @Test
    void twoKindsOfFactorAreMultiFactor() {
        assertFalse(AuthMethods.isMultiFactor(AuthMethods.of("pwd")));
        assertFalse(AuthMethods.isMultiFactor(AuthMethods.of("otp")));
        assertFalse(AuthMethods.isMultiFactor(AuthMethods.of("otp", "hwk")),
                "two things held are one kind of factor");
        assertTrue(AuthMethods.isMultiFactor(AuthMethods.of("pwd", "otp")));
        assertTrue(AuthMethods.isMultiFactor(AuthMethods.of("pwd", "hwk")));
        assertTrue(AuthMethods.isMultiFactor(AuthMethods.of("hwk", "user")), "a user-verifying passkey");
        assertFalse(AuthMethods.isMultiFactor(AuthMethods.of("pwd", "mfa")),
                "stored values never claim mfa themselves");
    }

    @Test
    void claimAddsMfaAndAcrFollows() {
        assertEquals(List.of("pwd"), AuthMethods.claim(AuthMethods.of("pwd")));
        assertEquals(List.of("pwd", "otp", "mfa"), AuthMethods.claim(AuthMethods.of("pwd", "otp")));
        assertEquals(AuthMethods.ACR_PWD, AuthMethods.acr(AuthMethods.of("pwd")));
        assertEquals(AuthMethods.ACR_MFA, AuthMethods.acr(AuthMethods.of("pwd", "otp")));
        assertEquals(List.of("pwd", "otp"), List.copyOf(AuthMethods.with(AuthMethods.of("pwd"), "otp", "pwd")));
        assertEquals(List.of("pwd", "otp"),
                List.copyOf(AuthMethods.with(AuthMethods.of("pwd", "otp", "bogus"), "otp")));
        assertEquals(List.of("hwk", "otp"), List.copyOf(AuthMethods.with(AuthMethods.of("hwk"), "otp")),
                "in the order given");
        assertEquals(List.of("pwd", "hwk", "otp", "mfa"), AuthMethods.claim(AuthMethods.of("pwd", "hwk", "otp")));
    }

    @Test
    void onlyTheMfaLevelAsksForMore() {
        assertTrue(AuthMethods.asksForMultiFactor(List.of("urn:other", AuthMethods.ACR_MFA)));
        assertFalse(AuthMethods.asksForMultiFactor(List.of(AuthMethods.ACR_PWD)));
        assertFalse(AuthMethods.asksForMultiFactor(List.of()));
    }

    @Test
    void kerberosIsOneFactorOfWhatTheUserKnows() {
        assertEquals(List.of("wia"), AuthMethods.claim(AuthMethods.of("wia")));
        assertEquals(AuthMethods.ACR_PWD, AuthMethods.acr(AuthMethods.of("wia")));
        assertFalse(AuthMethods.isMultiFactor(AuthMethods.of("wia", "pwd")));
        assertEquals(List.of("wia", "otp", "mfa"), AuthMethods.claim(AuthMethods.of("wia", "otp")));
        assertEquals(AuthMethods.ACR_MFA, AuthMethods.acr(AuthMethods.of("wia", "hwk")));
    }
}
