package dev.portcullis.page;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.portcullis.client.Scopes;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;

class PageMessagesTest {

    @Test
    void uiLocalesWinsThenAcceptLanguageThenEnglish() {
        assertEquals(Locale.GERMAN, PageMessages.pick("fr de-CH", Collections.enumeration(List.of(Locale.ENGLISH))));
        assertEquals(Locale.GERMAN, PageMessages.pick(null, Collections.enumeration(List.of(Locale.FRENCH, Locale.GERMANY))));
        assertEquals(Locale.ENGLISH, PageMessages.pick("fr", Collections.enumeration(List.of(Locale.JAPANESE))));
        assertEquals(Locale.ENGLISH, PageMessages.pick(null, null));
    }

    @Test
    void bothLanguagesDescribeEveryScope() {
        for (Locale l : PageMessages.SUPPORTED) {
            PageMessages m = new PageMessages(l);
            for (String s : Scopes.ALL) {
                assertEquals(true, m.containsKey("scope." + s), l + " scope." + s);
            }
        }
        assertEquals("Anmelden", new PageMessages(Locale.GERMAN).get("login.title"));
        assertEquals("Sign in to continue to App.", new PageMessages(Locale.ENGLISH).format("login.lead", "App"));
    }

    @Test
    void germanHasEveryEnglishKey() throws Exception {
        java.util.Properties en = new java.util.Properties();
        java.util.Properties de = new java.util.Properties();
        try (var a = getClass().getResourceAsStream("/dev/portcullis/messages.properties");
             var b = getClass().getResourceAsStream("/dev/portcullis/messages_de.properties")) {
            en.load(new java.io.InputStreamReader(a, java.nio.charset.StandardCharsets.UTF_8));
            de.load(new java.io.InputStreamReader(b, java.nio.charset.StandardCharsets.UTF_8));
        }
        assertEquals(en.keySet(), de.keySet());
    }
}
