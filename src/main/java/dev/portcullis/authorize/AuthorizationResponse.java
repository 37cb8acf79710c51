package dev.portcullis.authorize;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * An authorization response for the client's verified redirect URI (RFC 6749 4.1.2 and 4.1.2.1): its parameters in
 * order and the {@link ResponseMode} that carries them. {@link ClientRedirect} builds it.
 */
public record AuthorizationResponse(String redirectUri, ResponseMode mode, Map<String, String> parameters) {

    public AuthorizationResponse {
        parameters = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(parameters));
    }

    /**
     * The redirect URI with the parameters in its query (appended to any query the registered URI has) or its
     * fragment; meaningless for {@link ResponseMode#FORM_POST}, whose parameters go in the page's form.
     */
    public String location() {
        String encoded = parameters.entrySet().stream()
                .map(e -> enc(e.getKey()) + "=" + enc(e.getValue()))
                .collect(Collectors.joining("&"));
        if (mode == ResponseMode.FRAGMENT) {
            return redirectUri + "#" + encoded;
        }
        return redirectUri + (redirectUri.contains("?") ? "&" : "?") + encoded;
    }

    private static String enc(String s) {
        // URLEncoder writes spaces as '+', which is right for application/x-www-form-urlencoded components
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }
}
