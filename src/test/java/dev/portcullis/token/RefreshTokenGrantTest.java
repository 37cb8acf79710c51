package dev.portcullis.token;

import dev.portcullis.metrics.TestMetrics;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.portcullis.audit.AuditEvent;
import dev.portcullis.client.Client;
import dev.portcullis.client.TestClients;
import dev.portcullis.protocol.OAuthError;
import dev.portcullis.protocol.OAuthException;
import dev.portcullis.protocol.ProtocolParameters;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The checks of grant_type=refresh_token, each on its own, without a server. */
class RefreshTokenGrantTest {

    private static final long NOW = GrantFakes.NOW.getEpochSecond();

    private final Client client = TestClients.confidential("openid profile email", "https://app.example.com/cb");

    private final GrantFakes.Grants grants = new GrantFakes.Grants();
    private final GrantFakes.Issuer issuer = new GrantFakes.Issuer();
    private final GrantFakes.Audit audit = new GrantFakes.Audit();
    private final GrantFakes.SignIns signIns = new GrantFakes.SignIns();
    private final RefreshTokenGrant grant = new RefreshTokenGrant();
    private final GrantFakes.Apis apis = new GrantFakes.Apis();

    RefreshTokenGrantTest() {
        grant.grants = grants;
        grant.issuer = issuer;
        grant.audit = audit;
        grant.metrics = TestMetrics.create();
        grant.clock = GrantFakes.CLOCK;
        grant.resourceIndicators = apis;
        grant.tokenSettings = GrantFakes.Config.tokens();
        grant.signIns = signIns;
    }

    private static Instant at(long epochSecond) {
        return Instant.ofEpochSecond(epochSecond);
    }

    /** Stores a refresh token "rt" of grant "grant-1". */
    private RefreshToken stored(String clientId, boolean revoked, boolean used, long expiresAt) {
        return stored(clientId, revoked, used, expiresAt, NOW - 600);
    }

    /** Stores a refresh token "rt" of grant "grant-1", the grant (the family) created at {@code grantCreatedAt}. */
    private RefreshToken stored(String clientId, boolean revoked, boolean used, long expiresAt, long grantCreatedAt) {
        TokenGrant g = new TokenGrant("grant-1", clientId, "user-1", "openid profile", at(grantCreatedAt),
                at(grantCreatedAt), revoked ? at(NOW - 10) : null, Set.of("pwd"));
        RefreshToken t = new RefreshToken("rt-id", "hash", "grant-1", "openid profile", at(NOW - 60), at(expiresAt),
                used ? at(NOW - 5) : null);
        grants.refreshTokens.put("rt", new TokenGrantRepository.RefreshTokenStatus(t, g));
        return t;
    }

    private RefreshToken stored() {
        return stored(client.clientId(), false, false, NOW + 3600);
    }

    private TokenResponse refresh(String form) {
        return grant.handle(client, ProtocolParameters.fromForm("grant_type=refresh_token&" + form), "192.0.2.1", null);
    }

    private OAuthException refused(String form) {
        return assertThrows(OAuthException.class, () -> refresh(form));
    }

    /** Stores a refresh token "rt" of a grant whose refresh tokens are bound to the DPoP key {@code jkt}. */
    private void storedBoundTo(String jkt) {
        TokenGrant g = new TokenGrant("grant-1", client.clientId(), "user-1", "openid profile", at(NOW - 600),
                at(NOW - 600), null, Set.of("pwd"), List.of(), null, null, jkt);
        RefreshToken t = new RefreshToken("rt-id", "hash", "grant-1", "openid profile", at(NOW - 60),
                at(NOW + 3600), null);
        grants.refreshTokens.put("rt", new TokenGrantRepository.RefreshTokenStatus(t, g));
    }

