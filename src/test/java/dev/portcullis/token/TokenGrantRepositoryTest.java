package dev.portcullis.token;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.portcullis.persistence.TestDatabase;
import dev.portcullis.session.AuthMethods;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** {@link TokenGrantRepository} on H2 with the real schema: rows written and mapped back, revocation by grant and by client. */
class TokenGrantRepositoryTest {

    private static final Instant NOW = Instant.parse("2026-01-31T12:00:00Z");

    private final TestDatabase db = new TestDatabase();
    private final TokenGrantRepository grants = new TokenGrantRepository();

    TokenGrantRepositoryTest() {
        grants.jdbc = db.jdbc;
        grants.clock = Clock.fixed(NOW, ZoneOffset.UTC);
        for (String client : List.of("c1", "c2")) {
            db.jdbc.update("INSERT INTO clients (client_id, client_name, confidential, redirect_uris, "
                    + "post_logout_redirect_uris, scopes, skip_consent, created_at, updated_at) "
                    + "VALUES (?, ?, FALSE, 'https://a/cb', '', 'openid', FALSE, 0, 0)", client, client);
        }
        db.jdbc.update("INSERT INTO users (user_id, username, password_hash, created_at, updated_at) "
                + "VALUES ('u1', 'alice', 'x', 0, 0)");
        db.jdbc.update("INSERT INTO users (user_id, username, password_hash, created_at, updated_at) "
                + "VALUES ('u2', 'bob', 'x', 0, 0)");
        db.inTransaction = true;
    }

    private TokenGrant grant(String id, String client) {
        return grants.createGrant(id, client, "u1", "openid profile", NOW.minusSeconds(30),
                AuthMethods.of("pwd", "otp"), List.of(), null);
    }

    private String accessToken(TokenGrant g, String jti) {
        grants.recordAccessToken(new AccessTokenRecord(jti, g.grantId(), "openid", NOW, NOW.plusSeconds(600),
                "token-" + jti));
        return "token-" + jti;
    }

    @Test
    void rowsReadBackAsWritten() {
        TokenGrant g = grant("g1", "c1");
        String token = accessToken(g, "j1");
        TokenGrantRepository.AccessTokenStatus s = grants.accessTokenStatus("j1").orElseThrow();
        assertEquals(g, s.grant());
        assertEquals(new TokenGrant("g1", "c1", "u1", "openid profile", NOW.minusSeconds(30), NOW, null,
                AuthMethods.of("pwd", "otp")), s.grant());
        assertEquals(List.of("pwd", "otp"), List.copyOf(s.grant().amr()), "in the order of the sign-in");
        assertEquals("openid", s.token().scope());
        assertEquals(NOW.plusSeconds(600), s.token().expiresAt());
        assertTrue(s.token().isExactly(token).orElseThrow());
        assertTrue(s.isActive(NOW));

        String refresh = grants.newRefreshToken(g, NOW, NOW.plusSeconds(3600));
        TokenGrantRepository.RefreshTokenStatus r = grants.findRefreshToken(refresh).orElseThrow();
        assertEquals(g, r.grant());
        assertFalse(r.token().isUsed());
        assertTrue(grants.markRefreshTokenUsed(r.token()));
        assertFalse(grants.markRefreshTokenUsed(r.token()), "used once only");
        assertEquals(NOW, grants.findRefreshToken(refresh).orElseThrow().token().usedAt());
        assertTrue(grants.findRefreshToken(refresh + "x").isEmpty(), "wrong secret");
    }

    @Test
    void familyStatementsNeedTheCallersTransaction() {
        db.inTransaction = false;
        assertThrows(IllegalStateException.class, () -> grant("g0", "c1"));
        assertThrows(IllegalStateException.class, () -> grants.revokeGrantsOf("u1", "c1"));
    }

    @Test
    void revokingAGrantRevokesItsAccessTokensOnly() {
        TokenGrant g1 = grant("g1", "c1");
        TokenGrant g2 = grant("g2", "c1");
        accessToken(g1, "j1");
        accessToken(g2, "j2");
        assertTrue(grants.revokeGrant("g1"));
        assertFalse(grants.revokeGrant("g1"), "already revoked");
        assertEquals(NOW, grants.accessTokenStatus("j1").orElseThrow().token().revokedAt());
        assertTrue(grants.accessTokenStatus("j1").orElseThrow().grant().isRevoked());
        assertNull(grants.accessTokenStatus("j2").orElseThrow().token().revokedAt());
        assertEquals(List.of("g2"), grants.liveGrantsOf("u1").stream().map(TokenGrant::grantId).toList());
    }

