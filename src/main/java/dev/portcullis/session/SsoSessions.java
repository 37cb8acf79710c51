package dev.portcullis.session;

import dev.portcullis.account.UserAccessEnded;
import dev.portcullis.config.PortcullisConfig;
import dev.portcullis.crypto.Secrets;
import dev.portcullis.persistence.Jdbc;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * Server-side SSO sessions in the database, so any instance can read them and a restart keeps users signed in.
 * Lifetime: {@code portcullis.session.idle-ttl} since last use, at most {@code portcullis.session.max-ttl} in all.
 * The one owner of sso_sessions, in plain JDBC (every authorization request reads one), each operation a single
 * statement.
 */
@ApplicationScoped
public class SsoSessions {

    @Inject
    Jdbc jdbc;

    @Inject
    PortcullisConfig config;

    @Inject
    Clock clock;

    /** A new session and the cookie value that names it (returned once, stored only hashed). */
    public record Started(String cookieValue, SsoSession session) {
    }

    /**
     * Starts the session of a sign-in at {@code clientId} from {@code ip}. {@code signInRequest} is the fingerprint
     * of the authorization request the first factor was given for (see {@link #useSignIn}); {@code amr} the methods
     * of that first step.
     */
    public Started start(String userId, String signInRequest, String clientId, String ip, String amr,
                         boolean factorEnrolled) {
        String id = Secrets.newSecret();
        Instant now = Instant.ofEpochSecond(clock.instant().getEpochSecond());
        String clients = clientId == null ? "" : clientId;
        String address = ip == null || ip.length() <= 64 ? ip : ip.substring(0, 64);
        SsoSession s = new SsoSession(Secrets.hash(id), userId, now, now, now, now.plus(config.sessionMaxTtl()),
                signInRequest, Secrets.newTimeOrderedId(), address, clients, amr, factorEnrolled);
        jdbc.update("INSERT INTO sso_sessions (session_hash, user_id, auth_time, created_at, last_seen_at, expires_at, "
                + "sign_in_request, session_id, ip, client_ids, amr, factor_enrolled) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)",
                s.sessionHash(), userId, now.getEpochSecond(), now.getEpochSecond(), now.getEpochSecond(),
                s.expiresAt().getEpochSecond(), signInRequest, s.sessionId(), address, clients, amr, factorEnrolled);
        return new Started(id, s);
    }

    /**
     * Adds {@code clientId} to the clients the session has been used for, unless it is there: one statement the
     * first time a session serves a client, none after.
     */
    public void noteClient(SsoSession s, String clientId) {
        if (!s.clients().contains(clientId)) {
            jdbc.update("UPDATE sso_sessions SET client_ids = CASE WHEN client_ids = '' THEN ? "
                    + "ELSE client_ids || ' ' || ? END WHERE session_hash = ? AND LENGTH(client_ids) < 1900",
                    clientId, clientId, s.sessionHash());
        }
    }

    /**
     * Records a further factor given in this session (a step-up or the second step of a sign-in); returns the
     * session as it is now. {@code factorEnrolled} becomes true: whoever just used a factor has one.
     */
    public SsoSession addMethods(SsoSession s, String... methods) {
        String amr = AuthMethods.with(s.amr(), methods);
        jdbc.update("UPDATE sso_sessions SET amr = ?, factor_enrolled = TRUE WHERE session_hash = ?", amr,
                s.sessionHash());
        return new SsoSession(s.sessionHash(), s.userId(), s.authTime(), s.createdAt(), s.lastSeenAt(), s.expiresAt(),
                s.signInRequest(), s.sessionId(), s.ip(), s.clientIds(), amr, true);
    }

    /**
     * Uses up the sign-in of a session for one consent step: true only once, and only if the sign-in was made for
     * the request with this fingerprint no earlier than {@code notBefore}. One conditional statement, so two
     * instances answering the same form at once cannot both succeed.
     */
    public boolean useSignIn(SsoSession s, String requestFingerprint, Instant notBefore) {
        return jdbc.update("UPDATE sso_sessions SET sign_in_request = NULL WHERE session_hash = ? "
                + "AND sign_in_request = ? AND auth_time >= ?", s.sessionHash(), requestFingerprint,
                notBefore.getEpochSecond()) == 1;
    }

    /**
     * Notes that the user of this session now has a second factor (set up on the account page), so that the policy
     * {@code enrolled} asks for it before the session serves another client: the set-up alone proves no sign-in.
     */
    public void markFactorEnrolled(SsoSession s) {
        jdbc.update("UPDATE sso_sessions SET factor_enrolled = TRUE WHERE session_hash = ?", s.sessionHash());
    }