    @Test
    void refreshOfABoundTokenWithoutAProofIsInvalidDpopProofAndNothingIsRevoked() {
        storedBoundTo("key-a");
        OAuthException e = assertThrows(OAuthException.class, () -> grant.handle(client,
                ProtocolParameters.fromForm("grant_type=refresh_token&refresh_token=rt"), "192.0.2.1", null));
        assertEquals(OAuthError.INVALID_DPOP_PROOF, e.error());
        assertEquals(List.of(), issuer.issuedFor);
        assertEquals(List.of(), grants.revoked);
    }

    @Test
    void refreshOfABoundTokenWithAnotherKeysProofIsInvalidDpopProof() {
        storedBoundTo("key-a");
        OAuthException e = assertThrows(OAuthException.class, () -> grant.handle(client,
                ProtocolParameters.fromForm("grant_type=refresh_token&refresh_token=rt"), "192.0.2.1", "key-b"));
        assertEquals(OAuthError.INVALID_DPOP_PROOF, e.error());
        assertEquals(List.of(), issuer.issuedFor);
    }

    @Test
    void refreshOfABoundTokenWithTheBoundKeysProofIsRotated() {
        storedBoundTo("key-a");
        assertSame(GrantFakes.ISSUED, grant.handle(client,
                ProtocolParameters.fromForm("grant_type=refresh_token&refresh_token=rt"), "192.0.2.1", "key-a"));
    }

    @Test
    void grantTypeIsRefreshToken() {
        assertEquals("refresh_token", grant.grantType());
    }

    @Test
    void refreshWhenEveryCheckPassesThenRotatedWithTheGrantedScope() {
        RefreshToken t = stored();
        assertSame(GrantFakes.ISSUED, refresh("refresh_token=rt"));
        assertEquals(List.of(t), issuer.issuedFor);
        assertEquals("openid profile", issuer.rotatedScope);
    }

    @Test
    void refreshWhenTheDirectoryNoLongerHasTheUserThenInvalidGrantAndTheFamilyRevoked() {
        stored();
        signIns.refused = java.util.Set.of("user-1");
        OAuthException e = refused("refresh_token=rt");
        assertEquals(OAuthError.INVALID_GRANT, e.error());
        assertEquals("The user's directory account no longer exists or is disabled", e.description());
        assertEquals(List.of("grant-1"), grants.revoked);
        assertEquals(List.of(), issuer.issuedFor);
    }

    @Test
    void refreshWhenTokenUnknownThenInvalidGrant() {
        stored();
        OAuthException e = refused("refresh_token=other");
        assertEquals(OAuthError.INVALID_GRANT, e.error());
        assertEquals("Unknown refresh token", e.description());
    }

    @Test
    void refreshWhenTokenMissingThenInvalidRequest() {
        assertEquals(OAuthError.INVALID_REQUEST, refused("scope=openid").error());
    }

    @Test
    void refreshWhenTokenIssuedToAnotherClientThenInvalidGrantAndNothingRevoked() {
        stored("someone-else", false, false, NOW + 3600);
        OAuthException e = refused("refresh_token=rt");
        assertEquals(OAuthError.INVALID_GRANT, e.error());
        assertTrue(e.description().contains("another client"), e.description());
        assertTrue(grants.revoked.isEmpty());
    }

    @Test
    void refreshWhenGrantRevokedThenInvalidGrant() {
        stored(client.clientId(), true, false, NOW + 3600);
        OAuthException e = refused("refresh_token=rt");
        assertEquals(OAuthError.INVALID_GRANT, e.error());
        assertTrue(e.description().contains("revoked"), e.description());
    }

    @Test
    void refreshWhenTokenAlreadyUsedThenInvalidGrantAndFamilyRevoked() {
        stored(client.clientId(), false, true, NOW + 3600);
        OAuthException e = refused("refresh_token=rt");
        assertEquals(OAuthError.INVALID_GRANT, e.error());
        assertTrue(e.description().contains("already used"), e.description());
        assertEquals(List.of("grant-1"), grants.revoked);
        assertEquals(List.of(AuditEvent.Type.REFRESH_TOKEN_REUSED), audit.failures);
        assertTrue(issuer.issuedFor.isEmpty());
    }