    @Test
    void revokingAUsersGrantsOfOneClientLeavesTheOtherClients() {
        accessToken(grant("g1", "c1"), "j1");
        accessToken(grant("g2", "c1"), "j2");
        accessToken(grant("g3", "c2"), "j3");
        assertEquals(2, grants.revokeGrantsOf("u1", "c1"));
        assertEquals(0, grants.revokeGrantsOf("u1", "c1"));
        assertFalse(grants.accessTokenStatus("j1").orElseThrow().isActive(NOW));
        assertFalse(grants.accessTokenStatus("j2").orElseThrow().isActive(NOW));
        assertTrue(grants.accessTokenStatus("j3").orElseThrow().isActive(NOW));
        assertEquals(List.of("g3"), grants.liveGrantsOf("u1").stream().map(TokenGrant::grantId).toList());
    }

    @Test
    void anEndedSsoSessionEndsTheFamiliesSignedInByItOnly() {
        accessToken(grants.createGrant("g1", "c1", "u1", "openid", NOW, Set.of("pwd"), List.of(), "sid-1"), "j1");
        accessToken(grants.createGrant("g2", "c2", "u1", "openid", NOW, Set.of("pwd"), List.of(), "sid-1"), "j2");
        accessToken(grants.createGrant("g3", "c1", "u1", "openid", NOW, Set.of("pwd"), List.of(), "sid-2"), "j3");
        accessToken(grants.createGrant("g4", "c1", "u1", "openid", NOW, Set.of("pwd"), List.of(), null), "j4");

        grants.ssoSessionsEnded(new dev.portcullis.session.SsoSessionsEnded(List.of("sid-1")));

        assertFalse(grants.accessTokenStatus("j1").orElseThrow().isActive(NOW));
        assertFalse(grants.accessTokenStatus("j2").orElseThrow().isActive(NOW));
        assertEquals(List.of("g3", "g4"), grants.liveGrantsOf("u1").stream().map(TokenGrant::grantId).sorted()
                .toList(), "another session's family, and one without a session, stay");
    }

    @Test
    void revokingEveryGrantOfAUserLeavesOtherUsers() {
        accessToken(grant("g1", "c1"), "j1");
        accessToken(grant("g2", "c2"), "j2");
        accessToken(grants.createGrant("g3", "c1", "u2", "openid", NOW, Set.of("pwd"), List.of(), null), "j3");
        assertEquals(2, grants.revokeAllGrantsOf("u1"));
        assertEquals(0, grants.revokeAllGrantsOf("u1"));
        assertFalse(grants.accessTokenStatus("j1").orElseThrow().isActive(NOW));
        assertFalse(grants.accessTokenStatus("j2").orElseThrow().isActive(NOW));
        assertTrue(grants.accessTokenStatus("j3").orElseThrow().isActive(NOW));
        assertTrue(grants.liveGrantsOf("u1").isEmpty());
        db.inTransaction = false;
        assertThrows(IllegalStateException.class, () -> grants.revokeAllGrantsOf("u1"), "joins the password change");
    }

    @Test
    void revokingTheOriginalGrantRevokesTheGrantsExchangedFromIt() {
        TokenGrant root = grant("g1", "c1");
        accessToken(root, "j1");
        accessToken(grants.createGrant("g2", "c2", "u1", "openid", NOW, Set.of("pwd"), List.of(), null, "g1", "j1"),
                "j2");
        accessToken(grants.createGrant("g3", "c1", "u1", "openid", NOW, Set.of("pwd"), List.of(), null, "g1", "j1"),
                "j3");
        accessToken(grant("g4", "c2"), "j4");
        assertEquals(root, grants.originalAuthorizationOf("g1").orElseThrow());
        assertEquals(root, grants.originalAuthorizationOf("g2").orElseThrow(),
                "an exchanged grant names the grant its chain started from");
        assertTrue(grants.originalAuthorizationOf("no-such-grant").isEmpty());
        assertTrue(grants.revokeGrant("g1"), "counts the grant itself only");
        for (String jti : List.of("j1", "j2", "j3")) {
            assertFalse(grants.accessTokenStatus(jti).orElseThrow().isActive(NOW), jti);
            assertTrue(grants.accessTokenStatus(jti).orElseThrow().grant().isRevoked(), jti);
        }
        assertTrue(grants.accessTokenStatus("j4").orElseThrow().isActive(NOW), "an unrelated grant stays");
    }

    @Test
    void revokingTheClientOfTheOriginalGrantRevokesTheExchangedGrantsOfOtherClients() {
        accessToken(grant("g1", "c1"), "j1");
        accessToken(grants.createGrant("g2", "c2", "u1", "openid", NOW, Set.of("pwd"), List.of(), null, "g1", "j1"),
                "j2");
        assertEquals(1, grants.revokeGrantsOf("u1", "c1"));
        assertFalse(grants.accessTokenStatus("j2").orElseThrow().isActive(NOW));
    }

