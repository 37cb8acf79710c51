package dev.portcullis.authorize;

import dev.portcullis.protocol.OAuthException;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * How the authorization response travels to the client's redirect URI: in its query (the default for
 * {@code response_type=code}) or fragment (OAuth 2.0 Multiple Response Type Encoding Practices 2.1), or as an
 * auto-submitted HTML form (OAuth 2.0 Form Post Response Mode 2).
 */
public enum ResponseMode {
    QUERY("query"),
    FRAGMENT("fragment"),
    FORM_POST("form_post");

    /** The values of {@code response_modes_supported} in the discovery document. */
    public static final List<String> SUPPORTED = Arrays.stream(values()).map(ResponseMode::value).toList();

    private final String value;

    ResponseMode(String value) {
        this.value = value;
    }

    public String value() {
        return value;
    }

    /** The mode a request asks for; {@link #QUERY} when it names none. An unknown mode is invalid_request. */
    public static ResponseMode of(Optional<String> responseMode) {
        if (responseMode.isEmpty()) {
            return QUERY;
        }
        for (ResponseMode m : values()) {
            if (m.value.equals(responseMode.get())) {
                return m;
            }
        }
        throw OAuthException.invalidRequest("Unsupported response_mode; supported: " + String.join(", ", SUPPORTED));
    }
}
