package dev.portcullis.config;

import java.time.Duration;
import java.util.List;

/**
 * Lifetimes and form of what the token path issues: authorization codes, access tokens (signing algorithm,
 * {@code aud}) and refresh tokens. {@code refreshTokenMaxLifetime} is how long a refresh-token family (one sign-in's
 * grant) lives in all, however often it is refreshed, counted from the code redemption that created it.
 * {@code accessTokenSigningAlg} is the JWS algorithm name (one of {@link #SIGNING_ALGS}) of every access token whose
 * API names no algorithm of its own.
 */
public record TokenSettings(Duration codeTtl, Duration accessTokenTtl, Duration refreshTokenTtl,
                            Duration refreshTokenMaxLifetime, String accessTokenSigningAlg,
                            String accessTokenAudience) {

    /** The access-token signing algorithms an operator may choose; ID tokens are always RS256. */
    public static final List<String> SIGNING_ALGS = List.of("RS256", "PS256", "ES256");

    static final String SIGNING_ALG_KEY = "portcullis.access-token.signing-alg";
    /** The earlier name of {@link #SIGNING_ALG_KEY}: set, it stops the start instead of being ignored. */
    static final String RETIRED_ALG_KEY = "portcullis.access-token.alg";

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
        // the operator who set the old key chose an algorithm: starting with the default would silently change it
        PortcullisConfig.require(c.getOptionalValue(RETIRED_ALG_KEY).map(String::trim).filter(s -> !s.isEmpty())
                .isEmpty(), RETIRED_ALG_KEY,
                "is not read any more; set " + SIGNING_ALG_KEY + " (" + ConfigurationException.envName(SIGNING_ALG_KEY)
                        + ") to one of " + String.join(", ", SIGNING_ALGS) + " and remove this one");
        // RS256 by default: what MicroProfile JWT Auth and Spring's resource server accept without configuration
        String accessTokenSigningAlg = c.getOptionalValue(SIGNING_ALG_KEY).map(String::trim)
                .filter(s -> !s.isEmpty()).orElse("RS256");
        PortcullisConfig.require(SIGNING_ALGS.contains(accessTokenSigningAlg), SIGNING_ALG_KEY,
                "must be one of " + String.join(", ", SIGNING_ALGS) + ", got '" + accessTokenSigningAlg + "'");
        String accessTokenAudience = c.getOptionalValue("portcullis.access-token.audience").map(String::trim)
                .filter(s -> !s.isEmpty()).orElse(issuer.issuer() + "/api");
        return new TokenSettings(codeTtl, accessTokenTtl, refreshTokenTtl, refreshTokenMaxLifetime,
                accessTokenSigningAlg, accessTokenAudience);
    }
}
