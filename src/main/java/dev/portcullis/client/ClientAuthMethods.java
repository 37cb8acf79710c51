package dev.portcullis.client;

import dev.portcullis.admin.Refusal;
import java.util.List;

/**
 * The client authentication methods a client may register ({@code token_endpoint_auth_method}, RFC 7591 2) and how
 * they go with the client's type: {@code none} is a public client; the other three are confidential, and
 * {@code private_key_jwt} (RFC 7523, OIDC Core 9) has keys instead of a secret.
 */
public final class ClientAuthMethods {

    public static final String CLIENT_SECRET_BASIC = "client_secret_basic";
    public static final String CLIENT_SECRET_POST = "client_secret_post";
    public static final String PRIVATE_KEY_JWT = "private_key_jwt";
    public static final String NONE = "none";

    /** Catalogue order, as discovery lists them. */
    public static final List<String> ALL = List.of(CLIENT_SECRET_BASIC, CLIENT_SECRET_POST, PRIVATE_KEY_JWT, NONE);

    private ClientAuthMethods() {
    }

    /**
     * A registration's or patch's method checked against the client's type after the change.
     *
     * @throws Refusal naming {@code token_endpoint_auth_method}
     */
    public static String check(String method, boolean confidential) {
        if (!ALL.contains(method)) {
            throw Refusal.invalid("token_endpoint_auth_method", "must be one of " + String.join(" ", ALL));
        }
        if (confidential == NONE.equals(method)) {
            throw Refusal.invalid("token_endpoint_auth_method", confidential
                    ? "none is for public clients; a confidential client authenticates"
                    : "a public client authenticates with none");
        }
        return method;
    }

    /** Whether the method needs a client secret. */
    public static boolean usesSecret(String method) {
        return CLIENT_SECRET_BASIC.equals(method) || CLIENT_SECRET_POST.equals(method);
    }
}
