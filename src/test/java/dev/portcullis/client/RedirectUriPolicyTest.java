package dev.portcullis.client;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.portcullis.admin.Refusal;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class RedirectUriPolicyTest {

    @ParameterizedTest
    @ValueSource(strings = {"https://app.example.com/cb", "https://app.example.com:8443/cb?x=1",
        "http://127.0.0.1/cb", "http://localhost:3000/cb", "http://[::1]:9000/cb"})
    void acceptedForConfidentialClients(String uri) {
        assertDoesNotThrow(() -> RedirectUriPolicy.check("redirect_uris", uri, true, false));
    }

    @ParameterizedTest
    @ValueSource(strings = {"http://app.example.com/cb", "https://app.example.com/cb#x", "https://*.example.com/cb",
        "/cb", "https://u:p@app.example.com/cb", "com.example.app:/cb", "javascript:alert(1)",
        "https://app.example.com/c b", "https://app.example.com/cb\n"})
    void refusedForConfidentialClients(String uri) {
        assertThrows(Refusal.class, () -> RedirectUriPolicy.check("redirect_uris", uri, true, false));
    }

    @Test
    void privateUseSchemesOnlyForPublicClients() {
        assertDoesNotThrow(() -> RedirectUriPolicy.check("redirect_uris", "com.example.app:/cb", false, false));
        assertThrows(Refusal.class, () -> RedirectUriPolicy.check("redirect_uris", "myapp:/cb", false, false));
    }

    @Test
    void allowHttpOptInPermitsIntranetHttp() {
        assertDoesNotThrow(() -> RedirectUriPolicy.check("redirect_uris", "http://legacy.intranet/cb", true, true));
    }

    @Test
    void loopbackAnyPortOnlyForPublicClients() {
        assertTrue(RedirectUriPolicy.loopbackMatchIgnoringPort("http://127.0.0.1/cb", "http://127.0.0.1:51234/cb"));
        assertFalse(RedirectUriPolicy.loopbackMatchIgnoringPort("http://127.0.0.1/cb", "http://127.0.0.1:51234/other"));
        assertFalse(RedirectUriPolicy.loopbackMatchIgnoringPort("http://127.0.0.1/cb", "http://localhost:51234/cb"));
        assertFalse(RedirectUriPolicy.loopbackMatchIgnoringPort("https://app.example.com/cb", "https://app.example.com:444/cb"));
    }
}
