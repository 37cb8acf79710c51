package dev.portcullis.dpop;

import dev.portcullis.protocol.OAuthError;
import dev.portcullis.protocol.OAuthException;

/**
 * A DPoP proof refused (RFC 9449): {@code invalid_dpop_proof}, or {@code use_dpop_nonce} with the nonce to use. The
 * endpoint decides the shape: JSON 400 where the client authenticates ({@link #atTokenEndpoint}), 401 with a
 * {@code DPoP} challenge where an access token is used ({@link #atResource}).
 */
public final class DpopRefusal extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final OAuthError error;
    private final String nonce;

    DpopRefusal(OAuthError error, String description, String nonce) {
        super(description, null, false, false);
        this.error = error;
        this.nonce = nonce;
    }

    static DpopRefusal invalid(String description) {
        return new DpopRefusal(OAuthError.INVALID_DPOP_PROOF, description, null);
    }

    public OAuthError error() {
        return error;
    }

    /** RFC 9449 5 and 8: the token endpoint's JSON error (also introspection's and revocation's). */
    public OAuthException atTokenEndpoint() {
        return new OAuthException(error, getMessage(), 400, null, nonce);
    }

    /** RFC 9449 7.1 and 9: 401 with {@code WWW-Authenticate: DPoP error=..., algs=...}. */
    public OAuthException atResource() {
        return new OAuthException(error, getMessage(), 401, DpopProofVerifier.challenge(error.code(), getMessage()),
                nonce);
    }
}