    /**
     * The live session named by a cookie value. An expired session is deleted when met; a live one's last use is
     * written at most once a minute ({@link SsoSession#dueForTouch}), so most requests only read.
     */
    public Optional<SsoSession> findLive(String cookieValue) {
        if (cookieValue == null || cookieValue.length() != 43) {
            return Optional.empty();
        }
        String hash = Secrets.hash(cookieValue);
        SsoSession s = jdbc.one("SELECT " + COLUMNS + " FROM sso_sessions WHERE session_hash = ?",
                SsoSessions::session, hash).orElse(null);
        if (s == null) {
            return Optional.empty();
        }
        Instant now = clock.instant();
        if (!s.isLive(now, config.sessionIdleTtl())) {
            jdbc.update("DELETE FROM sso_sessions WHERE session_hash = ?", hash);
            return Optional.empty();
        }
        if (s.dueForTouch(now)) {
            s = s.seenAt(now);
            long seen = s.lastSeenAt().getEpochSecond();
            jdbc.update("UPDATE sso_sessions SET last_seen_at = ? WHERE session_hash = ? AND last_seen_at < ?",
                    seen, hash, seen);
        }
        return Optional.of(s);
    }

    private static final String COLUMNS = "session_hash, user_id, auth_time, created_at, last_seen_at, expires_at, "
            + "sign_in_request, session_id, ip, client_ids, amr, factor_enrolled";

    static SsoSession session(Jdbc.Row row) throws SQLException {
        return new SsoSession(row.string("session_hash"), row.string("user_id"), row.instant("auth_time"),
                row.instant("created_at"), row.instant("last_seen_at"), row.instant("expires_at"),
                row.string("sign_in_request"), row.string("session_id"), row.string("ip"), row.string("client_ids"),
                row.string("amr"), row.bool("factor_enrolled"));
    }

    /**
     * A page of live sessions in id order (the order they started, for sessions started since V7), after
     * {@code afterId}; of one user when {@code userId} is not null.
     */
    public List<SsoSession> listLive(String userId, String afterId, int limit) {
        long now = clock.instant().getEpochSecond();
        String live = "SELECT " + COLUMNS + " FROM sso_sessions WHERE expires_at > ? AND last_seen_at > ? "
                + "AND session_id > ?";
        String order = " ORDER BY session_id FETCH FIRST ? ROWS ONLY";
        long idleSince = now - config.sessionIdleTtl().getSeconds();
        String after = afterId == null ? "" : afterId;
        return userId == null
                ? jdbc.list(live + order, SsoSessions::session, now, idleSince, after, limit)
                : jdbc.list(live + " AND user_id = ?" + order, SsoSessions::session, now, idleSince, after, userId,
                        limit);
    }

    /** How many sessions are live (neither expired nor idle too long; the console's dashboard). */
    public long countLive() {
        long now = clock.instant().getEpochSecond();
        return jdbc.one("SELECT COUNT(*) AS n FROM sso_sessions WHERE expires_at > ? AND last_seen_at > ?",
                r -> r.longValue("n"), now, now - config.sessionIdleTtl().getSeconds()).orElse(0L);
    }

    /** Ends the session with this administrative id; the user it belonged to, if there was one. */
    public Optional<String> endById(String sessionId) {
        if (sessionId == null || sessionId.isEmpty() || sessionId.length() > 64) {
            return Optional.empty();
        }
        Optional<String> userId = jdbc.one("SELECT user_id FROM sso_sessions WHERE session_id = ?",
                row -> row.string("user_id"), sessionId);
        return userId.filter(u -> jdbc.update("DELETE FROM sso_sessions WHERE session_id = ?", sessionId) == 1);
    }

    public void end(String cookieValue) {
        if (cookieValue != null && cookieValue.length() == 43) {
            jdbc.update("DELETE FROM sso_sessions WHERE session_hash = ?", Secrets.hash(cookieValue));
        }
    }

    /** Ends every session of {@code userId} (on every browser); returns how many there were. */
    public int endAllOf(String userId) {
        return jdbc.update("DELETE FROM sso_sessions WHERE user_id = ?", userId);
    }

    /** A new password or a disabled account signs the user out everywhere, in the transaction that changes it. */
    void accessEnded(@Observes UserAccessEnded change) {
        int n = endAllOf(change.userId());
        change.report(n + (n == 1 ? " SSO session" : " SSO sessions") + " ended");
    }

    /** Deletes sessions past their absolute end or idle for longer than the idle timeout. */
    public int purgeExpired() {
        long now = clock.instant().getEpochSecond();
        return jdbc.deleteInChunks("sso_sessions", "session_hash", "expires_at <= ? OR last_seen_at <= ?",
                now, now - config.sessionIdleTtl().getSeconds());
    }
}
