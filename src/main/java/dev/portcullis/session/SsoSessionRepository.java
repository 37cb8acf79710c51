package dev.portcullis.session;

import dev.portcullis.account.UserAccessEnded;
import dev.portcullis.config.SessionSettings;
import dev.portcullis.crypto.Secrets;
import dev.portcullis.persistence.Jdbc;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Event;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import jakarta.transaction.Transactional;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * Server-side SSO sessions in the database, so any instance can read them and a restart keeps users signed in.
 * Lifetime: {@code portcullis.session.idle-ttl} since last use, at most {@code portcullis.session.max-ttl} in all.
 * The one owner of sso_sessions, in plain JDBC (every authorization request reads one), each operation a single
 * statement, except ending sessions: that locks them, queues their back-channel logouts ({@link BackchannelLogout})
 * and deletes them in one transaction.
 */
@ApplicationScoped
public class SsoSessionRepository {

    @Inject
    Jdbc jdbc;

    @Inject
    SessionSettings sessionSettings;

    @Inject
    Clock clock;

    @Inject
    BackchannelLogout backchannel;

    @Inject
    Event<SsoSessionsEnded> sessionsEnded;

    /** A new session and the cookie value that names it (returned once, stored only hashed). */
    public record Started(String cookieValue, SsoSession session) {
    }

    /**
     * Starts the session of a sign-in at {@code clientId} from {@code ip}. {@code signInRequest} is the fingerprint
     * of the authorization request the first factor was given for (see {@link #useSignIn}); {@code amr} the methods
     * of that first step.
     */
    public Started start(String userId, String signInRequest, String clientId, String ip, Set<String> amr,
                         boolean factorEnrolled) {
        Instant now = Instant.ofEpochSecond(clock.instant().getEpochSecond());
        // a passwordless passkey is a second factor given now; a password is not (the account page asks again)
        Instant factorAt = AuthMethods.isMultiFactor(amr) && !AuthMethods.claim(amr).contains(AuthMethods.PWD)
                ? now : null;
        return insert(userId, signInRequest, clientId, ip, amr, factorEnrolled, factorAt, null, null, Set.of());
    }

    /**
     * {@link #start} in a browser that may still hold an earlier session ({@code earlierCookie}). When it is the same
     * user's (signing in again for {@code prompt=login}, {@code max_age} or a second factor), the new session takes
     * over its {@code sid} and clients, so those relying parties keep their sessions and tokens and hear of the final
     * logout under the {@code sid} they know; another user's earlier session ends as every logout does.
     */
    @Transactional
    public Started start(Optional<String> earlierCookie, String userId, String signInRequest, String clientId,
                         String ip, Set<String> amr, boolean factorEnrolled) {
        Optional<BackchannelLogout.Ending> earlier = earlierCookie.filter(c -> c.length() == 43)
                .flatMap(c -> takeOver(Secrets.hash(c), userId));
        Instant now = Instant.ofEpochSecond(clock.instant().getEpochSecond());
        Instant factorAt = AuthMethods.isMultiFactor(amr) && !AuthMethods.claim(amr).contains(AuthMethods.PWD)
                ? now : null;
        return insert(userId, signInRequest, clientId, ip, amr, factorEnrolled, factorAt, null,
                earlier.map(BackchannelLogout.Ending::sid).orElse(null),
                earlier.<Collection<String>>map(BackchannelLogout.Ending::clientIds).orElse(Set.of()));
    }

    /**
     * Removes the browser's earlier session: quietly when it is {@code userId}'s, whose sid and clients are returned
     * for the new session; otherwise ended with its notifications, and nothing is returned.
     */
    private Optional<BackchannelLogout.Ending> takeOver(String sessionHash, String userId) {
        List<BackchannelLogout.Ending> found = jdbc.list("SELECT user_id, sid, client_ids FROM sso_sessions "
                + "WHERE session_hash = ? FOR UPDATE", row -> new BackchannelLogout.Ending(row.string("user_id"),
                        row.string("sid"), row.words("client_ids")), sessionHash);
        if (found.isEmpty()) {
            return Optional.empty();
        }
        if (!found.get(0).userId().equals(userId) || found.get(0).sid() == null) {
            endWhere("session_hash = ?", sessionHash);
            return Optional.empty();
        }
        jdbc.update("DELETE FROM sso_sessions WHERE session_hash = ?", sessionHash);
        return Optional.of(found.get(0));
    }

    /**
     * The session that replaces {@code before} in its browser after the user changed their password there: the same
     * methods, enrolment and second-factor time, so the change reopens no factor change; only the password is
     * fresh ({@code auth_time} and {@code password_at} now).
     */
    public Started replace(SsoSession before, String clientId, String ip) {
        Instant now = Instant.ofEpochSecond(clock.instant().getEpochSecond());
        return insert(before.userId(), null, clientId, ip, before.amr(), before.factorEnrolled(), before.factorAt(),
                now, null, Set.of());
    }

