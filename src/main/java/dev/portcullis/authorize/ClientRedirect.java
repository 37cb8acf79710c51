package dev.portcullis.authorize;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Builds the response to the client's (verified) redirect URI: success with {@code code}, or an error
 * (RFC 6749 4.1.2.1). Every response carries {@code iss} (RFC 9207) and {@code state} unchanged when it was sent.
 */
public final class ClientRedirect {

    private ClientRedirect() {
    }

    public static AuthorizationResponse success(String redirectUri, ResponseMode mode, String code, String state,
                                                String issuer) {
        Map<String, String> p = new LinkedHashMap<>();
        p.put("code", code);
        return build(redirectUri, mode, p, state, issuer);
    }

    public static AuthorizationResponse error(String redirectUri, ResponseMode mode, String error, String description,
                                              String state, String issuer) {
        Map<String, String> p = new LinkedHashMap<>();
        p.put("error", error);
        if (description != null) {
            p.put("error_description", description);
        }
        return build(redirectUri, mode, p, state, issuer);
    }

    private static AuthorizationResponse build(String redirectUri, ResponseMode mode, Map<String, String> params,
                                               String state, String issuer) {
        if (state != null) {
            params.put("state", state);
        }
        params.put("iss", issuer);
        return new AuthorizationResponse(redirectUri, mode, params);
    }
}
