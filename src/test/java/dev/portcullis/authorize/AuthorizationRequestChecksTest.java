package dev.portcullis.authorize;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.portcullis.client.Client;
import dev.portcullis.client.TestClients;
import dev.portcullis.protocol.OAuthError;
import dev.portcullis.protocol.OAuthException;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** One test group per validation check of the authorization endpoint, in the order they are applied. */
class AuthorizationRequestChecksTest {

    private final Client conf = TestClients.confidential("openid profile email", "https://app.example.com/cb");
    private final Client two = TestClients.confidential("openid", "https://a.example.com/cb", "https://b.example.com/cb");
    private final Client pub = TestClients.publicClient("openid", "http://127.0.0.1/cb", "com.example.app:/cb");


    // 1a
    @Test
    void clientIdMissingIsAnErrorPage() {
        UnverifiedRequestException e = assertThrows(UnverifiedRequestException.class,
                () -> AuthorizationRequestChecks.clientIsKnown(Optional.empty(), Optional.empty()));
        assertEquals("error.clientMissing", e.messageKey());
    }

    @Test
    void unknownClientIsAnErrorPage() {
        UnverifiedRequestException e = assertThrows(UnverifiedRequestException.class,
                () -> AuthorizationRequestChecks.clientIsKnown(Optional.of("nope"), Optional.empty()));
        assertEquals("error.clientUnknown", e.messageKey());
    }

    @Test
    void knownClientPasses() {
        assertSame(conf, AuthorizationRequestChecks.clientIsKnown(Optional.of("conf-1"), Optional.of(conf)));
    }

    // 1b
    @Test
    void registeredRedirectUriPasses() {
        assertEquals("https://app.example.com/cb",
                AuthorizationRequestChecks.redirectUriIsRegistered(conf, Optional.of("https://app.example.com/cb")));
    }

    @ParameterizedTest
    @ValueSource(strings = {"https://app.example.com/cb/", "https://app.example.com/CB", "https://app.example.com/cb?x=1",
            "https://evil.example.com/cb", "https://app.example.com/cb#f", "http://app.example.com/cb"})
    void anythingButTheExactStringIsAnErrorPage(String uri) {
        UnverifiedRequestException e = assertThrows(UnverifiedRequestException.class,
                () -> AuthorizationRequestChecks.redirectUriIsRegistered(conf, Optional.of(uri)));
        assertEquals("error.redirectUnregistered", e.messageKey());
    }

    @Test
    void omittedRedirectUriUsesTheOnlyRegisteredOne() {
        assertEquals("https://app.example.com/cb",
                AuthorizationRequestChecks.redirectUriIsRegistered(conf, Optional.empty()));
    }

    @Test
    void omittedRedirectUriWithSeveralRegisteredIsAnErrorPage() {
        UnverifiedRequestException e = assertThrows(UnverifiedRequestException.class,
                () -> AuthorizationRequestChecks.redirectUriIsRegistered(two, Optional.empty()));
        assertEquals("error.redirectMissing", e.messageKey());
    }

    // 1c
    @Test
    void openIdRequestsMustNameTheirRedirectUri() {
        UnverifiedRequestException e = assertThrows(UnverifiedRequestException.class,
                () -> AuthorizationRequestChecks.openIdRequestNamesRedirectUri(Optional.of("profile openid"),
                        Optional.empty()));
        assertEquals("error.redirectMissing", e.messageKey());
        assertDoesNotThrow(() -> AuthorizationRequestChecks.openIdRequestNamesRedirectUri(Optional.of("openid"),
                Optional.of("https://app.example.com/cb")));
        assertDoesNotThrow(() -> AuthorizationRequestChecks.openIdRequestNamesRedirectUri(Optional.of("profile"),
                Optional.empty()));
        assertDoesNotThrow(() -> AuthorizationRequestChecks.openIdRequestNamesRedirectUri(Optional.empty(),
                Optional.empty()));
    }

    @Test
    void loopbackRedirectOfPublicClientMayUseAnyPort() {
        assertEquals("http://127.0.0.1:51234/cb",
                AuthorizationRequestChecks.redirectUriIsRegistered(pub, Optional.of("http://127.0.0.1:51234/cb")));
        assertThrows(UnverifiedRequestException.class,
                () -> AuthorizationRequestChecks.redirectUriIsRegistered(pub, Optional.of("http://127.0.0.1:51234/other")));
    }

