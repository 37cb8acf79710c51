package dev.portcullis.config;

/**
 * {@code portcullis.par.required}: every client must push its authorization requests (RFC 9126 5), not only those
 * registered with {@code require_pushed_authorization_requests}.
 */
public record PushedAuthorizationSettings(boolean required) {

    static PushedAuthorizationSettings load(PortcullisConfig.Source c) {
        return new PushedAuthorizationSettings(PortcullisConfig.bool(c, "portcullis.par.required", false));
    }
}
