package dev.portcullis.token;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.source.ImmutableJWKSet;
import com.nimbusds.jose.proc.DefaultJOSEObjectTypeVerifier;
import com.nimbusds.jose.proc.JWSVerificationKeySelector;
import com.nimbusds.jose.proc.SecurityContext;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.proc.BadJWTException;
import com.nimbusds.jwt.proc.DefaultJWTClaimsVerifier;
import com.nimbusds.jwt.proc.DefaultJWTProcessor;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jwt.SignedJWT;
import dev.portcullis.config.IssuerSettings;
import dev.portcullis.config.KeySettings;
import dev.portcullis.config.TestSettings;
import dev.portcullis.config.TokenSettings;
import dev.portcullis.jose.SigningKeyService;
import dev.portcullis.jose.SigningKeyServiceTestSupport;
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
    /** The defaults: RS256 access tokens of an hour for {@code <issuer>/api}. */
    static final TokenSettings TOKENS = TestSettings.tokens(Map.of("portcullis.issuer", ISSUER));
    static final KeySettings KEYS = TestSettings.keys(Map.of("portcullis.keys.encryption-key",
            Base64.getEncoder().encodeToString(new byte[32])));

    /** access_tokens joined with token_grants, in memory; {@code failure} set = the database is unreachable. */
    static class Rows extends TokenGrantRepository {
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
    private final SigningKeyService keys = SigningKeyServiceTestSupport.inMemory(ISSUER_SETTINGS, TOKENS, KEYS, clock);
    private final Rows rows = new Rows();
    private final TokenMinter minter = new TokenMinter();
    private final AccessTokenVerifier verifier = new AccessTokenVerifier();

    AccessTokenVerifierTest() {
        SigningKeyServiceTestSupport.wire(minter, keys, ISSUER_SETTINGS, TOKENS);
        verifier.keys = keys;
        verifier.grants = rows;
        verifier.issuer = ISSUER_SETTINGS;
        verifier.tokenSettings = TOKENS;
        verifier.clock = clock;
    }

    private String mint(String jti, boolean grantRevoked, boolean tokenRevoked, Instant expiresAt) throws Exception {
        return mint(jti, grantRevoked, tokenRevoked, expiresAt, null);
    }

    private String mint(String jti, boolean grantRevoked, boolean tokenRevoked, Instant expiresAt,
                        JWSAlgorithm alg) {
        Instant now = clock.instant();
        TokenGrant grant = new TokenGrant("grant-" + jti, "client-1", "user-1", "openid read_user", now, now,
                Set.of("pwd"), java.util.List.of(), null);
        String token = minter.accessToken(new TokenMinter.AccessTokenClaims(jti, "user-1", "client-1", "read_user", now,
                now.minusSeconds(1), expiresAt, java.util.List.of(TOKENS.accessTokenAudience()), null, alg));
        AccessTokenRecord record = new AccessTokenRecord(jti, grant.grantId(), "read_user", now, expiresAt, token);
        if (grantRevoked) {
            grant = new TokenGrant(grant.grantId(), grant.clientId(), grant.userId(), grant.scope(), grant.authTime(),
                    grant.createdAt(), now, grant.amr());
        }
        if (tokenRevoked) {
            record = new AccessTokenRecord(record.jti(), record.grantId(), record.scope(), record.createdAt(),
                    record.expiresAt(), now, record.tokenHash());
        }
        rows.byJti.put(jti, new TokenGrantRepository.AccessTokenStatus(record, grant));
        return token;
    }

    /** A valid token of {@code audience} (for {@link #aTokenForAnotherApiIsRefusedByPortcullisOwnChecksOnly}). */
    private String mintFor(String jti, java.util.List<String> audience) {
        Instant now = clock.instant();
        TokenGrant grant = new TokenGrant("grant-" + jti, "client-1", "user-1", "openid read_user", now, now,
                Set.of("pwd"), java.util.List.of(), null);
        String token = minter.accessToken(new TokenMinter.AccessTokenClaims(jti, "user-1", "client-1", "read_user",
                now, now.minusSeconds(1), now.plusSeconds(600), audience, null, null));
        rows.byJti.put(jti, new TokenGrantRepository.AccessTokenStatus(new AccessTokenRecord(jti, grant.grantId(), "read_user",
                now, now.plusSeconds(600), token), grant));
        return token;
    }

    @Test
    void aTokenForAnotherApiIsRefusedByPortcullisOwnChecksOnly() {
        String own = TOKENS.accessTokenAudience();
        String payroll = mintFor("jti-payroll", java.util.List.of("https://payroll.corp.example"));
        assertTrue(verifier.check(payroll).isEmpty(), "userinfo and /api/v1 refuse it");
        OAuthException e = assertThrows(OAuthException.class, () -> verifier.verify(payroll));
        assertEquals(OAuthError.INVALID_TOKEN, e.error());
        assertEquals(java.util.List.of("https://payroll.corp.example"),
                verifier.checkAnyAudience(payroll).orElseThrow().audience(), "introspection and revocation find it");
        String both = mintFor("jti-both", java.util.List.of("https://payroll.corp.example", own));
        assertEquals("jti-both", verifier.verify(both).jti(), "Portcullis's own API among its audiences");
        assertEquals("jti-own", verifier.verify(mintFor("jti-own", java.util.List.of(own))).jti());
        for (String lookalike : java.util.List.of(own + "/", own.toUpperCase(java.util.Locale.ROOT), own + "x",
                own.substring(0, own.length() - 1))) {
            assertTrue(verifier.check(mintFor("jti-" + lookalike.length() + lookalike.hashCode(),
                    java.util.List.of(lookalike))).isEmpty(), lookalike);
        }
    }

    /** A record written before V2 (no token hash): the verifier falls back to the signature. */
    private void forgetHash(String jti) {
        TokenGrantRepository.AccessTokenStatus s = rows.byJti.get(jti);
        AccessTokenRecord r = s.token();
        rows.byJti.put(jti, new TokenGrantRepository.AccessTokenStatus(new AccessTokenRecord(r.jti(), r.grantId(), r.scope(),
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
    void tokensSignedWithAnyOfTheThreeAlgorithmsAreAcceptedWithAndWithoutTheirRecordedHash() throws Exception {
        for (JWSAlgorithm alg : List.of(JWSAlgorithm.RS256, JWSAlgorithm.PS256, JWSAlgorithm.ES256)) {
            String jti = "jti-" + alg;
            String at = mint(jti, false, false, clock.instant().plusSeconds(600), alg);
            SignedJWT jwt = SignedJWT.parse(at);
            assertEquals(alg, jwt.getHeader().getAlgorithm());
            assertEquals(alg, keys.publicJwks().getKeyByKeyId(jwt.getHeader().getKeyID()).getAlgorithm());
            assertEquals("user-1", verifier.verify(at).subject(), alg + " by its hash");
            forgetHash(jti);
            assertEquals("user-1", verifier.verify(at).subject(), alg + " by its signature");
        }
    }

    @Test
    void withoutAnAlgorithmOfItsOwnATokenIsSignedWithTheConfiguredOne() throws Exception {
        TokenSettings es = TestSettings.tokens(Map.of("portcullis.issuer", ISSUER,
                "portcullis.access-token.signing-alg", "ES256"));
        SigningKeyServiceTestSupport.wire(minter, keys, ISSUER_SETTINGS, es);
        assertEquals(JWSAlgorithm.ES256, SignedJWT.parse(mint("jti-es", false, false,
                clock.instant().plusSeconds(600))).getHeader().getAlgorithm());
        assertEquals(JWSAlgorithm.PS256, SignedJWT.parse(mint("jti-ps", false, false,
                clock.instant().plusSeconds(600), JWSAlgorithm.PS256)).getHeader().getAlgorithm(), "its own wins");
        SigningKeyServiceTestSupport.wire(minter, keys, ISSUER_SETTINGS, TOKENS);
        assertEquals(JWSAlgorithm.RS256, SignedJWT.parse(mint("jti-rs", false, false,
                clock.instant().plusSeconds(600))).getHeader().getAlgorithm(), "the default");
        assertThrows(IllegalArgumentException.class, () -> mint("jti-hs", false, false,
                clock.instant().plusSeconds(600), JWSAlgorithm.HS256));
    }

    @Test
    void aTokenWhoseHeaderNamesAnotherAlgorithmThanItsKeysIsRefused() throws Exception {
        String at = mint("jti-mix", false, false, clock.instant().plusSeconds(600), JWSAlgorithm.PS256);
        forgetHash("jti-mix");
        SignedJWT jwt = SignedJWT.parse(at);
        String[] parts = at.split("\\.");
        // the same PS256 signature under a header that claims RS256 for the PS256 key's kid
        String rsHeader = new JWSHeader.Builder(JWSAlgorithm.RS256).type(TokenMinter.AT_JWT)
                .keyID(jwt.getHeader().getKeyID()).build().toBase64URL().toString();
        assertTrue(verifier.check(rsHeader + "." + parts[1] + "." + parts[2]).isEmpty(), "kid of another algorithm");
        String unknownKid = new JWSHeader.Builder(JWSAlgorithm.PS256).type(TokenMinter.AT_JWT).keyID("ps256-99")
                .build().toBase64URL().toString();
        assertTrue(verifier.check(unknownKid + "." + parts[1] + "." + parts[2]).isEmpty(), "unknown kid");
        for (String alg : List.of("HS256", "none", "EdDSA")) {
            String header = Base64.getUrlEncoder().withoutPadding().encodeToString(("{\"alg\":\"" + alg
                    + "\",\"typ\":\"at+jwt\",\"kid\":\"" + jwt.getHeader().getKeyID() + "\"}")
                    .getBytes(StandardCharsets.UTF_8));
            assertTrue(verifier.check(header + "." + parts[1] + "." + parts[2]).isEmpty(), alg);
        }
        assertEquals("user-1", verifier.verify(at).subject(), "the untouched token is still good");
    }

    @Test
    void aBackendVerifiesTokensOfEachAlgorithmWithAJoseLibraryAndThePublishedJwksAlone() throws Exception {
        // the JWKS as a backend downloads it: JSON, public keys only
        JWKSet published = JWKSet.parse(keys.publicJwks().toString());
        for (JWSAlgorithm alg : List.of(JWSAlgorithm.RS256, JWSAlgorithm.PS256, JWSAlgorithm.ES256)) {
            Instant now = clock.instant();
            String token = minter.accessToken(new TokenMinter.AccessTokenClaims("jti-b-" + alg, "user-1", "client-1",
                    "openid groups", now, now, now.plusSeconds(600), List.of(ISSUER + "/api"), List.of("payroll"), alg));
            DefaultJWTProcessor<SecurityContext> backend = new DefaultJWTProcessor<>();
            backend.setJWSTypeVerifier(new DefaultJOSEObjectTypeVerifier<>(TokenMinter.AT_JWT));
            backend.setJWSKeySelector(new JWSVerificationKeySelector<>(alg, new ImmutableJWKSet<>(published)));
            backend.setJWTClaimsSetVerifier(new DefaultJWTClaimsVerifier<>(ISSUER + "/api",
                    new JWTClaimsSet.Builder().issuer(ISSUER).subject("user-1").build(),
                    Set.of("exp", "iat", "jti", "groups")));
            JWTClaimsSet claims = backend.process(token, null);
            assertEquals(List.of("payroll"), claims.getStringListClaim("groups"), alg.getName());
            DefaultJWTProcessor<SecurityContext> otherAudience = new DefaultJWTProcessor<>();
            otherAudience.setJWSTypeVerifier(new DefaultJOSEObjectTypeVerifier<>(TokenMinter.AT_JWT));
            otherAudience.setJWSKeySelector(new JWSVerificationKeySelector<>(alg, new ImmutableJWKSet<>(published)));
            otherAudience.setJWTClaimsSetVerifier(new DefaultJWTClaimsVerifier<>("https://other.example.com",
                    null, Set.of()));
            assertThrows(BadJWTException.class, () -> otherAudience.process(token, null), alg + ": another aud");
        }
    }

    @Test
    void groupsAreInTheAccessTokenOnlyWhenGiven() throws Exception {
        Instant now = clock.instant();
        String with = minter.accessToken(new TokenMinter.AccessTokenClaims("jti-g1", "user-1", "client-1", "groups",
                now, now, now.plusSeconds(60), List.of(ISSUER + "/api"), List.of("payroll", "staff"), null));
        assertEquals(List.of("payroll", "staff"), SignedJWT.parse(with).getJWTClaimsSet().getStringListClaim("groups"));
        String without = minter.accessToken(new TokenMinter.AccessTokenClaims("jti-g2", "user-1", "client-1",
                "read_user", now, now, now.plusSeconds(60), List.of(ISSUER + "/api"), null, null));
        assertNull(SignedJWT.parse(without).getJWTClaimsSet().getClaim("groups"));
    }

    @Test
    void idTokenIsNotAnAccessToken() throws Exception {
        mint("jti-id", false, false, clock.instant().plusSeconds(600));
        Instant now = clock.instant();
        String idToken = minter.idToken(new TokenMinter.IdTokenClaims("user-1", "client-1", now, List.of("pwd"),
                AuthMethods.ACR_PWD, null, "at", now,
                now.plusSeconds(600), Map.of(), null));
        assertTrue(verifier.check(idToken).isEmpty(), "typ must be at+jwt");
    }
}