    // 2: a request_uri that is not a pushed request's is not fetched, and says so instead of being ignored
    @Test
    void aForeignRequestUriIsRefused() {
        assertEquals(OAuthError.REQUEST_URI_NOT_SUPPORTED, assertThrows(OAuthException.class,
                () -> AuthorizationRequestChecks.requestUrisAreNotSupported(Optional.of("urn:example:request")))
                .error());
        assertDoesNotThrow(() -> AuthorizationRequestChecks.requestUrisAreNotSupported(Optional.empty()));
    }

    // 2: RFC 9101 10.5
    @Test
    void aClientThatMustSignIsRefusedAnUnsignedRequest() {
        assertEquals(OAuthError.INVALID_REQUEST, assertThrows(OAuthException.class,
                () -> AuthorizationRequestChecks.requestWasSignedWhenRequired(false)).error());
        assertDoesNotThrow(() -> AuthorizationRequestChecks.requestWasSignedWhenRequired(true));
    }

    // 2a
    @Test
    void responseTypeMustBeCode() {
        assertDoesNotThrow(() -> AuthorizationRequestChecks.responseTypeIsCode(Optional.of("code")));
        assertEquals(OAuthError.UNSUPPORTED_RESPONSE_TYPE, assertThrows(OAuthException.class,
                () -> AuthorizationRequestChecks.responseTypeIsCode(Optional.of("token"))).error());
        assertEquals(OAuthError.UNSUPPORTED_RESPONSE_TYPE, assertThrows(OAuthException.class,
                () -> AuthorizationRequestChecks.responseTypeIsCode(Optional.of("code id_token"))).error());
        assertEquals(OAuthError.INVALID_REQUEST, assertThrows(OAuthException.class,
                () -> AuthorizationRequestChecks.responseTypeIsCode(Optional.empty())).error());
    }

    // 2b
    @Test
    void scopeMustBePresentAndAllowed() {
        assertEquals(Set.of("openid", "email"),
                AuthorizationRequestChecks.scopeIsAllowed(conf, Optional.of("openid  email openid")));
        assertEquals(OAuthError.INVALID_SCOPE, assertThrows(OAuthException.class,
                () -> AuthorizationRequestChecks.scopeIsAllowed(conf, Optional.empty())).error());
        assertEquals(OAuthError.INVALID_SCOPE, assertThrows(OAuthException.class,
                () -> AuthorizationRequestChecks.scopeIsAllowed(conf, Optional.of("   "))).error());
        assertEquals(OAuthError.INVALID_SCOPE, assertThrows(OAuthException.class,
                () -> AuthorizationRequestChecks.scopeIsAllowed(conf, Optional.of("openid api"))).error());
    }

    // further parameters
    @Test
    void promptValues() {
        assertEquals(Set.of("login", "consent"), AuthorizationRequestChecks.promptIsValid(Optional.of("login consent")));
        assertEquals(Set.of(), AuthorizationRequestChecks.promptIsValid(Optional.empty()));
        assertThrows(OAuthException.class, () -> AuthorizationRequestChecks.promptIsValid(Optional.of("none login")));
        assertThrows(OAuthException.class, () -> AuthorizationRequestChecks.promptIsValid(Optional.of("select_account")));
    }

    @Test
    void maxAgeIsANonNegativeNumber() {
        assertNull(AuthorizationRequestChecks.maxAgeIsValid(Optional.empty()));
        assertEquals(0L, AuthorizationRequestChecks.maxAgeIsValid(Optional.of("0")));
        assertEquals(3600L, AuthorizationRequestChecks.maxAgeIsValid(Optional.of("3600")));
        for (String bad : List.of("-1", "1.5", "abc", "99999999999")) {
            assertThrows(OAuthException.class, () -> AuthorizationRequestChecks.maxAgeIsValid(Optional.of(bad)));
        }
    }

    @Test
    void nonceIsBounded() {
        assertDoesNotThrow(() -> AuthorizationRequestChecks.nonceFits(Optional.of("n".repeat(512))));
        assertThrows(OAuthException.class, () -> AuthorizationRequestChecks.nonceFits(Optional.of("n".repeat(513))));
    }
}
