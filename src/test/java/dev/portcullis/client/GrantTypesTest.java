package dev.portcullis.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.portcullis.audit.ChangeRefused;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The check of a client's grant_types. */
class GrantTypesTest {

    @Test
    void theDefaultIsCodeAndRefresh() {
        assertEquals("authorization_code refresh_token", GrantTypes.check(GrantTypes.DEFAULT, false));
    }

    @Test
    void storedInCatalogueOrder() {
        assertEquals("authorization_code client_credentials",
                GrantTypes.check(List.of("client_credentials", "authorization_code"), true));
    }

    @Test
    void refused() {
        for (List<String> bad : List.of(List.<String>of(), List.of("implicit"), List.of("refresh_token",
                "refresh_token"))) {
            assertThrows(ChangeRefused.class, () -> GrantTypes.check(bad, true), bad.toString());
        }
        assertThrows(ChangeRefused.class, () -> GrantTypes.check(List.of("client_credentials"), false));
        assertThrows(ChangeRefused.class, () -> GrantTypes.check(List.of(GrantTypes.TOKEN_EXCHANGE), false));
    }
}
