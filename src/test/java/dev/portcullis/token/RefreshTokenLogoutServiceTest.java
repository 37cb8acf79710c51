package dev.portcullis.token;

import dev.portcullis.metrics.TestMetrics;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.portcullis.client.Client;
import dev.portcullis.client.ClientRepository;
import dev.portcullis.client.TestClients;
import dev.portcullis.config.SessionSettings;
import dev.portcullis.persistence.TestDatabase;
import dev.portcullis.protocol.OAuthError;
import dev.portcullis.protocol.OAuthException;
import dev.portcullis.protocol.ProtocolParameters;
import dev.portcullis.session.AuthMethods;
import dev.portcullis.session.SsoSessionRepository;
import dev.portcullis.session.TestSessions;
import dev.portcullis.testing.MutableClock;
import dev.portcullis.testing.RecordingAudit;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * {@link RefreshTokenLogoutService} on H2 with the real schema: a client's own live refresh token ends its family and the
 * SSO session of its {@code sid}, and nothing else; every other token ends nothing.
 */
class RefreshTokenLogoutServiceTest {

    private static final Instant NOW = Instant.parse("2026-01-31T12:00:00Z");
    private static final String CB = "https://app.example.com/cb";

    private final TestDatabase db = new TestDatabase();
    private final MutableClock clock = new MutableClock(NOW);
    private final TokenGrantRepository grants = new TokenGrantRepository();
    private final SsoSessionRepository sessions;
    private final RefreshTokenLogoutService signOut = new RefreshTokenLogoutService();
    private final Client mine = TestClients.confidentialWithSecret("mine", "openid", CB);
    private final RecordingAudit audit = new RecordingAudit();

    RefreshTokenLogoutServiceTest() {
        grants.jdbc = db.jdbc;
        grants.clock = clock;
        sessions = TestSessions.on(db.jdbc, new SessionSettings(Duration.ofHours(8), Duration.ofHours(24)), clock);
        ClientAuthenticator authenticator = new ClientAuthenticator();
        authenticator.audit = audit;
        authenticator.clock = clock;
        Client theirs = TestClients.publicClient("openid", CB);
        authenticator.clients = new ClientRepository() {
            @Override
            public Optional<Client> findCached(String clientId) {
                return find(clientId);
            }

            @Override
            public Optional<Client> find(String clientId) {
                return List.of(mine, theirs).stream().filter(c -> c.clientId().equals(clientId)).findFirst();
            }
        };
        signOut.authenticator = authenticator;
        signOut.grants = grants;
        signOut.sessions = sessions;
        signOut.clock = clock;
        signOut.audit = audit;
        signOut.metrics = TestMetrics.create();
        for (String client : List.of(mine.clientId(), theirs.clientId())) {
            db.jdbc.update("INSERT INTO clients (client_id, client_name, confidential, redirect_uris, "
                    + "post_logout_redirect_uris, scopes, skip_consent, created_at, updated_at) "
                    + "VALUES (?, ?, FALSE, 'https://a/cb', '', 'openid', FALSE, 0, 0)", client, client);
        }
        db.jdbc.update("INSERT INTO users (user_id, username, password_hash, created_at, updated_at) "
                + "VALUES ('u1', 'alice', 'x', 0, 0)");
        db.inTransaction = true;
    }

    /** A session of u1 and a refresh token of {@code clientId} issued in it; the token's value. */
    private String tokenInNewSession(String clientId, String[] sid) {
        SsoSessionRepository.Started s = sessions.start("u1", null, clientId, "192.0.2.1", AuthMethods.of("pwd"), false);
        sid[0] = s.session().sid();
        TokenGrant g = grants.createGrant("g-" + sid[0].substring(0, 8), clientId, "u1", "openid", NOW,
                AuthMethods.of("pwd"), List.of(), sid[0]);
        return grants.newRefreshToken(g, NOW, NOW.plusSeconds(3600));
    }

