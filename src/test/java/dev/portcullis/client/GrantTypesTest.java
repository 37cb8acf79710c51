package dev.portcullis.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.portcullis.admin.Refusal;
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
            assertThrows(Refusal.class, () -> GrantTypes.check(bad, true), bad.toString());
        }
        assertThrows(Refusal.class, () -> GrantTypes.check(List.of("client_credentials"), false));
        assertThrows(Refusal.class, () -> GrantTypes.check(List.of(GrantTypes.TOKEN_EXCHANGE), false));
    }
}
