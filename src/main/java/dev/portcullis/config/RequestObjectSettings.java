package dev.portcullis.config;

/**
 * {@code portcullis.request-object.required}: every client must send its authorization requests as signed request
 * objects (RFC 9101), not only those registered with {@code require_signed_request_object}.
 */
public record RequestObjectSettings(boolean required) {

    static RequestObjectSettings load(PortcullisConfig.Source c) {
        return new RequestObjectSettings(PortcullisConfig.bool(c, "portcullis.request-object.required", false));
    }
}
