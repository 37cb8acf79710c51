package dev.portcullis.authorize;

import java.time.Instant;
import java.util.Optional;
import java.util.Set;

/** Authorization codes for plain unit tests (the row constructor is package-private). */
public final class TestCodes {

    private TestCodes() {
    }

    /** A stored code as the token endpoint finds it; null challenge, redemption or grant mean "none". */
    public static AuthorizationCode code(String clientId, String redirectUri, boolean redirectUriGiven,
                                         String codeChallenge, Instant expiresAt, boolean redeemed, String grantId) {
        return new AuthorizationCode("code-id", "secret-hash", clientId, "user-1", redirectUri, redirectUriGiven,
                "openid profile", Optional.of("n-1"), Optional.ofNullable(codeChallenge),
                Optional.ofNullable(codeChallenge == null ? null : "S256"), expiresAt.minusSeconds(600),
                Optional.empty(), expiresAt.minusSeconds(60), expiresAt, redeemed ? expiresAt.minusSeconds(30) : null,
                Optional.ofNullable(grantId), Set.of("pwd"));
    }
}
