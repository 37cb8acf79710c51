package dev.portcullis.jose;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.crypto.RSASSAVerifier;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import dev.portcullis.config.IssuerSettings;
import dev.portcullis.config.KeySettings;
import dev.portcullis.config.TestSettings;
import dev.portcullis.config.TokenSettings;
import java.net.URI;
import java.time.Clock;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The logout tokens of Back-Channel Logout 1.0 sec. 2.4, as {@link TokenMinter} signs them. */
class LogoutTokenTest {

    private static final String ISSUER = "https://id.example.com";
    private static final IssuerSettings ISSUER_SETTINGS = new IssuerSettings(URI.create(ISSUER));
    private static final TokenSettings TOKENS = TestSettings.tokens(Map.of("portcullis.issuer", ISSUER));
    private static final KeySettings KEYS = TestSettings.keys(Map.of("portcullis.keys.encryption-key",
            Base64.getEncoder().encodeToString(new byte[32])));
    private static final Instant NOW = Instant.parse("2026-01-31T12:00:00Z");

    private final SigningKeyService keys = SigningKeyServiceTestSupport.inMemory(ISSUER_SETTINGS, TOKENS, KEYS,
            Clock.systemUTC());
    private final TokenMinter minter = new TokenMinter();

    LogoutTokenTest() {
        SigningKeyServiceTestSupport.wire(minter, keys, ISSUER_SETTINGS, TOKENS);
    }

    @Test
    void aLogoutTokenIsASignedLogoutJwtWithTheEventAndNoNonce() throws Exception {
        SignedJWT jwt = SignedJWT.parse(minter.logoutToken(new TokenMinter.LogoutTokenClaims("jti-1", "user-1",
                "client-1", "sid-1", NOW, NOW.plusSeconds(120))));

        assertEquals("logout+jwt", jwt.getHeader().getType().getType());
        assertEquals(JWSAlgorithm.RS256, jwt.getHeader().getAlgorithm(), "signed as ID tokens are");
        RSAKey key = (RSAKey) keys.publicJwks().getKeyByKeyId(jwt.getHeader().getKeyID());
        assertTrue(jwt.verify(new RSASSAVerifier(key)), "with a key of the published JWKS");
        JWTClaimsSet c = jwt.getJWTClaimsSet();
        assertEquals(ISSUER, c.getIssuer());
        assertEquals(List.of("client-1"), c.getAudience());
        assertEquals("user-1", c.getSubject());
        assertEquals("sid-1", c.getStringClaim("sid"));
        assertEquals("jti-1", c.getJWTID());
        assertEquals(NOW, c.getIssueTime().toInstant());
        assertEquals(NOW.plusSeconds(120), c.getExpirationTime().toInstant());
        assertEquals(Map.of(TokenMinter.BACKCHANNEL_LOGOUT_EVENT, Map.of()), c.getJSONObjectClaim("events"));
        assertFalse(c.getClaims().containsKey("nonce"));
    }

    @Test
    void aSessionWithoutSidGivesATokenWithSubOnly() throws Exception {
        JWTClaimsSet c = SignedJWT.parse(minter.logoutToken(new TokenMinter.LogoutTokenClaims("jti-2", "user-1",
                "client-1", null, NOW, NOW.plusSeconds(120)))).getJWTClaimsSet();
        assertNull(c.getClaim("sid"));
        assertEquals("user-1", c.getSubject());
    }
}
