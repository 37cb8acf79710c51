package dev.portcullis.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.portcullis.admin.Refusal;
import dev.portcullis.client.BuiltInClients;
import dev.portcullis.page.PageMessages;
import dev.portcullis.signin.OwnPage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * What the servlet container needs to serve each console page, the built-in clients the console relies on, and a
 * message in every language for every refusal.
 */
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

    /** Every reason a refusal can give, with every value of its enums. */
    private static List<Refusal.Reason> everyReason() {
        List<Refusal.Reason> all = new ArrayList<>(List.of(new Refusal.InvalidField("client_name", "too long"),
                new Refusal.InvalidField("no_label_for_this", "x"), new Refusal.UsernameTaken("alice"),
                new Refusal.NoSecret("c1"), new Refusal.KeyRotationInProgress(), new Refusal.OwnAccountDisabled("a"),
                new Refusal.ApiIdentifierTaken("https://api.example"), new Refusal.NothingToWithdraw("c1", false),
                new Refusal.ApiScopesInUse("https://api.example", List.of("a.read"), List.of("c1")),
                new Refusal.ApiScopesExchanged("https://api.example", List.of("a.read"), List.of("https://b.example")),
                new Refusal.NotJson()));
        Arrays.stream(Refusal.PasswordProblem.values()).forEach(p -> all.add(new Refusal.PasswordRefused(p, "x")));
        Arrays.stream(Refusal.BuiltInChange.values()).forEach(c -> all.add(new Refusal.BuiltInClient("c1", c)));
        Arrays.stream(Refusal.Thing.values()).forEach(t -> all.add(new Refusal.NotFound(t)));
        return all;
    }

    @Test
    void everyRefusalHasAMessageInEveryLanguage() {
        Set<Class<?>> sampled = new HashSet<>();
        everyReason().forEach(r -> sampled.add(r.getClass()));
        assertEquals(Set.of(Refusal.Reason.class.getPermittedSubclasses()), sampled, "a sample of every reason");
        // a key missing from the bundle shows as the key itself
        Pattern key = Pattern.compile("\\b(change|console|account|login)\\.[A-Za-z_.]+");
        for (Locale language : PageMessages.SUPPORTED) {
            PageMessages msg = new PageMessages(language);
            for (Refusal.Reason reason : everyReason()) {
                String text = ConsolePages.message(msg, reason);
                assertFalse(text.isBlank() || key.matcher(text).find(), language + " " + reason + ": " + text);
            }
        }
    }
}
