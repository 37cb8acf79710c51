package dev.portcullis.config;

/**
 * {@code portcullis.client-assertion.accept-endpoint-audience}: the compatibility switch that lets a
 * {@code private_key_jwt} client assertion name the URL of the endpoint it is sent to as its one {@code aud}, beside
 * the issuer identifier. Off by default: an endpoint URL is what the 2025 audience-injection attacks make a client
 * sign for the wrong server (draft-ietf-oauth-rfc7523bis).
 */
public record ClientAssertionSettings(boolean acceptEndpointAudience) {

    static ClientAssertionSettings load(PortcullisConfig.Source c) {
        return new ClientAssertionSettings(PortcullisConfig.bool(c,
                "portcullis.client-assertion.accept-endpoint-audience", false));
    }
}
