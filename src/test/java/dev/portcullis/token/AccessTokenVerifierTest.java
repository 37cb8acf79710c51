package dev.portcullis.token;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.portcullis.config.IssuerSettings;
import dev.portcullis.config.KeySettings;
import dev.portcullis.config.TestSettings;
import dev.portcullis.config.TokenSettings;
import dev.portcullis.jose.SigningKeys;
import dev.portcullis.jose.SigningKeysTestSupport;
import dev.portcullis.jose.TokenMinter;
import dev.portcullis.persistence.Jdbc;
import dev.portcullis.protocol.OAuthError;
import dev.portcullis.protocol.OAuthException;
import dev.portcullis.session.AuthMethods;
import jakarta.persistence.PersistenceException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Instant;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The resource-side check of access tokens: signature, header, claims, then the jti row and its grant. */
class AccessTokenVerifierTest {

    static final String ISSUER = "https://id.example.com";

    static final IssuerSettings ISSUER_SETTINGS = new IssuerSettings(URI.create(ISSUER));
    /** The defaults: ES256 access tokens of an hour for {@code <issuer>/api}. */
    static final TokenSettings TOKENS = TestSettings.tokens(Map.of("portcullis.issuer", ISSUER));
    static final KeySettings KEYS = TestSettings.keys(Map.of("portcullis.keys.encryption-key",
            Base64.getEncoder().encodeToString(new byte[32])));

    /** access_tokens joined with token_grants, in memory; {@code failure} set = the database is unreachable. */
    static class Rows extends TokenGrants {
        final Map<String, AccessTokenStatus> byJti = new HashMap<>();
        RuntimeException failure;

        @Override
        public Optional<AccessTokenStatus> accessTokenStatus(String jti) {
            if (failure != null) {
                throw failure;
            }
            return Optional.ofNullable(byJti.get(jti));
        }
    }

    private final Clock clock = Clock.systemUTC();
    private final SigningKeys keys = SigningKeysTestSupport.inMemory(ISSUER_SETTINGS, TOKENS, KEYS, clock);
    private final Rows rows = new Rows();
    private final TokenMinter minter = new TokenMinter();
    private final AccessTokenVerifier verifier = new AccessTokenVerifier();

    AccessTokenVerifierTest() {
        SigningKeysTestSupport.wire(minter, keys, ISSUER_SETTINGS, TOKENS);
        verifier.keys = keys;
        verifier.grants = rows;
        verifier.issuer = ISSUER_SETTINGS;
        verifier.tokenSettings = TOKENS;
        verifier.clock = clock;
    }

    private String mint(String jti, boolean grantRevoked, boolean tokenRevoked, Instant expiresAt) throws Exception {
        Instant now = clock.instant();
        TokenGrant grant = new TokenGrant("grant-" + jti, "client-1", "user-1", "openid read_user", now, now,
                Set.of("pwd"), java.util.List.of());
        String token = minter.accessToken(new TokenMinter.AccessTokenClaims(jti, "user-1", "client-1", "read_user", now,
                now.minusSeconds(1), expiresAt, java.util.List.of(TOKENS.accessTokenAudience()), null));
        AccessTokenRecord record = new AccessTokenRecord(jti, grant.grantId(), "read_user", now, expiresAt, token);
        if (grantRevoked) {
            grant = new TokenGrant(grant.grantId(), grant.clientId(), grant.userId(), grant.scope(), grant.authTime(),
                    grant.createdAt(), now, grant.amr());
        }
        if (tokenRevoked) {
            record = new AccessTokenRecord(record.jti(), record.grantId(), record.scope(), record.createdAt(),
                    record.expiresAt(), now, record.tokenHash());
        }
        rows.byJti.put(jti, new TokenGrants.AccessTokenStatus(record, grant));
        return token;
    }

    /** A record written before V2 (no token hash): the verifier falls back to the signature. */
    private void forgetHash(String jti) {
        TokenGrants.AccessTokenStatus s = rows.byJti.get(jti);
        AccessTokenRecord r = s.token();
        rows.byJti.put(jti, new TokenGrants.AccessTokenStatus(new AccessTokenRecord(r.jti(), r.grantId(), r.scope(),
                r.createdAt(), r.expiresAt(), r.revokedAt(), null), s.grant()));
    }