    @Test
    void refreshWhenTokenExpiredThenInvalidGrant() {
        stored(client.clientId(), false, false, NOW);
        OAuthException e = refused("refresh_token=rt");
        assertEquals(OAuthError.INVALID_GRANT, e.error());
        assertTrue(e.description().contains("expired"), e.description());
    }

    @Test
    void refreshWhenTheFamilyReachedItsMaximumLifetimeThenInvalidGrantAndNothingIssued() {
        long familyEnd = GrantFakes.Config.MAX_LIFETIME.toSeconds();
        stored(client.clientId(), false, false, NOW + 3600, NOW - familyEnd);
        OAuthException e = refused("refresh_token=rt");
        assertEquals(OAuthError.INVALID_GRANT, e.error());
        assertTrue(e.description().contains("maximum lifetime"), e.description());
        assertTrue(issuer.issuedFor.isEmpty());
        assertTrue(grants.revoked.isEmpty(), "an old family is refused, not treated as an attack");
    }

    @Test
    void refreshWhenTheFamilyEndsInASecondThenRotated() {
        long familyEnd = GrantFakes.Config.MAX_LIFETIME.toSeconds();
        RefreshToken t = stored(client.clientId(), false, false, NOW + 3600, NOW - familyEnd + 1);
        assertSame(GrantFakes.ISSUED, refresh("refresh_token=rt"));
        assertEquals(List.of(t), issuer.issuedFor);
    }

    @Test
    void aRotatedRefreshTokenNeverOutlivesItsFamily() {
        Duration ttl = Duration.ofDays(30);
        Duration max = Duration.ofDays(90);
        TokenGrant young = new TokenGrant("g", "c", "u", "openid", at(NOW), at(NOW), null, Set.of("pwd"));
        assertEquals(at(NOW).plus(ttl), young.refreshTokenExpiry(at(NOW), ttl, max), "a young family: the full ttl");
        TokenGrant old = new TokenGrant("g", "c", "u", "openid", at(NOW - Duration.ofDays(80).toSeconds()),
                at(NOW - Duration.ofDays(80).toSeconds()), null, Set.of("pwd"));
        assertEquals(old.createdAt().plus(max), old.refreshTokenExpiry(at(NOW), ttl, max),
                "ten days before the family's end: the token expires with the family");
    }

    @Test
    void refreshWhenAParallelRequestRotatedFirstThenFamilyRevoked() {
        stored();
        issuer.loseRace = true;
        assertEquals(OAuthError.INVALID_GRANT, refused("refresh_token=rt").error());
        assertEquals(List.of("grant-1"), grants.revoked);
    }

    @Test
    void refreshWhenScopeNarrowedThenTheAccessTokenGetsTheNarrowerScope() {
        stored();
        refresh("refresh_token=rt&scope=openid");
        assertEquals("openid", issuer.rotatedScope);
    }

    @Test
    void refreshWhenScopeWidenedThenInvalidScope() {
        stored();
        assertEquals(OAuthError.INVALID_SCOPE, refused("refresh_token=rt&scope=openid%20email").error());
        assertTrue(issuer.issuedFor.isEmpty());
    }

    @Test
    void refreshScopeMayNarrowNeverWiden() {
        assertEquals("openid profile", RefreshTokenGrant.narrow("openid profile", Optional.empty()));
        assertEquals("openid", RefreshTokenGrant.narrow("openid profile", Optional.of("openid")));
        assertEquals("openid profile", RefreshTokenGrant.narrow("openid profile", Optional.of("   ")),
                "a blank scope asks for nothing narrower");
        OAuthException e = assertThrows(OAuthException.class,
                () -> RefreshTokenGrant.narrow("openid profile", Optional.of("openid email")));
        assertEquals(OAuthError.INVALID_SCOPE, e.error());
    }
}
