package dev.portcullis.token;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.portcullis.client.Client;
import dev.portcullis.client.ClientRepository;
import dev.portcullis.client.TestClients;
import dev.portcullis.protocol.OAuthError;
import dev.portcullis.protocol.OAuthException;
import dev.portcullis.protocol.ProtocolParameters;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Optional;
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

    /** A cache whose copy of the client predates a secret rotated on another instance. */
    @Test
    void aRefusalIsDecidedOnTheRowAsItIsNowNotOnTheCachedCopy() {
        Client cached = TestClients.confidentialWithSecret("old secret", "openid", "https://app.example.com/cb");
        Client current = TestClients.confidentialWithSecret("new secret", "openid", "https://app.example.com/cb");
        ClientAuthenticator authenticator = new ClientAuthenticator();
        authenticator.audit = new GrantFakes.Audit();
        authenticator.clock = java.time.Clock.systemUTC();
        authenticator.clients = new ClientRepository() {
            @Override
            public Optional<Client> findCached(String clientId) {
                return Optional.of(cached).filter(c -> c.clientId().equals(clientId));
            }

            @Override
            public Optional<Client> find(String clientId) {
                return Optional.of(current).filter(c -> c.clientId().equals(clientId));
            }
        };

        assertSame(current, authenticator.authenticate(credentials(current.clientId(), "new secret"), null, "192.0.2.1",
                "/oauth/token"),
                "the new secret works at once");
        assertSame(cached, authenticator.authenticate(credentials(cached.clientId(), "old secret"), null, "192.0.2.1",
                "/oauth/token"),
                "the cached copy still takes the old secret (for at most the cache's bound)");
        OAuthException wrong = assertThrows(OAuthException.class,
                () -> authenticator.authenticate(credentials(current.clientId(), "neither"), null, "192.0.2.1",
                        "/oauth/token"));
        assertEquals(OAuthError.INVALID_CLIENT, wrong.error());
    }

    private static ProtocolParameters credentials(String clientId, String secret) {
        return ProtocolParameters.fromForm("client_id=" + URLEncoder.encode(clientId, StandardCharsets.UTF_8)
                + "&client_secret=" + URLEncoder.encode(secret, StandardCharsets.UTF_8));
    }
}