    private static ProtocolParameters form(String clientId, String secret, String refreshToken) {
        return ProtocolParameters.of(new jakarta.ws.rs.core.MultivaluedHashMap<>(secret == null
                ? Map.of("client_id", clientId, "refresh_token", refreshToken)
                : Map.of("client_id", clientId, "client_secret", secret, "refresh_token", refreshToken)));
    }

    private long liveSessions(String sid) {
        return db.jdbc.one("SELECT COUNT(*) AS n FROM sso_sessions WHERE sid = ?", r -> r.longValue("n"), sid)
                .orElse(0L);
    }

    private boolean revoked(String refreshToken) {
        return grants.findRefreshToken(refreshToken).orElseThrow().grant().isRevoked();
    }

    @Test
    void theClientsOwnLiveTokenEndsItsFamilyAndItsSessionOnly() {
        String[] sid = new String[1];
        String[] otherSid = new String[1];
        String token = tokenInNewSession(mine.clientId(), sid);
        String other = tokenInNewSession(mine.clientId(), otherSid);

        signOut.end(form(mine.clientId(), "mine", token), null, "192.0.2.9");

        assertTrue(revoked(token));
        assertEquals(0, liveSessions(sid[0]));
        assertFalse(revoked(other), "the user's other family stays");
        assertEquals(1, liveSessions(otherSid[0]), "and so does their other session");
        assertEquals(List.of("SIGN_OUT u1 refresh-token logout: grant g-" + sid[0].substring(0, 8)
                + " revoked, 1 SSO session ended"), audit.lines);
    }

    @Test
    void anythingButTheClientsOwnLiveTokenIsInvalidGrantAndEndsNothing() {
        String[] sid = new String[1];
        String token = tokenInNewSession(mine.clientId(), sid);
        String[] theirSid = new String[1];
        String theirs = tokenInNewSession("pub-1", theirSid);

        assertRefused(form(mine.clientId(), "mine", theirs), "another client's token");
        assertRefused(form("pub-1", null, token), "presented by another client");
        assertRefused(form(mine.clientId(), "mine", token + "x"), "an unknown token");
        clock.set(NOW.plusSeconds(3600));
        assertRefused(form(mine.clientId(), "mine", token), "an expired token");
        clock.set(NOW);
        assertTrue(grants.markRefreshTokenUsed(grants.findRefreshToken(token).orElseThrow().token()));
        assertRefused(form(mine.clientId(), "mine", token), "a used token");

        assertFalse(revoked(token));
        assertFalse(revoked(theirs));
        assertEquals(1, liveSessions(sid[0]));
        assertEquals(1, liveSessions(theirSid[0]));
        assertEquals(5, audit.lines.size(), audit.lines::toString);
        assertTrue(audit.lines.stream().allMatch(l -> l.startsWith("SIGN_OUT null refresh-token logout refused")),
                audit.lines::toString);
    }

    @Test
    void aFailedClientAuthenticationIsInvalidClient() {
        String[] sid = new String[1];
        String token = tokenInNewSession(mine.clientId(), sid);
        OAuthException e = assertThrows(OAuthException.class,
                () -> signOut.end(form(mine.clientId(), "wrong", token), null, "192.0.2.9"));
        assertEquals(OAuthError.INVALID_CLIENT, e.error());
        assertFalse(revoked(token));
        assertEquals(1, liveSessions(sid[0]));
    }

    @Test
    void theSecondLogoutWithTheSameTokenEndsNothingMore() {
        String[] sid = new String[1];
        String token = tokenInNewSession(mine.clientId(), sid);
        signOut.end(form(mine.clientId(), "mine", token), null, "192.0.2.9");
        assertRefused(form(mine.clientId(), "mine", token), "a revoked family");
        assertEquals(1, audit.lines.stream().filter(l -> l.contains("SSO session ended")).count());
    }

    private void assertRefused(ProtocolParameters p, String what) {
        OAuthException e = assertThrows(OAuthException.class, () -> signOut.end(p, null, "192.0.2.9"), what);
        assertEquals(OAuthError.INVALID_GRANT, e.error(), what);
    }
}
