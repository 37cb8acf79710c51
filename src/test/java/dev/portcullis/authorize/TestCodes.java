package dev.portcullis.authorize;

import java.time.Instant;

/** Authorization codes for plain unit tests (the row constructor is package-private). */
public final class TestCodes {

    private TestCodes() {
    }

    /** A stored code as the token endpoint finds it; null challenge, redemption or grant mean "none". */
    public static AuthorizationCode code(String clientId, String redirectUri, boolean redirectUriGiven,
                                         String codeChallenge, Instant expiresAt, boolean redeemed, String grantId) {
        return new AuthorizationCode("code-id", "secret-hash", clientId, "user-1", redirectUri, redirectUriGiven,
                "openid profile", "n-1", codeChallenge, codeChallenge == null ? null : "S256",
                expiresAt.getEpochSecond() - 600, null, expiresAt.getEpochSecond() - 60, expiresAt.getEpochSecond(),
                redeemed ? expiresAt.getEpochSecond() - 30 : null, grantId);
    }
}
