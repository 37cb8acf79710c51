package dev.portcullis.config;

import java.time.Duration;

/**
 * Lifetimes and form of what the token path issues: authorization codes, access tokens ({@code alg}, {@code aud})
 * and refresh tokens. {@code refreshTokenMaxLifetime} is how long a refresh-token family (one sign-in's grant) lives
 * in all, however often it is refreshed, counted from the code redemption that created it.
 */
public record TokenSettings(Duration codeTtl, Duration accessTokenTtl, Duration refreshTokenTtl,
                            Duration refreshTokenMaxLifetime, String accessTokenAlg, String accessTokenAudience) {

    /** Reads the token settings; the audience defaults to {@code <issuer>/api}. */
    static TokenSettings load(PortcullisConfig.Source c, IssuerSettings issuer) {
        Duration codeTtl = PortcullisConfig.seconds(c, "portcullis.code.ttl", 60, 1, 600);
        Duration accessTokenTtl = PortcullisConfig.seconds(c, "portcullis.access-token.ttl", 3600, 1, 86_400);
        Duration refreshTokenTtl = PortcullisConfig.seconds(c, "portcullis.refresh-token.ttl", 2_592_000, 1,
                31_536_000);
        Duration refreshTokenMaxLifetime = PortcullisConfig.seconds(c, "portcullis.refresh-token.max-lifetime",
                7_776_000, 60, 315_360_000);
        PortcullisConfig.require(refreshTokenTtl.compareTo(refreshTokenMaxLifetime) <= 0,
                "portcullis.refresh-token.ttl", "must not exceed portcullis.refresh-token.max-lifetime");
        // RFC 9068 allows any JWS algorithm: ES256 (default, cheaper to sign) or RS256
        String accessTokenAlg = c.getOptionalValue("portcullis.access-token.alg").map(String::trim)
                .filter(s -> !s.isEmpty()).orElse("ES256");
        PortcullisConfig.require(accessTokenAlg.equals("ES256") || accessTokenAlg.equals("RS256"),
                "portcullis.access-token.alg", "must be ES256 or RS256, got '" + accessTokenAlg + "'");
        String accessTokenAudience = c.getOptionalValue("portcullis.access-token.audience").map(String::trim)
                .filter(s -> !s.isEmpty()).orElse(issuer.issuer() + "/api");
        return new TokenSettings(codeTtl, accessTokenTtl, refreshTokenTtl, refreshTokenMaxLifetime, accessTokenAlg,
                accessTokenAudience);
    }
}
