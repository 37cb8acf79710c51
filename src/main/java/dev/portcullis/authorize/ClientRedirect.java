package dev.portcullis.authorize;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Builds the redirect back to the client's (verified) redirect URI: success with {@code code}, or an error
 * (RFC 6749 4.1.2.1). Every redirect carries {@code iss} (RFC 9207) and {@code state} unchanged when it was sent.
 * Parameters are appended to any query the registered URI already has.
 */
public final class ClientRedirect {

    private ClientRedirect() {
    }

    public static String success(String redirectUri, String code, String state, String issuer) {
        Map<String, String> p = new LinkedHashMap<>();
        p.put("code", code);
        return build(redirectUri, p, state, issuer);
    }

    public static String error(String redirectUri, String error, String description, String state, String issuer) {
        Map<String, String> p = new LinkedHashMap<>();
        p.put("error", error);
        if (description != null) {
            p.put("error_description", description);
        }
        return build(redirectUri, p, state, issuer);
    }

    private static String build(String redirectUri, Map<String, String> params, String state, String issuer) {
        if (state != null) {
            params.put("state", state);
        }
        params.put("iss", issuer);
        StringBuilder sb = new StringBuilder(redirectUri);
        char sep = redirectUri.contains("?") ? '&' : '?';
        for (Map.Entry<String, String> e : params.entrySet()) {
            sb.append(sep).append(enc(e.getKey())).append('=').append(enc(e.getValue()));
            sep = '&';
        }
        return sb.toString();
    }

    private static String enc(String s) {
        // URLEncoder writes spaces as '+', which is right for application/x-www-form-urlencoded query components
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }
}