    private Started insert(String userId, String signInRequest, String clientId, String ip, Set<String> amr,
                           boolean factorEnrolled, Instant factorAt, Instant passwordAt, String earlierSid,
                           Collection<String> earlierClients) {
        String id = Secrets.newSecret();
        Instant now = Instant.ofEpochSecond(clock.instant().getEpochSecond());
        Set<String> noted = new TreeSet<>(earlierClients);
        if (clientId != null && !clientId.isEmpty()) {
            noted.add(clientId);
        }
        Set<String> clients = Set.copyOf(noted);
        String address = ip == null || ip.length() <= 64 ? ip : ip.substring(0, 64);
        SsoSession s = new SsoSession(Secrets.hash(id), userId, now, now, now, now.plus(sessionSettings.maxTtl()),
                signInRequest, Secrets.newTimeOrderedId(), address, clients, amr, factorEnrolled, factorAt,
                passwordAt, earlierSid == null ? Secrets.newSecret() : earlierSid);
        jdbc.update("INSERT INTO sso_sessions (session_hash, user_id, auth_time, created_at, last_seen_at, expires_at, "
                + "sign_in_request, session_id, ip, client_ids, amr, factor_enrolled, factor_at, password_at, sid) "
                + "VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
                s.sessionHash(), userId, now.getEpochSecond(), now.getEpochSecond(), now.getEpochSecond(),
                s.expiresAt().getEpochSecond(), signInRequest, s.sessionId(), address, Jdbc.words(clients),
                Jdbc.words(amr), factorEnrolled, epochSeconds(factorAt), epochSeconds(passwordAt), s.sid());
        return new Started(id, s);
    }

