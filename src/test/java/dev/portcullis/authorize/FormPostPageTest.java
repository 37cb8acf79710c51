package dev.portcullis.authorize;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.portcullis.page.PageMessages;
import java.util.Locale;
import org.junit.jupiter.api.Test;

class FormPostPageTest {

    private static String page(String state) {
        return FormPostPage.of(ClientRedirect.success("https://app.example/cb?x=1&y=2", ResponseMode.FORM_POST,
                "c0de", state, "https://id.example"), new PageMessages(Locale.GERMAN)).html();
    }

    @Test
    void theFormPostsEveryParameterToTheRedirectUriEscaped() {
        String html = page("\"><script>alert(1)</script>");
        assertTrue(html.contains("<form id=\"form-post\" method=\"post\" action=\"https://app.example/cb?x=1&amp;y=2\">"),
                html);
        assertTrue(html.contains("<input type=\"hidden\" name=\"code\" value=\"c0de\">"), html);
        assertTrue(html.contains("name=\"state\" value=\"&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;\""), html);
        assertTrue(html.contains("<input type=\"hidden\" name=\"iss\" value=\"https://id.example\">"), html);
        assertEquals(1, html.split("<script", -1).length - 1, "only the external script, nothing injected");
        assertTrue(html.contains("<script src=\"/js/form-post.js\"></script>"), html);
    }

    @Test
    void withoutScriptsAButtonSubmitsItInTheUsersLanguage() {
        String html = page("s");
        assertTrue(html.contains("<noscript><p>Skripte sind in diesem Browser ausgeschaltet"), html);
        assertTrue(html.contains("<button type=\"submit\" id=\"continue\">Weiter</button>"), html);
        assertTrue(html.indexOf("</noscript>") < html.indexOf("</form>"), "the button is in the form");
        assertFalse(html.contains("onload"), html);
    }
}
