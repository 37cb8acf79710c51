package dev.portcullis.authorize;

import dev.portcullis.page.HtmlPage;
import dev.portcullis.page.PageMessages;
import java.util.Map;

/**
 * The page of {@code response_mode=form_post} (OAuth 2.0 Form Post Response Mode 2): a form of hidden fields that
 * POSTs the authorization response to the client's verified redirect URI. {@code /js/form-post.js} submits it on
 * load (the CSP allows only the server's own scripts, never inline ones); without scripts the user presses Continue.
 * The CSP has no {@code form-action}, so the form may go to the client.
 */
public final class FormPostPage {

    /** The id of the form, which the script submits. */
    static final String FORM_ID = "form-post";

    private FormPostPage() {
    }

    public static HtmlPage of(AuthorizationResponse response, PageMessages msg) {
        HtmlPage.Element form = HtmlPage.element("form").id(FORM_ID).attr("method", "post")
                .attr("action", response.redirectUri());
        for (Map.Entry<String, String> p : response.parameters().entrySet()) {
            form.add(HtmlPage.hidden(p.getKey(), p.getValue()));
        }
        form.add(HtmlPage.element("noscript")
                .add(HtmlPage.element("p").text(msg.get("formPost.noscript")))
                .add(HtmlPage.actions(HtmlPage.element("button").attr("type", "submit").id("continue")
                        .text(msg.get("formPost.continue")))));
        return HtmlPage.titled(msg.get("formPost.title")).lang(msg.locale().getLanguage()).id("form-post-page")
                .lead(msg.get("formPost.lead"))
                .add(form, HtmlPage.element("script").attr("src", "/js/form-post.js"));
    }
}
