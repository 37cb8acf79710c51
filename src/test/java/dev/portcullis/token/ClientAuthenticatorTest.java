package dev.portcullis.token;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.portcullis.protocol.OAuthError;
import dev.portcullis.protocol.OAuthException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Parsing of HTTP Basic client credentials (RFC 6749 2.3.1). */
class ClientAuthenticatorTest {

    private static String basic(String raw) {
        return "Basic " + Base64.getEncoder().encodeToString(raw.getBytes(StandardCharsets.UTF_8));
    }

    private static String formEncoded(String id, String secret) {
        return basic(URLEncoder.encode(id, StandardCharsets.UTF_8) + ":" + URLEncoder.encode(secret, StandardCharsets.UTF_8));
    }

    @Test
    void noHeaderMeansNoBasic() {
        assertTrue(ClientAuthenticator.parseAuthorization(null).isEmpty());
        assertTrue(ClientAuthenticator.parseAuthorization("").isEmpty());
    }

    @Test
    void plainCredentials() {
        var c = ClientAuthenticator.parseAuthorization(basic("client-1:s3cret")).orElseThrow();
        assertEquals("client-1", c.clientId());
        assertEquals("s3cret", c.secret());
    }

    @Test
    void credentialsAreFormUrlDecoded() {
        String secret = "p:a ss+w%rd/é";
        var c = ClientAuthenticator.parseAuthorization(formEncoded("id:with colon", secret)).orElseThrow();
        assertEquals("id:with colon", c.clientId());
        assertEquals(secret, c.secret());
        // '+' is a space in form encoding
        assertEquals("a b", ClientAuthenticator.parseAuthorization(basic("x:a+b")).orElseThrow().secret());
    }

    @Test
    void schemeIsCaseInsensitive() {
        assertEquals("x", ClientAuthenticator.parseAuthorization("basic " + basic("x:y").substring(6))
                .orElseThrow().clientId());
    }

    @ParameterizedTest
    @ValueSource(strings = {"Basic", "Basic !!!notbase64", "Bearer abc", "Digest username=x"})
    void malformedOrOtherSchemesAreInvalidClientWithBasicChallenge(String header) {
        OAuthException e = assertThrows(OAuthException.class, () -> ClientAuthenticator.parseAuthorization(header));
        assertEquals(OAuthError.INVALID_CLIENT, e.error());
        assertEquals(401, e.status());
        assertNotNull(e.wwwAuthenticate());
        assertTrue(e.wwwAuthenticate().startsWith("Basic"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"nocolon", ":secret", "id:", "id:%zz", "id:a%0Ab"})
    void malformedCredentialsAreInvalidClient(String raw) {
        OAuthException e = assertThrows(OAuthException.class,
                () -> ClientAuthenticator.parseAuthorization(basic(raw)));
        assertEquals(OAuthError.INVALID_CLIENT, e.error());
    }
}