    private static Long epochSeconds(Instant at) {
        return at == null ? null : at.getEpochSecond();
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
     * Records a further factor given in this session (a step-up or the second step of a sign-in, checked by the
     * caller) and when; returns the session as it is now. {@code factorEnrolled} becomes true: whoever just used a
     * factor has one. The only way a session's methods grow, so {@code acr} mfa always rests on a factor given.
     */
    public SsoSession addMethods(SsoSession s, String... methods) {
        Set<String> amr = AuthMethods.with(s.amr(), methods);
        Instant now = Instant.ofEpochSecond(clock.instant().getEpochSecond());
        jdbc.update("UPDATE sso_sessions SET amr = ?, factor_enrolled = TRUE, factor_at = ? WHERE session_hash = ?",
                Jdbc.words(amr), now.getEpochSecond(), s.sessionHash());
        return new SsoSession(s.sessionHash(), s.userId(), s.authTime(), s.createdAt(), s.lastSeenAt(), s.expiresAt(),
                s.signInRequest(), s.sessionId(), s.ip(), s.clients(), amr, true, now, s.passwordAt(), s.sid());
    }

    /**
     * Records that this session re-entered the password just now (checked by the caller): the step-up of a user
     * without a second factor, on the account page or before setting one up at sign-in. Changes neither {@code amr}
     * nor {@code auth_time}.
     */
    public SsoSession notePassword(SsoSession s) {
        Instant now = Instant.ofEpochSecond(clock.instant().getEpochSecond());
        jdbc.update("UPDATE sso_sessions SET password_at = ? WHERE session_hash = ?", now.getEpochSecond(),
                s.sessionHash());
        return new SsoSession(s.sessionHash(), s.userId(), s.authTime(), s.createdAt(), s.lastSeenAt(), s.expiresAt(),
                s.signInRequest(), s.sessionId(), s.ip(), s.clients(), s.amr(), s.factorEnrolled(), s.factorAt(),
                now, s.sid());
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
     * Notes that the user of this session now has a second factor (set up on the account page or at sign-in), so
     * that the policy {@code enrolled} asks for it before the session serves another client: the set-up alone
     * proves no sign-in and adds nothing to {@code amr}.
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
                SsoSessionRepository::session, hash).orElse(null);
        if (s == null) {
            return Optional.empty();
        }
        Instant now = clock.instant();
        if (!s.isLive(now, sessionSettings.idleTtl())) {
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
            + "sign_in_request, session_id, ip, client_ids, amr, factor_enrolled, factor_at, password_at, sid";

    static SsoSession session(Jdbc.Row row) throws SQLException {
        return new SsoSession(row.string("session_hash"), row.string("user_id"), row.instant("auth_time"),
                row.instant("created_at"), row.instant("last_seen_at"), row.instant("expires_at"),
                row.string("sign_in_request"), row.string("session_id"), row.string("ip"), row.words("client_ids"),
                row.words("amr"), row.bool("factor_enrolled"), row.nullableInstant("factor_at"),
                row.nullableInstant("password_at"), row.string("sid"));
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
        long idleSince = now - sessionSettings.idleTtl().getSeconds();
        String after = afterId == null ? "" : afterId;
        return userId == null
                ? jdbc.list(live + order, SsoSessionRepository::session, now, idleSince, after, limit)
                : jdbc.list(live + " AND user_id = ?" + order, SsoSessionRepository::session, now, idleSince, after, userId,
                        limit);
    }

    /** How many sessions are live (neither expired nor idle too long; the console's dashboard). */
    public long countLive() {
        long now = clock.instant().getEpochSecond();
        return jdbc.one("SELECT COUNT(*) AS n FROM sso_sessions WHERE expires_at > ? AND last_seen_at > ?",
                r -> r.longValue("n"), now, now - sessionSettings.idleTtl().getSeconds()).orElse(0L);
    }

    /** Ends the session with this administrative id; the user it belonged to, if there was one. */
    @Transactional
    public Optional<String> endById(String sessionId) {
        if (sessionId == null || sessionId.isEmpty() || sessionId.length() > 64) {
            return Optional.empty();
        }
        List<BackchannelLogout.Ending> ending = endWhere("session_id = ?", sessionId);
        return ending.isEmpty() ? Optional.empty() : Optional.of(ending.get(0).userId());
    }

    /** Ends the session with this {@code sid} (the ID tokens'); how many there were (0 or 1). */
    @Transactional
    public int endBySid(String sid) {
        return sid == null || sid.isEmpty() || sid.length() > 64 ? 0 : endWhere("sid = ?", sid).size();
    }

    @Transactional
    public void end(String cookieValue) {
        if (cookieValue != null && cookieValue.length() == 43) {
            endWhere("session_hash = ?", Secrets.hash(cookieValue));
        }
    }

    /** Ends every session of {@code userId} except {@code keep} (this browser's); returns how many there were. */
    @Transactional
    public int endOthersOf(String userId, SsoSession keep) {
        return endWhere("user_id = ? AND session_hash <> ?", userId, keep.sessionHash()).size();
    }

    /** Ends every session of {@code userId} (on every browser); returns how many there were. */
    @Transactional
    public int endAllOf(String userId) {
        return endWhere("user_id = ?", userId).size();
    }

    /**
     * Every way a session ends: locks the sessions that match, queues their back-channel logouts, deletes them and
     * tells {@link SsoSessionsEnded} (their token families end), in the caller's transaction (or one of its own), so
     * a logout is queued for exactly the sessions deleted and a client noted meanwhile ({@link #noteClient}) waits
     * for the lock. Returns the sessions deleted.
     */
    private List<BackchannelLogout.Ending> endWhere(String condition, Object... params) {
        List<BackchannelLogout.Ending> ending = jdbc.list("SELECT user_id, sid, client_ids FROM sso_sessions WHERE "
                + condition + " FOR UPDATE", row -> new BackchannelLogout.Ending(row.string("user_id"),
                        row.string("sid"), row.words("client_ids")), params);
        if (ending.isEmpty()) {
            return ending;
        }
        backchannel.queue(ending);
        int deleted = jdbc.update("DELETE FROM sso_sessions WHERE " + condition, params);
        if (deleted != ending.size()) {
            // another transaction ended one of them first, which only a database without row locks allows
            throw new IllegalStateException("Sessions changed while they were ended; nothing was ended");
        }
        List<String> sids = ending.stream().map(BackchannelLogout.Ending::sid).filter(Objects::nonNull).toList();
        if (!sids.isEmpty()) {
            sessionsEnded.fire(new SsoSessionsEnded(sids));
        }
        return ending;
    }

    /** A new password or a disabled account signs the user out everywhere, in the transaction that changes it. */
    void accessEnded(@Observes UserAccessEnded change) {
        change.report(ended(endAllOf(change.userId())));
    }

    /** How many sessions ended, for the audit trail: "1 SSO session ended", "2 SSO sessions ended". */
    public static String ended(int n) {
        return n + (n == 1 ? " SSO session" : " SSO sessions") + " ended";
    }

    /** Deletes sessions past their absolute end or idle for longer than the idle timeout. */
    public int purgeExpired() {
        long now = clock.instant().getEpochSecond();
        return jdbc.deleteInChunks("sso_sessions", "session_hash", "expires_at <= ? OR last_seen_at <= ?",
                now, now - sessionSettings.idleTtl().getSeconds());
    }
}
