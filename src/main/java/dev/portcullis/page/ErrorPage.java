package dev.portcullis.page;

import dev.portcullis.page.PageMessages;
import jakarta.ws.rs.core.CacheControl;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

/**
 * The HTML error page of the authorization endpoint for requests that cannot be sent back to a client (unknown
 * client, unregistered redirect URI, malformed parameters): HTTP 400, plain words, the look of the sign-in page.
 * Rendered here rather than by Faces because JAX-RS answers it; every dynamic text is HTML-escaped.
 */
public final class ErrorPage {

    private ErrorPage() {
    }

    public static Response response(PageMessages msg, String messageKey, String detail) {
        return Response.status(400)
                .type(MediaType.TEXT_HTML_TYPE.withCharset("UTF-8"))
                .cacheControl(CacheControl.valueOf("no-store"))
                .entity(html(msg, messageKey, detail))
                .build();
    }

    static String html(PageMessages msg, String messageKey, String detail) {
        return "<!DOCTYPE html>\n<html lang=\"" + escape(msg.locale().getLanguage()) + "\">\n<head><meta charset=\"utf-8\">"
                + "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
                + "<title>" + escape(msg.get("error.title")) + " · Portcullis</title>"
                + "<link rel=\"stylesheet\" href=\"/css/portcullis.css\"></head>\n"
                + "<body><main class=\"card\" id=\"error-page\"><p class=\"brand\">Portcullis</p>"
                + "<h1>" + escape(msg.get("error.title")) + "</h1>"
                + "<p class=\"error\" id=\"error-message\" role=\"alert\">" + escape(msg.get(messageKey)) + "</p>"
                + "<p class=\"lead\">" + escape(msg.get("error.advice")) + "</p>"
                + (detail == null ? "" : "<footer>" + escape(msg.get("error.detail")) + " <code>" + escape(detail)
                + "</code></footer>")
                + "</main></body>\n</html>\n";
    }

    public static String escape(String s) {
        StringBuilder b = new StringBuilder(s.length() + 16);
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '<' -> b.append("&lt;");
                case '>' -> b.append("&gt;");
                case '&' -> b.append("&amp;");
                case '"' -> b.append("&quot;");
                case '\'' -> b.append("&#39;");
                default -> b.append(c);
            }
        }
        return b.toString();
    }
}
