package dev.portcullis.signin;

import dev.portcullis.client.BuiltInClients;
import jakarta.servlet.http.HttpServletRequest;
import java.util.Optional;

/**
 * Portcullis's own signed-in pages: each area is a built-in public PKCE client of Portcullis itself (like Keycloak's
 * account console), so its users sign in through the ordinary authorization endpoint and login page, with the same
 * throttling, second factor and step-up as any other application.
 */
public enum OwnPage {
    ACCOUNT("/account/", BuiltInClients.ACCOUNT, "Portcullis account"),
    CONSOLE("/admin/console/", BuiltInClients.CONSOLE, "Portcullis admin console");

    private final String root;
    private final String clientId;
    private final String clientName;

    OwnPage(String root, String clientId, String clientName) {
        this.root = root;
        this.clientId = clientId;
        this.clientName = clientName;
    }

    /** The area's path with a trailing slash, e.g. {@code /account/}. */
    public String root() {
        return root;
    }

    /** The path of the area's first page, where the bare root and a sign-in without a destination lead. */
    public String home() {
        return root + "index.xhtml";
    }

    /** The redirect URI path of the area's client. */
    public String callback() {
        return root + "callback";
    }

    public String clientId() {
        return clientId;
    }

    public String clientName() {
        return clientName;
    }

    /**
     * The path the container dispatched the request to: servlet path and path info, which the servlet specification
     * gives decoded, without path parameters and with dot segments and doubled slashes resolved. Every spelling of
     * one page (an encoded letter, {@code ;x}, {@code //}, {@code /./}) has this one path; the raw request URI does
     * not, so nothing that guards a page reads it.
     */
    public static String dispatchedPath(HttpServletRequest request) {
        String info = request.getPathInfo();
        return request.getServletPath() + (info == null ? "" : info);
    }

    /** The area a request path (without context path) belongs to, the root itself without its slash included. */
    public static Optional<OwnPage> of(String path) {
        for (OwnPage p : values()) {
            if (path.startsWith(p.root) || path.equals(p.root.substring(0, p.root.length() - 1))) {
                return Optional.of(p);
            }
        }
        return Optional.empty();
    }
}
