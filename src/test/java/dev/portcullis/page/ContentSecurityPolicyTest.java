package dev.portcullis.page;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ContentSecurityPolicyTest {

    @Test
    void pagesFrameNothingAndAreNeverFramed() {
        assertTrue(ContentSecurityPolicy.PAGES.startsWith("default-src 'none';"));
        assertTrue(ContentSecurityPolicy.PAGES.contains("frame-ancestors 'none'"));
        assertEquals(ContentSecurityPolicy.PAGES, ContentSecurityPolicy.framing(Set.of()));
    }

    @Test
    void framingAddsExactlyTheGivenOriginsSorted() {
        assertEquals(ContentSecurityPolicy.PAGES + "; frame-src https://a.example.com https://b.example.com:444",
                ContentSecurityPolicy.framing(List.of("https://b.example.com:444", "https://a.example.com")));
    }

    @Test
    void anythingButAPlainOriginIsRefused() {
        for (String bad : List.of("https://a.example.com; script-src *", "*", "https://a.example.com/path",
                "'unsafe-inline'", "https://a.example.com https://evil.example")) {
            assertThrows(IllegalArgumentException.class, () -> ContentSecurityPolicy.framing(List.of(bad)), bad);
        }
    }

    @Test
    void theOriginIsSchemeHostAndAnExplicitPort() {
        assertEquals("https://rp.example.com", ContentSecurityPolicy.origin(URI.create("HTTPS://RP.Example.com/a?b=c")));
        assertEquals("http://127.0.0.1:8080", ContentSecurityPolicy.origin(URI.create("http://127.0.0.1:8080/fc")));
        assertEquals("http://[::1]:9", ContentSecurityPolicy.origin(URI.create("http://[::1]:9/fc")));
    }
}