    @Test
    void recordsWithoutHashAreCheckedBySignature() throws Exception {
        String good = mint("jti-legacy", false, false, clock.instant().plusSeconds(600));
        forgetHash("jti-legacy");
        assertEquals("user-1", verifier.verify(good).subject());
        String[] parts = good.split("\\.");
        String forgedSignature = parts[2].substring(0, 10) + (parts[2].charAt(10) == 'A' ? 'B' : 'A') + parts[2].substring(11);
        assertTrue(verifier.check(parts[0] + "." + parts[1] + "." + forgedSignature).isEmpty());
    }

    @Test
    void validTokenIsAccepted() throws Exception {
        String at = mint("jti-ok", false, false, clock.instant().plusSeconds(600));
        AccessTokenVerifier.VerifiedAccessToken v = verifier.verify(at);
        assertEquals("user-1", v.subject());
        assertEquals("client-1", v.clientId());
        assertEquals(Set.of("read_user"), v.scopes());
        assertEquals("grant-jti-ok", v.grantId());
    }

    @Test
    void revokedGrantOrTokenIsRefused() throws Exception {
        assertTrue(verifier.check(mint("jti-g", true, false, clock.instant().plusSeconds(600))).isEmpty());
        assertTrue(verifier.check(mint("jti-t", false, true, clock.instant().plusSeconds(600))).isEmpty());
        OAuthException e = assertThrows(OAuthException.class,
                () -> verifier.verify(mint("jti-g2", true, false, clock.instant().plusSeconds(600))));
        assertEquals(OAuthError.INVALID_TOKEN, e.error());
        assertEquals(401, e.status());
        assertTrue(e.wwwAuthenticate().startsWith("Bearer"));
    }

    @Test
    void expiredUnknownOrTamperedTokensAreRefused() throws Exception {
        assertTrue(verifier.check(mint("jti-exp", false, false, clock.instant().minusSeconds(1))).isEmpty());
        String at = mint("jti-gone", false, false, clock.instant().plusSeconds(600));
        rows.byJti.remove("jti-gone");
        assertTrue(verifier.check(at).isEmpty(), "no access_tokens row: refused");

        String good = mint("jti-t2", false, false, clock.instant().plusSeconds(600));
        String[] parts = good.split("\\.");
        String otherPayload = mint("jti-t3", false, false, clock.instant().plusSeconds(600)).split("\\.")[1];
        assertTrue(verifier.check(parts[0] + "." + otherPayload + "." + parts[2]).isEmpty(), "signature must match");
        assertTrue(verifier.check("not-a-jwt").isEmpty());
        assertTrue(verifier.check(null).isEmpty());
        assertTrue(verifier.check(good + ".extra").isEmpty(), "four parts");
        assertTrue(verifier.check("e30!." + parts[1] + "." + parts[2]).isEmpty(), "not base64url");
        String none = Base64.getUrlEncoder().withoutPadding().encodeToString(
                "{\"alg\":\"none\",\"typ\":\"at+jwt\"}".getBytes(StandardCharsets.UTF_8));
        assertTrue(verifier.check(none + "." + parts[1] + ".").isEmpty(), "alg none");
        assertEquals("user-1", verifier.verify(good).subject(), "the untouched token is still good");
    }

    @Test
    void databaseErrorsAreNotReadAsInvalidTokens() throws Exception {
        String at = mint("jti-db", false, false, clock.instant().plusSeconds(600));
        rows.failure = new Jdbc.PersistenceFailure("SELECT a.jti FROM access_tokens a",
                new SQLException("gone", "08006"));
        assertSame(rows.failure, assertThrows(Jdbc.PersistenceFailure.class, () -> verifier.check(at)));
        assertThrows(Jdbc.PersistenceFailure.class, () -> verifier.verify(at));
        rows.failure = new PersistenceException("connection refused");
        assertThrows(PersistenceException.class, () -> verifier.check(at));
        rows.failure = null;
        assertEquals("user-1", verifier.verify(at).subject(), "the same token is good once the database is back");
    }

    @Test
    void idTokenIsNotAnAccessToken() throws Exception {
        mint("jti-id", false, false, clock.instant().plusSeconds(600));
        Instant now = clock.instant();
        String idToken = minter.idToken(new TokenMinter.IdTokenClaims("user-1", "client-1", now, List.of("pwd"),
                AuthMethods.ACR_PWD, null, "at", now,
                now.plusSeconds(600), Map.of()));
        assertTrue(verifier.check(idToken).isEmpty(), "typ must be at+jwt");
    }
}
