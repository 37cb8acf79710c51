package dev.portcullis.authorize;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.portcullis.session.AuthMethods;
import java.time.Instant;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** {@link AuthorizationCode.CodeRequest.Builder}: each field lands where named; a needed one cannot be left out. */
class CodeRequestTest {

    private static final Instant SIGNED_IN = Instant.parse("2026-01-31T12:00:00Z");

    private static AuthorizationCode.CodeRequest.Builder complete() {
        return AuthorizationCode.CodeRequest.builder().clientId("app").userId("u1").redirectUri("https://a/cb")
                .redirectUriGiven(true).scope("openid profile").nonce("n-1").codeChallenge("challenge")
                .codeChallengeMethod("S256").authTime(SIGNED_IN).sessionHash("session-hash")
                .amr(AuthMethods.of("pwd", "otp"));
    }

    @Test
    void eachFieldByName() {
        assertEquals(new AuthorizationCode.CodeRequest("app", "u1", "https://a/cb", true, "openid profile", "n-1",
                "challenge", "S256", SIGNED_IN, "session-hash", AuthMethods.of("pwd", "otp"), java.util.List.of(),
                null),
                complete().build());
        assertEquals(new AuthorizationCode.CodeRequest("app", "u1", "https://a/cb", false, "openid", null, null, null,
                        SIGNED_IN, null, Set.of("pwd"), java.util.List.of(), null),
                AuthorizationCode.CodeRequest.builder().clientId("app").userId("u1").redirectUri("https://a/cb")
                        .scope("openid").authTime(SIGNED_IN).amr(Set.of("pwd")).build(),
                "the optional fields stay null");
    }

    @Test
    void aNeededFieldLeftOutIsRefused() {
        assertEquals("clientId", assertThrows(NullPointerException.class,
                () -> complete().clientId(null).build()).getMessage());
        assertEquals("authTime", assertThrows(NullPointerException.class,
                () -> complete().authTime(null).build()).getMessage());
        assertEquals("amr", assertThrows(NullPointerException.class, () -> complete().amr(null).build()).getMessage());
    }
}
