package dev.portcullis.authorize;

import dev.portcullis.protocol.OAuthException;

/**
 * A request whose client and redirect URI were verified but that failed a later check: the error goes back to the
 * client (RFC 6749 4.1.2.1) with the state that was sent, in the response mode it asked for (query when that was
 * what failed).
 */
public class RejectedAuthorizationRequest extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final String redirectUri;
    private final ResponseMode mode;
    private final String state;
    private final OAuthException error;

    public RejectedAuthorizationRequest(String redirectUri, ResponseMode mode, String state, OAuthException error) {
        super(error.error().code() + ": " + error.description(), null, false, false);
        this.redirectUri = redirectUri;
        this.mode = mode;
        this.state = state;
        this.error = error;
    }

    public String redirectUri() {
        return redirectUri;
    }

    public String state() {
        return state;
    }

    public OAuthException error() {
        return error;
    }

    public AuthorizationResponse response(String issuer) {
        return ClientRedirect.error(redirectUri, mode, error.error().code(), error.description(), state, issuer);
    }
}
