package dev.portcullis.authorize;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class ClientRedirectTest {

    @Test
    void successCarriesCodeStateAndIss() {
        assertEquals("https://app/cb?code=abc&state=a+b%26c&iss=https%3A%2F%2Fid.example",
                ClientRedirect.success("https://app/cb", "abc", "a b&c", "https://id.example"));
    }

    @Test
    void appendsToAnExistingQueryAndOmitsAbsentState() {
        assertEquals("https://app/cb?x=1&error=access_denied&error_description=The+user+said+no&iss=https%3A%2F%2Fid",
                ClientRedirect.error("https://app/cb?x=1", "access_denied", "The user said no", null, "https://id"));
    }
}
