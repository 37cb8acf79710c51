package dev.portcullis.protocol;

/**
 * The error codes of the OAuth and OpenID Connect specifications this server answers with, each with the HTTP
 * status it usually travels with (RFC 6749 4.1.2.1 and 5.2, RFC 6750 3.1,
 * RFC 8707 2, OIDC Core 3.1.2.6).
 */
public enum OAuthError {
    INVALID_REQUEST(400),
    INVALID_CLIENT(401),
    INVALID_GRANT(400),
    UNAUTHORIZED_CLIENT(400),
    UNSUPPORTED_GRANT_TYPE(400),
    UNSUPPORTED_RESPONSE_TYPE(400),
    INVALID_SCOPE(400),
    /** RFC 8707 2. */
    INVALID_TARGET(400),
    ACCESS_DENIED(400),
    INVALID_TOKEN(401),
    INSUFFICIENT_SCOPE(403),
    LOGIN_REQUIRED(400),
    CONSENT_REQUIRED(400),
    REQUEST_NOT_SUPPORTED(400),
    REQUEST_URI_NOT_SUPPORTED(400),
    /** RFC 9101 6.3 and OIDC Core 3.1.2.6: the request object is invalid. */
    INVALID_REQUEST_OBJECT(400),
    /** RFC 9449 5, 7.1: a DPoP proof that is missing, malformed or does not fit the request. */
    INVALID_DPOP_PROOF(400),
    /** RFC 9449 8, 9: the proof must carry the nonce of the {@code DPoP-Nonce} header. */
    USE_DPOP_NONCE(400),
    SERVER_ERROR(500),
    TEMPORARILY_UNAVAILABLE(503);

    private final String code;
    private final int status;

    OAuthError(int status) {
        this.code = name().toLowerCase(java.util.Locale.ROOT);
        this.status = status;
    }

    /** The value of the {@code error} field or parameter, e.g. {@code invalid_grant}. */
    public String code() {
        return code;
    }

    /** The HTTP status of a JSON error response with this code, unless the endpoint's RFC says otherwise. */
    public int status() {
        return status;
    }

    @Override
    public String toString() {
        return code;
    }
}
