package dev.portcullis.token;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.portcullis.client.Client;
import dev.portcullis.client.TestClients;
import dev.portcullis.protocol.OAuthError;
import dev.portcullis.protocol.OAuthException;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The checks of grant_type=client_credentials, each on its own, without a server. */
class ClientCredentialsGrantTest {

    private final Client client = TestClients.confidential("openid profile email groups read_user api",
            "https://app.example.com/cb");

    private static OAuthError refusal(Runnable check) {
        return assertThrows(OAuthException.class, check::run).error();
    }

    @Test
    void aPublicClientIsUnauthorized() {
        Client pub = TestClients.publicClient("read_user", "https://app.example.com/cb");
        assertEquals(OAuthError.UNAUTHORIZED_CLIENT,
                refusal(() -> ClientCredentialsGrant.clientIsConfidential(pub)));
    }

    @Test
    void withoutScopeTheClientGetsItsScopesWithoutTheUserScopes() {
        assertEquals("read_user api", ClientCredentialsGrant.scopeIsAllowed(client, Optional.empty()));
    }

    @Test
    void aRequestedScopeNarrows() {
        assertEquals("api", ClientCredentialsGrant.scopeIsAllowed(client, Optional.of("api")));
    }

    @Test
    void userScopesAreInvalid() {
        for (String s : new String[] {"openid", "offline_access", "profile", "email", "groups", "api openid"}) {
            assertEquals(OAuthError.INVALID_SCOPE,
                    refusal(() -> ClientCredentialsGrant.scopeIsAllowed(client, Optional.of(s))), s);
        }
    }

    @Test
    void aScopeTheClientLacksIsInvalid() {
        Client narrow = TestClients.confidential("openid read_user", "https://app.example.com/cb");
        assertEquals(OAuthError.INVALID_SCOPE,
                refusal(() -> ClientCredentialsGrant.scopeIsAllowed(narrow, Optional.of("api"))));
        assertEquals(OAuthError.INVALID_SCOPE,
                refusal(() -> ClientCredentialsGrant.scopeIsAllowed(narrow, Optional.of("unknown"))));
    }

    @Test
    void aClientWithOnlyUserScopesHasNoDefault() {
        Client oidc = TestClients.confidential("openid profile", "https://app.example.com/cb");
        assertEquals(OAuthError.INVALID_SCOPE,
                refusal(() -> ClientCredentialsGrant.scopeIsAllowed(oidc, Optional.empty())));
    }

    @Test
    void anEmptyScopeIsInvalid() {
        assertEquals(OAuthError.INVALID_SCOPE,
                refusal(() -> ClientCredentialsGrant.scopeIsAllowed(client, Optional.of("  "))));
    }
}
