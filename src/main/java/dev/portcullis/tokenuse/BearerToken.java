package dev.portcullis.tokenuse;

import dev.portcullis.protocol.OAuthError;
import dev.portcullis.protocol.OAuthException;
import java.util.Optional;

/**
 * How a client presents an access token (RFC 6750): the {@code Authorization: Bearer} header everywhere, and the
 * form-body {@code access_token} parameter only where a caller allows it (userinfo, OIDC Core 5.3.1). The URI query
 * method (RFC 6750 2.3) is not supported: tokens in URLs end up in logs. Also the RFC 6750 3 error values.
 */
public final class BearerToken {

    /** {@code WWW-Authenticate} challenge without an error: the request carried no token (RFC 6750 3.1). */
    public static final String CHALLENGE = "Bearer realm=\"portcullis\"";

    private static final int MAX_LENGTH = 8192;

    private BearerToken() {
    }

    /**
     * The token of an {@code Authorization} header: empty when there is no header, or when it uses another scheme
     * (e.g. Basic) — the caller then answers 401 with a plain challenge. A Bearer header with a malformed token is
     * {@code invalid_request} (400).
     */
    public static Optional<String> fromHeader(String authorization) {
        if (authorization == null || authorization.isBlank()
                || !authorization.regionMatches(true, 0, "Bearer ", 0, 7)) {
            return Optional.empty();
        }
        String token = authorization.substring(7).trim();
        if (token.length() > MAX_LENGTH || !isB64Token(token)) {
            throw new OAuthException(OAuthError.INVALID_REQUEST, "Malformed Bearer token", 400,
                    CHALLENGE + ", error=\"invalid_request\"");
        }
        return Optional.of(token);
    }

    /**
     * RFC 6750 2.1 {@code b64token = 1*( ALPHA / DIGIT / "-" / "." / "_" / "~" / "+" / "/" ) *"="}. A plain scan rather than a
     * regular expression, because every API call checks this header.
     */
    static boolean isB64Token(String s) {
        int end = s.length();
        while (end > 0 && s.charAt(end - 1) == '=') {
            end--;
        }
        if (end == 0) {
            return false;
        }
        for (int i = 0; i < end; i++) {
            char c = s.charAt(i);
            boolean ok = c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
                    || c == '-' || c == '.' || c == '_' || c == '~' || c == '+' || c == '/';
            if (!ok) {
                return false;
            }
        }
        return true;
    }

    /** 401: the request carried no access token. */
    public static OAuthException missing() {
        return new OAuthException(OAuthError.INVALID_TOKEN, "An access token is required: Authorization: Bearer <token>",
                401, CHALLENGE);
    }

    /** 401 for a token that is not (or no longer) valid, as {@code AccessTokenVerifier.verify} answers. */
    public static OAuthException invalid() {
        return new OAuthException(OAuthError.INVALID_TOKEN, "The access token is invalid, expired or revoked", 401,
                "Bearer error=\"invalid_token\"");
    }

    /** 401 for a valid token without a user (client credentials) at an endpoint about the token's user. */
    public static OAuthException noUser() {
        return new OAuthException(OAuthError.INVALID_TOKEN, "The token has no user: it was issued to a client on its "
                + "own behalf", 401, "Bearer error=\"invalid_token\", error_description=\"The token has no user\"");
    }

    /** 403 naming the scope the endpoint needs (RFC 6750 3.1 insufficient_scope). */
    public static OAuthException insufficientScope(String scope) {
        return new OAuthException(OAuthError.INSUFFICIENT_SCOPE, "The access token lacks the scope this endpoint requires: "
                + scope, 403, CHALLENGE + ", error=\"insufficient_scope\", scope=\"" + scope + "\"");
    }

    /** 403 for a user's access token at an endpoint that only the operator may call. */
    public static OAuthException notDelegable() {
        return new OAuthException(OAuthError.INSUFFICIENT_SCOPE, "This endpoint does not accept delegated tokens: a user's "
                + "access token cannot call it on the user's behalf, whatever its scope. Use the operator's admin token.",
                403, CHALLENGE + ", error=\"insufficient_scope\", error_description=\"endpoint not delegable\"");
    }
}
