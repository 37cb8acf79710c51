package dev.portcullis.authorize;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.portcullis.client.TestClients;
import dev.portcullis.config.SecondFactorSettings;
import dev.portcullis.protocol.ProtocolParameters;
import dev.portcullis.session.AuthMethods;
import dev.portcullis.session.SsoSession;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** When {@link AuthorizationFlow} asks for a second factor: the global policy, the client, acr_values. */
class SecondFactorPolicyTest {

    private static final String QUERY = "client_id=pub-1&redirect_uri=https%3A%2F%2Fapp.example%2Fcb"
            + "&response_type=code&scope=openid&code_challenge=E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM"
            + "&code_challenge_method=S256";

    private static AuthorizationFlow flow(SecondFactorSettings.MfaRequired policy) {
        AuthorizationFlow f = new AuthorizationFlow();
        f.secondFactorSettings = new SecondFactorSettings(policy, false);
        return f;
    }

    private static AuthorizationRequest request(String extra) {
        return AuthorizationRequestValidator.validate(ProtocolParameters.fromForm(QUERY + extra),
                id -> Optional.of(TestClients.publicClient("openid", "https://app.example/cb")),
                AuthorizationRequestValidatorTest.NO_APIS, "ES256");
    }

    private static SsoSession session(String amr, boolean enrolled) {
        Instant t = Instant.EPOCH;
        return new SsoSession("h", "u", t, t, t, t, null, "s", null, Set.of(), AuthMethods.of(amr.split(" ")),
                enrolled, null, null);
    }

    @Test
    void policyOffAsksOnlyWhenTheRequestDoesAndTheUserCanAnswer() {
        AuthorizationFlow f = flow(SecondFactorSettings.MfaRequired.OFF);
        AuthorizationRequest plain = request("");
        AuthorizationRequest mfa = request("&acr_values=" + AuthMethods.ACR_MFA);
        assertEquals(List.of(AuthMethods.ACR_MFA), mfa.acrValues());
        assertFalse(f.needsSecondFactor(plain, session("pwd", true)));
        assertTrue(f.needsSecondFactor(mfa, session("pwd", true)), "a step-up");
        assertFalse(f.needsSecondFactor(mfa, session("pwd", false)), "acr_values is voluntary without a factor");
        assertFalse(f.needsSecondFactor(mfa, session("pwd otp", true)), "the session has it already");
        assertTrue(f.secondFactorOwed(session("pwd", false), true), "a client that requires it: enrol");
    }

    @Test
    void policyEnrolledAsksEveryoneWithAFactor() {
        AuthorizationFlow f = flow(SecondFactorSettings.MfaRequired.ENROLLED);
        assertTrue(f.needsSecondFactor(request(""), session("pwd", true)));
        assertFalse(f.needsSecondFactor(request(""), session("pwd", false)));
        assertFalse(f.needsSecondFactor(request(""), session("pwd otp", true)));
    }

    @Test
    void policyEveryoneAsksEveryone() {
        AuthorizationFlow f = flow(SecondFactorSettings.MfaRequired.EVERYONE);
        assertTrue(f.needsSecondFactor(request(""), session("pwd", false)), "enrolment at this sign-in");
        assertTrue(f.secondFactorOwed(session("pwd", false), false));
        assertFalse(f.secondFactorOwed(session("pwd otp", false), false));
    }
}
