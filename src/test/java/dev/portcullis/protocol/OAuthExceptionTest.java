package dev.portcullis.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class OAuthExceptionTest {

    @Test
    void invalidClientAlwaysNamesTheSchemeToUse() {
        // RFC 9110 11.6.1: a 401 carries WWW-Authenticate, whichever way the client tried to authenticate
        OAuthException e = OAuthException.invalidClient("Client authentication failed");
        assertEquals(401, e.status());
        assertTrue(e.wwwAuthenticate().startsWith("Basic realm=\"portcullis\""), e::wwwAuthenticate);
    }
}
