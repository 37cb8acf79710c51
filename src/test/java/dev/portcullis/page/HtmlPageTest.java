package dev.portcullis.page;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

class HtmlPageTest {

    private static final String HOSTILE = "<b>x</b>&\"'";
    private static final String ESCAPED = "&lt;b&gt;x&lt;/b&gt;&amp;&quot;&#39;";

    @Test
    void escapesEverySlot() {
        String html = HtmlPage.error(HOSTILE, HOSTILE).lang(HOSTILE).brand(HOSTILE).id(HOSTILE).lead(HOSTILE)
                .add(HtmlPage.element("form").attr("action", HOSTILE).add(HtmlPage.hidden(HOSTILE, HOSTILE)),
                        HtmlPage.actions(HtmlPage.element("a").attr("href", HOSTILE).text(HOSTILE)))
                .html();
        assertFalse(html.contains("<b>"), html);
        assertFalse(html.contains("'"), html);
        assertTrue(html.contains("<html lang=\"" + ESCAPED + "\">"), html);
        assertTrue(html.contains("<title>" + ESCAPED + " · Portcullis</title>"), html);
        assertTrue(html.contains("<main class=\"card\" id=\"" + ESCAPED + "\">"), html);
        assertTrue(html.contains("<p class=\"brand\">" + ESCAPED + "</p><h1>" + ESCAPED + "</h1>"), html);
        assertTrue(html.contains("<p class=\"error\" id=\"error-message\" role=\"alert\">" + ESCAPED + "</p>"), html);
        assertTrue(html.contains("<p class=\"lead\">" + ESCAPED + "</p>"), html);
        assertTrue(html.contains("<form action=\"" + ESCAPED + "\">"), html);
        assertTrue(html.contains("<input type=\"hidden\" name=\"" + ESCAPED + "\" value=\"" + ESCAPED + "\">"), html);
        assertTrue(html.contains("<div class=\"actions\"><a href=\"" + ESCAPED + "\">" + ESCAPED + "</a></div>"), html);
    }

    @Test
    void hasTheLookOfTheFacesPages() {
        String html = HtmlPage.titled("Signed out").lang("de").id("done").wide().lead("Bye").html();
        assertTrue(html.startsWith("<!DOCTYPE html>\n<html lang=\"de\"><head><meta charset=\"utf-8\">"), html);
        assertTrue(html.contains("<link rel=\"stylesheet\" href=\"/css/portcullis.css\">"), html);
        assertTrue(html.contains("<body><main class=\"card wide\" id=\"done\"><p class=\"brand\">Portcullis</p>"
                + "<h1>Signed out</h1><p class=\"lead\">Bye</p></main></body></html>"), html);
    }

    @Test
    void nullTextIsEmptyAndNamesAreNeverInput() {
        assertEquals("<p></p>", HtmlPage.element("p").text(null).toString());
        assertThrows(IllegalArgumentException.class, () -> HtmlPage.element("p onclick"));
        assertThrows(IllegalArgumentException.class, () -> HtmlPage.element("p").attr("x=\"y", "v"));
    }

    @Test
    void theErrorPageKeepsItsIdsAndEscapesTheDetail() {
        String html = ErrorPage.page(new PageMessages(Locale.GERMAN), "error.clientUnknown", HOSTILE).html();
        assertTrue(html.contains("<html lang=\"de\">"), html);
        assertTrue(html.contains("id=\"error-page\""), html);
        assertTrue(html.contains("id=\"error-message\" role=\"alert\""), html);
        assertTrue(html.contains("<code>" + ESCAPED + "</code>"), html);
    }

    /** Markup is written by {@link HtmlPage} alone (and by the Faces views): no other class builds a document. */
    @Test
    void onlyTheRendererWritesHtmlDocuments() throws IOException {
        Path main = Path.of("src/main/java");
        try (Stream<Path> files = Files.walk(main)) {
            List<Path> offenders = files.filter(p -> p.toString().endsWith(".java"))
                    .filter(p -> !p.endsWith(Path.of("dev/portcullis/page/HtmlPage.java")))
                    .filter(p -> {
                        try {
                            String s = Files.readString(p).toLowerCase(Locale.ROOT);
                            return s.contains("<!doctype") || s.contains("\"<html") || s.contains("<main")
                                    || s.contains("\"<p") || s.contains("\"<form") || s.contains("\"<input");
                        } catch (IOException e) {
                            throw new java.io.UncheckedIOException(e);
                        }
                    })
                    .toList();
            assertEquals(List.of(), offenders);
        }
    }
}