    /** Three links: the user's grant g1 (c1, token j1), g2 of c2 exchanged from j1 (token j2), g3 of c3 from j2. */
    private void chain() {
        db.jdbc.update("INSERT INTO clients (client_id, client_name, confidential, redirect_uris, "
                + "post_logout_redirect_uris, scopes, skip_consent, created_at, updated_at) "
                + "VALUES ('c3', 'c3', TRUE, 'https://a/cb', '', 'openid', FALSE, 0, 0)");
        accessToken(grant("g1", "c1"), "j1");
        accessToken(grants.createGrant("g2", "c2", "u1", "payroll.read", NOW, Set.of("pwd"), List.of(), null, "g1",
                "j1"), "j2");
        accessToken(grants.createGrant("g3", "c3", "u1", "ledger.read", NOW, Set.of("pwd"), List.of(), null, "g1",
                "j2"), "j3");
    }

    private boolean active(String jti) {
        return grants.accessTokenStatus(jti).filter(s -> s.isActive(NOW)).isPresent();
    }

    @Test
    void revokingAnExchangedTokenEndsWhatWasExchangedFromIt() {
        chain();
        accessToken(grants.createGrant("g2b", "c2", "u1", "payroll.read", NOW, Set.of("pwd"), List.of(), null, "g1",
                "j1"), "j2b");
        assertTrue(grants.revokeAccessToken("j2"));
        assertFalse(active("j2"));
        assertFalse(active("j3"), "exchanged from j2");
        assertTrue(grants.accessTokenStatus("j3").orElseThrow().grant().isRevoked());
        assertTrue(active("j1"), "the link above stays");
        assertTrue(active("j2b"), "a sibling exchanged from j1 stays");
        assertFalse(grants.revokeAccessToken("j2"), "already revoked");
    }

    @Test
    void revokingTheGrantOfAMiddleLinkEndsTheLinksBelowIt() {
        chain();
        assertEquals(1, grants.revokeGrantsOf("u1", "c2"), "the backend's grant, as its client's disabling does");
        assertFalse(active("j2"));
        assertFalse(active("j3"));
        assertTrue(active("j1"));
    }

    @Test
    void disablingTheClientOfAMiddleLinkEndsTheLinksBelowIt() {
        chain();
        dev.portcullis.client.ClientAccessEnded event = dev.portcullis.client.TestClients.accessEnded("c2");
        grants.clientAccessEnded(event);
        assertEquals("1 token grant revoked", event.consequences(), "the exchanged grants below are not counted");
        assertFalse(active("j2"));
        assertFalse(active("j3"));
        assertTrue(active("j1"));
    }

    @Test
    void aChainOfAnyLengthEndsBelowTheRevokedLink() {
        chain();
        String previous = "j3";
        int last = TokenExchangeGrant.MAX_CHAIN + 1; // g2 to g11: the longest chain of exchanges
        for (int i = 4; i <= last; i++) {
            accessToken(grants.createGrant("g" + i, i % 2 == 0 ? "c2" : "c3", "u1", "ledger.read", NOW, Set.of("pwd"),
                    List.of(), null, "g1", previous), "j" + i);
            previous = "j" + i;
        }
        assertTrue(grants.revokeGrant("g3"));
        for (int i = 3; i <= last; i++) {
            assertFalse(active("j" + i), "j" + i);
        }
        assertTrue(active("j1") && active("j2"));
    }

    @Test
    void deletingTheClientOfAMiddleLinkDeletesTheLinksBelowIt() {
        chain();
        db.jdbc.update("DELETE FROM clients WHERE client_id = 'c2'");
        assertTrue(grants.accessTokenStatus("j2").isEmpty());
        assertTrue(grants.accessTokenStatus("j3").isEmpty(), "exchanged from a token of the deleted client");
        assertTrue(active("j1"));
    }

    @Test
    void anExchangeLocksItsSubjectTokenAndItsGrantOnlyWhileBothAreLive() {
        chain();
        assertTrue(grants.lockIfLive("g1", "j1"));
        assertFalse(grants.lockIfLive("g1", "j2"), "a token of another grant");
        assertFalse(grants.lockIfLive("no-such-grant", "j1"));
        assertFalse(grants.lockIfLive("g1", "no-such-token"));
        grants.revokeAccessToken("j2");
        assertFalse(grants.lockIfLive("g2", "j2"), "a revoked token is not exchanged from");
        grants.revokeGrant("g1");
        assertFalse(grants.lockIfLive("g1", "j1"), "nor a token of a revoked grant");
        db.inTransaction = false;
        assertThrows(IllegalStateException.class, () -> grants.lockIfLive("g1", "j1"),
                "the lock lasts the transaction");
    }
}
