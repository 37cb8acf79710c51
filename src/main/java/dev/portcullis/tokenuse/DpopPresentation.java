package dev.portcullis.tokenuse;

import dev.portcullis.dpop.DpopProofVerifier;
import dev.portcullis.dpop.DpopRefusal;
import dev.portcullis.protocol.OAuthError;
import dev.portcullis.protocol.OAuthException;
import dev.portcullis.token.AccessTokenVerifier.VerifiedAccessToken;
import jakarta.servlet.http.HttpServletRequest;
import java.util.Collections;
import java.util.List;
import java.util.Optional;

/**
 * How a DPoP-bound access token is used at a resource endpoint (RFC 9449 7): {@code Authorization: DPoP <token>}
 * with a {@code DPoP} proof for the request's method and URL, whose {@code ath} is the token's hash and whose key is
 * the token's {@code cnf.jkt}. A bound token presented as Bearer, and an unbound one presented as DPoP, are
 * {@code invalid_token}; refusals carry a {@code DPoP} challenge.
 */
public final class DpopPresentation {

    private static final String SCHEME = "DPoP ";

    private DpopPresentation() {
    }

    /**
     * The token of a {@code DPoP} Authorization header; empty for any other scheme or none. A DPoP header with a
     * malformed token is {@code invalid_request} (400).
     */
    public static Optional<String> dpopToken(String authorization) {
        if (authorization == null || !authorization.regionMatches(true, 0, SCHEME, 0, SCHEME.length())) {
            return Optional.empty();
        }
        String token = authorization.substring(SCHEME.length()).trim();
        if (token.length() > 8192 || !BearerToken.isB64Token(token)) {
            throw new OAuthException(OAuthError.INVALID_REQUEST, "Malformed DPoP token", 400,
                    DpopProofVerifier.challenge("invalid_request", null));
        }
        return Optional.of(token);
    }

    /**
     * {@code checked} (the verifier's answer on {@code token}) as a DPoP-bound token used with a valid proof for
     * {@code method} at {@code url}.
     */
    public static VerifiedAccessToken withProof(Optional<VerifiedAccessToken> checked, String token,
                                                DpopProofVerifier dpop, List<String> proofs, String method,
                                                String url) {
        VerifiedAccessToken t = checked.orElseThrow(() -> invalidToken("The access token is invalid, expired or "
                + "revoked"));
        if (!t.isDpopBound()) {
            throw invalidToken("The access token is not DPoP-bound: present it as Bearer");
        }
        try {
            dpop.verify(proofs, method, url, token, t.dpopJkt());
        } catch (DpopRefusal e) {
            throw e.atResource();
        }
        return t;
    }

    /** {@code t} presented as a Bearer token: refused when it is DPoP-bound (RFC 9449 7.2). */
    public static VerifiedAccessToken asBearer(VerifiedAccessToken t) {
        if (t.isDpopBound()) {
            throw invalidToken("The access token is DPoP-bound: present it as Authorization: DPoP with a DPoP proof");
        }
        return t;
    }

    /** The {@code DPoP} header values of a servlet request. */
    public static List<String> proofs(HttpServletRequest request) {
        return request == null ? List.of() : Collections.list(request.getHeaders(DpopProofVerifier.HEADER));
    }

    /** The request's path below the context root, as sent (the part of {@code htu} after the issuer). */
    public static String path(HttpServletRequest request) {
        return request.getRequestURI().substring(request.getContextPath().length());
    }

    private static OAuthException invalidToken(String description) {
        return new OAuthException(OAuthError.INVALID_TOKEN, description, 401,
                DpopProofVerifier.challenge("invalid_token", description));
    }
}
