package dev.portcullis.page;

/**
 * Whether a failing request is answered with a page or with the JSON error shape — decided here alone, by path:
 * the authorization and logout endpoints, the admin console and everything outside the API prefixes are visited by
 * browsers.
 */
public enum ResponseKind {
    PAGE, JSON;

    /** The kind of answer for the request path (without context path); no path known means an API caller. */
    public static ResponseKind of(String path) {
        if (path == null) {
            return JSON;
        }
        if (path.equals("/oauth/authorize") || path.equals("/oauth/logout") || path.equals("/admin/console")
                || path.startsWith("/admin/console/")) {
            return PAGE;
        }
        boolean api = path.startsWith("/oauth/") || path.startsWith("/admin/") || path.startsWith("/api/")
                || path.startsWith("/.well-known/");
        return api ? JSON : PAGE;
    }
}
