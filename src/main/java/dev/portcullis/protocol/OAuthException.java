package dev.portcullis.protocol;

/**
 * An OAuth protocol error as a value: the RFC error code, a human description and the HTTP status.
 * {@code app.OAuthExceptionMapper} turns it into {@code {"error","error_description"}} JSON. Endpoints throw these
 * instead of building error responses themselves, so every error has the same shape.
 */
public class OAuthException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /** The response header that carries a DPoP server nonce (RFC 9449 8.1). */
    public static final String DPOP_NONCE = "DPoP-Nonce";

    private final OAuthError error;
    private final int status;
    private final String wwwAuthenticate;
    /** The {@code DPoP-Nonce} header of the answer (RFC 9449 8), or null. */
    private final String dpopNonce;

    public OAuthException(OAuthError error, String description, int status, String wwwAuthenticate) {
        this(error, description, status, wwwAuthenticate, null);
    }

    public OAuthException(OAuthError error, String description, int status, String wwwAuthenticate,
                          String dpopNonce) {
        super(description, null, false, false);
        this.error = error;
        this.status = status;
        this.wwwAuthenticate = wwwAuthenticate;
        this.dpopNonce = dpopNonce;
    }

    public OAuthException(OAuthError error, String description, int status) {
        this(error, description, status, null);
    }

    /** With the code's usual status. */
    public OAuthException(OAuthError error, String description) {
        this(error, description, error.status(), null);
    }

    public static OAuthException invalidRequest(String description) {
        return new OAuthException(OAuthError.INVALID_REQUEST, description);
    }

    public static OAuthException invalidGrant(String description) {
        return new OAuthException(OAuthError.INVALID_GRANT, description);
    }

    public static OAuthException invalidScope(String description) {
        return new OAuthException(OAuthError.INVALID_SCOPE, description);
    }

    /** RFC 8707 2: a resource that is unknown, malformed, or not one the client may use. */
    public static OAuthException invalidTarget(String description) {
        return new OAuthException(OAuthError.INVALID_TARGET, description);
    }

    public static OAuthException unsupportedGrantType(String description) {
        return new OAuthException(OAuthError.UNSUPPORTED_GRANT_TYPE, description);
    }

    /**
     * RFC 6749 5.2: 401 naming the scheme the client should use, whether or not it tried HTTP Basic, since every
     * 401 carries a challenge (RFC 9110 11.6.1).
     */
    public static OAuthException invalidClient(String description) {
        return new OAuthException(OAuthError.INVALID_CLIENT, description, 401, "Basic realm=\"portcullis\", charset=\"UTF-8\"");
    }

    public OAuthError error() {
        return error;
    }

    public String description() {
        return getMessage();
    }

    public int status() {
        return status;
    }

    /** The RFC's JSON error response for this error, with its WWW-Authenticate header when it has one. */
    public jakarta.ws.rs.core.Response toResponse() {
        jakarta.ws.rs.core.Response r = ErrorBody.response(status, error.code(), getMessage());
        if (wwwAuthenticate != null) {
            r.getHeaders().putSingle(jakarta.ws.rs.core.HttpHeaders.WWW_AUTHENTICATE, wwwAuthenticate);
        }
        if (dpopNonce != null) {
            r.getHeaders().putSingle(DPOP_NONCE, dpopNonce);
        }
        return r;
    }

    /** The same answer written straight to a servlet response, for endpoints served outside JAX-RS. */
    public void write(jakarta.servlet.http.HttpServletResponse res) throws java.io.IOException {
        if (wwwAuthenticate != null) {
            res.setHeader(jakarta.ws.rs.core.HttpHeaders.WWW_AUTHENTICATE, wwwAuthenticate);
        }
        if (dpopNonce != null) {
            res.setHeader(DPOP_NONCE, dpopNonce);
        }
        NoStoreJson.write(res, status, ErrorBody.json(error.code(), getMessage()));
    }

    /** Value of the DPoP-Nonce header, or null. */
    public String dpopNonce() {
        return dpopNonce;
    }

    /** Value of the WWW-Authenticate header, or null. */
    public String wwwAuthenticate() {
        return wwwAuthenticate;
    }
}
