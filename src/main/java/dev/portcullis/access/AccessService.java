package dev.portcullis.access;

import dev.portcullis.account.User;
import dev.portcullis.account.UserLookupService;
import dev.portcullis.audit.Actor;
import dev.portcullis.audit.AuditEvent;
import dev.portcullis.audit.AuditLog;
import dev.portcullis.client.ClientRepository;
import dev.portcullis.metrics.Metrics;
import dev.portcullis.session.SsoSession;
import dev.portcullis.session.SsoSessionRepository;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.transaction.Transactional;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * What an administrator does to a user's access across the owners of sessions, consents and token families: list
 * and end SSO sessions, list and withdraw authorized applications; and a user's ending of their own sessions (the
 * account page). Every change is audited with its {@link Actor} (the admin API's token, a signed-in administrator of
 * the console, or the user themself).
 */
@ApplicationScoped
public class AccessService {

    @Inject
    SsoSessionRepository sessions;

    @Inject
    Metrics metrics;

    @Inject
    UserLookupService users;

    @Inject
    ClientRepository clients;

    @Inject
    AuthorizedApplicationService authorizations;

    @Inject
    AuditLog audit;

    /** How many of a user's live sessions their own pages list and end: more than anyone keeps by hand. */
    public static final int MAX_OWN_SESSIONS = 100;

    /** A live session with its user's name and the names of the clients it served (absent when deleted). */
    public record SessionView(SsoSession session, String username, Map<String, String> clientNames) {
    }

    /**
     * A page of live sessions, all or those of {@code username} (empty when there is no such user), after the
     * session id {@code afterId}.
     */
    public Optional<List<SessionView>> sessions(String username, String afterId, int limit) {
        String userId = null;
        if (username != null) {
            Optional<User> user = users.findByUsername(username);
            if (user.isEmpty()) {
                return Optional.empty();
            }
            userId = user.get().userId();
        }
        List<SsoSession> page = sessions.listLive(userId, afterId, limit);
        Set<String> userIds = new HashSet<>();
        Set<String> clientIds = new HashSet<>();
        page.forEach(s -> {
            userIds.add(s.userId());
            clientIds.addAll(s.clients());
        });
        Map<String, String> usernames = users.usernamesOf(userIds);
        Map<String, String> clientNames = clients.namesOf(clientIds);
        return Optional.of(page.stream().map(s -> new SessionView(s, usernames.get(s.userId()), clientNames)).toList());
    }

    /** Ends one session by its administrative id; false when there is none. */
    @Transactional
    public boolean endSession(String sessionId, Actor actor) {
        return sessions.endById(sessionId).map(userId -> {
            String username = users.usernamesOf(Set.of(userId)).getOrDefault(userId, userId);
            audit.change(AuditEvent.Type.SESSION_ENDED, actor, null, username, "session " + sessionId);
            metrics.logout(Metrics.LogoutTrigger.ADMIN);
            return true;
        }).orElse(false);
    }

    /**
     * Ends one of the user's own live sessions, audited as {@link #endSession} with the user as {@code actor}; false
     * (nothing ended) when it is not one of their first {@link #MAX_OWN_SESSIONS} live sessions.
     */
    @Transactional
    public boolean endOwnSession(String userId, String sessionId, Actor actor) {
        return sessionId != null && ownLiveSessions(userId).stream().anyMatch(s -> s.sessionId().equals(sessionId))
                && endSession(sessionId, actor);
    }

    /**
     * Ends the user's own live sessions but {@code keepSessionId} (their browser's), each audited as
     * {@link #endSession} with the user as {@code actor}; how many were ended.
     */
    @Transactional
    public int endOtherSessionsOf(String userId, String keepSessionId, Actor actor) {
        int ended = 0;
        for (SsoSession s : ownLiveSessions(userId)) {
            if (!s.sessionId().equals(keepSessionId) && endSession(s.sessionId(), actor)) {
                ended++;
            }
        }
        return ended;
    }

    private List<SsoSession> ownLiveSessions(String userId) {
        return sessions.listLive(userId, null, MAX_OWN_SESSIONS);
    }

    /** Ends every session of a user; how many, or empty when there is no such user. */
    @Transactional
    public Optional<Integer> endSessionsOf(String username, Actor actor) {
        return users.findByUsername(username).map(user -> {
            int n = sessions.endAllOf(user.userId());
            audit.change(AuditEvent.Type.SESSION_ENDED, actor, null, user.username(),
                    n + (n == 1 ? " SSO session" : " SSO sessions") + " ended");
            metrics.logouts(Metrics.LogoutTrigger.ADMIN, n);
            return n;
        });
    }

    /** The applications a user has authorized, or empty when there is no such user. */
    public Optional<List<AuthorizedApplicationService.Authorization>> grants(String username) {
        return users.findByUsername(username).map(u -> authorizations.list(u.userId()));
    }

    /** What withdrawing an authorization did. */
    public enum Withdrawal { NO_SUCH_USER, NOTHING_TO_WITHDRAW, WITHDRAWN }

    /** Deletes the user's consent for the client and revokes every token family of that pair at once. */
    @Transactional
    public Withdrawal withdrawGrant(String username, String clientId, Actor actor) {
        Optional<User> user = users.findByUsername(username);
        if (user.isEmpty()) {
            return Withdrawal.NO_SUCH_USER;
        }
        if (clientId == null || clientId.length() > 64 || !authorizations.revoke(user.get().userId(), clientId)) {
            return Withdrawal.NOTHING_TO_WITHDRAW;
        }
        audit.change(AuditEvent.Type.GRANT_REVOKED, actor, clientId, user.get().username(),
                "consent and token families withdrawn");
        return Withdrawal.WITHDRAWN;
    }
}
