package dev.portcullis.client;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

class ScopesTest {

    @Test
    void parseSplitsOnRunsOfSpacesKeepsOrderAndDropsDuplicates() {
        assertEquals(List.of("openid", "profile", "email"),
                List.copyOf(Scopes.parse("  openid   profile email openid ")));
    }

    @Test
    void parseOfNothingIsEmpty() {
        assertEquals(List.of(), List.copyOf(Scopes.parse(null)));
        assertEquals(List.of(), List.copyOf(Scopes.parse("   ")));
        assertEquals(List.of("x"), List.copyOf(Scopes.parse("x")));
    }

    @Test
    void formatPutsKnownScopesInCatalogueOrder() {
        assertEquals("openid profile email custom", Scopes.format(Scopes.parse("custom email openid profile")));
    }
}
