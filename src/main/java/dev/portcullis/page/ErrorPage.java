package dev.portcullis.page;

import jakarta.ws.rs.core.Response;

/**
 * The HTML error page of the authorization and logout endpoints for requests that cannot be sent back to a client
 * (unknown client, unregistered redirect URI, malformed parameters): HTTP 400, plain words, the look of the sign-in
 * page and its ids ({@code error-page}, {@code error-message}).
 */
public final class ErrorPage {

    private ErrorPage() {
    }

    public static Response response(PageMessages msg, String messageKey, String detail) {
        return page(msg, messageKey, detail).response(400).build();
    }

    static HtmlPage page(PageMessages msg, String messageKey, String detail) {
        HtmlPage page = HtmlPage.error(msg.get("error.title"), msg.get(messageKey))
                .lang(msg.locale().getLanguage()).id("error-page")
                .lead(msg.get("error.advice"));
        if (detail != null) {
            page.add(HtmlPage.element("footer").text(msg.get("error.detail") + " ")
                    .add(HtmlPage.element("code").text(detail)));
        }
        return page;
    }
}
