package dev.portcullis.authorize;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Map;
import org.junit.jupiter.api.Test;

class ClientRedirectTest {

    @Test
    void successCarriesCodeStateAndIss() {
        assertEquals("https://app/cb?code=abc&state=a+b%26c&iss=https%3A%2F%2Fid.example",
                ClientRedirect.success("https://app/cb", ResponseMode.QUERY, "abc", "a b&c", "https://id.example")
                        .location());
    }

    @Test
    void appendsToAnExistingQueryAndOmitsAbsentState() {
        assertEquals("https://app/cb?x=1&error=access_denied&error_description=The+user+said+no&iss=https%3A%2F%2Fid",
                ClientRedirect.error("https://app/cb?x=1", ResponseMode.QUERY, "access_denied", "The user said no",
                        null, "https://id").location());
    }

    @Test
    void theFragmentModePutsTheParametersAfterAnyQuery() {
        assertEquals("https://app/cb?x=1#code=abc&state=s&iss=https%3A%2F%2Fid",
                ClientRedirect.success("https://app/cb?x=1", ResponseMode.FRAGMENT, "abc", "s", "https://id")
                        .location());
    }

    @Test
    void theFormPostModeKeepsTheRedirectUriAndTheParametersApart() {
        AuthorizationResponse r = ClientRedirect.error("https://app/cb?x=1", ResponseMode.FORM_POST, "access_denied",
                null, "s", "https://id");
        assertEquals("https://app/cb?x=1", r.redirectUri());
        assertEquals(Map.of("error", "access_denied", "state", "s", "iss", "https://id"), r.parameters());
    }
}
