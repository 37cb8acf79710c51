package dev.portcullis.token;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.portcullis.protocol.OAuthException;
import org.junit.jupiter.api.Test;

class RefreshTokenGrantTest {

    @Test
    void refreshScopeMayNarrowNeverWiden() {
        assertEquals("openid profile", RefreshTokenGrant.narrow("openid profile", java.util.Optional.empty()));
        assertEquals("openid", RefreshTokenGrant.narrow("openid profile", java.util.Optional.of("openid")));
        OAuthException e = assertThrows(OAuthException.class,
                () -> RefreshTokenGrant.narrow("openid profile", java.util.Optional.of("openid email")));
        assertEquals("invalid_scope", e.error());
    }
}
