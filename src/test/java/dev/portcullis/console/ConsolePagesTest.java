package dev.portcullis.console;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.portcullis.client.BuiltInClients;
import dev.portcullis.signin.OwnPage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** What the servlet container needs to serve each console page, and the built-in clients the console relies on. */
class ConsolePagesTest {

    /**
     * The admin API's JAX-RS servlet maps {@code /admin/*}; only an exact mapping of the Faces servlet beats it, so a
     * console page missing from web.xml would answer 404 to administrators (the gate still answers everybody else).
     */
    @Test
    void everyConsolePageIsMappedToTheFacesServlet() throws IOException {
        String webXml = Files.readString(Path.of("src/main/webapp/WEB-INF/web.xml"));
        try (Stream<Path> pages = Files.list(Path.of("src/main/webapp/admin/console"))) {
            pages.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".xhtml")).forEach(n ->
                    assertTrue(webXml.contains("<url-pattern>/admin/console/" + n + "</url-pattern>"), n));
        }
    }

    @Test
    void everyOwnPagesClientIsBuiltIn() {
        for (OwnPage page : OwnPage.values()) {
            assertTrue(BuiltInClients.isBuiltIn(page.clientId()), page.clientId());
        }
    }
}
