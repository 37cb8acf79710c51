package dev.portcullis.page;

/**
 * A minimal page in the look of the sign-in pages, for errors raised outside Faces (body too large, broken form
 * posts, database outage on a browser endpoint). Titles and texts are constants, never request input.
 */
public final class PlainPage {

    private PlainPage() {
    }

    public static String html(String title, String text) {
        return "<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\">"
                + "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"><title>" + title
                + " · Portcullis</title><link rel=\"stylesheet\" href=\"/css/portcullis.css\"></head><body>"
                + "<main class=\"card\"><p class=\"brand\">Portcullis</p><h1>" + title + "</h1>"
                + "<p class=\"error\" id=\"error-message\" role=\"alert\">" + text + "</p></main></body></html>";
    }

    /** Browser endpoints answer errors with a page; everything else with JSON. */
    public static boolean isBrowserPath(String uri) {
        return !(uri.startsWith("/oauth/") || uri.startsWith("/admin/") || uri.startsWith("/api/")
                || uri.startsWith("/.well-known/"))
                || uri.equals("/oauth/authorize") || uri.equals("/oauth/logout");
    }
}
