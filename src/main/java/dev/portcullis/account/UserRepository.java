package dev.portcullis.account;

import dev.portcullis.persistence.Jpa;
import dev.portcullis.protocol.Username;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.persistence.TypedQuery;
import jakarta.transaction.Transactional;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The one owner of the users table (JPA). Usernames are stored lower-case, so lookups are case-insensitive. Reads
 * ({@link #findById}, {@link #findCached}, {@link #findByUsername}, {@link #search}) return objects that are not
 * managed and must not be changed. Changes go through {@link #findForChange}, {@link #add} and {@link #remove}, which
 * run in the caller's transaction. Every read but {@link #findCached} sees the row as it is now, so sign-in and every
 * access decision do.
 */
@ApplicationScoped
public class UserRepository {

    @PersistenceContext(unitName = "portcullis")
    EntityManager em;

    /** The user as they are now, read-only. */
    public Optional<User> findById(String userId) {
        return byId(User.READ_BY_ID, userId);
    }

    /**
     * The user, read-only, from this instance's cache while the entry is younger than {@link Jpa#CACHED_READ_MILLIS}:
     * for the claims of ID tokens, userinfo and introspection. Whether the token itself is still valid is decided
     * by the token tables, which are never cached: disabling a user revokes their tokens at once.
     */
    public Optional<User> findCached(String userId) {
        return byId(User.CACHED_BY_ID, userId);
    }

    private Optional<User> byId(String queryName, String userId) {
        if (userId == null || userId.isEmpty() || userId.length() > 64) {
            return Optional.empty();
        }
        return em.createNamedQuery(queryName, User.class).setParameter("id", userId)
                .getResultList().stream().findFirst();
    }

    /** The user, read-only. */
    public Optional<User> findByUsername(String username) {
        return byUsername(username, User.READ_BY_USERNAME).flatMap(q -> q.getResultList().stream().findFirst());
    }

    /**
     * A page of users, read-only, in username order: those after {@code after} whose username, e-mail or name
     * contains {@code text} in any case (every user when it is null). LIKE's wildcards in {@code text} match
     * themselves.
     */
    public List<User> search(String text, String after, int limit) {
        String jpql = "SELECT u FROM User u WHERE u.username > :after"
                + (text == null ? "" : " AND (u.username LIKE :p ESCAPE '!' OR LOWER(u.email) LIKE :p ESCAPE '!'"
                        + " OR LOWER(u.name) LIKE :p ESCAPE '!')")
                + " ORDER BY u.username";
        TypedQuery<User> q = em.createQuery(jpql, User.class).setParameter("after", after == null ? "" : after);
        if (text != null) {
            q.setParameter("p", "%" + likeLiteral(text.toLowerCase(Locale.ROOT)) + "%");
        }
        return Jpa.readOnly(q).setMaxResults(limit).getResultList();
    }

    /** How many users there are (the console's dashboard). */
    public long count() {
        return em.createQuery("SELECT COUNT(u) FROM User u", Long.class).getSingleResult();
    }

    /** {@code text} with LIKE's wildcards and the escape character escaped by '!'. */
    static String likeLiteral(String text) {
        return text.replace("!", "!!").replace("%", "!%").replace("_", "!_");
    }

    /** User id → username of those of {@code userIds} that exist (one query). */
    public Map<String, String> usernamesOf(Collection<String> userIds) {
        Map<String, String> names = new HashMap<>();
        if (userIds.isEmpty()) {
            return names;
        }
        for (Object[] r : em.createQuery("SELECT u.userId, u.username FROM User u WHERE u.userId IN :ids",
                Object[].class).setParameter("ids", userIds).getResultList()) {
            names.put((String) r[0], (String) r[1]);
        }
        return names;
    }

    /** The managed user, for changes that commit with the caller's transaction. */
    @Transactional(Transactional.TxType.MANDATORY)
    public Optional<User> findForChange(String username) {
        return byUsername(username, User.BY_USERNAME).flatMap(q -> q.getResultList().stream().findFirst());
    }

    /** The managed user by id as they are now, for changes that commit with the caller's transaction. */
    @Transactional(Transactional.TxType.MANDATORY)
    public Optional<User> findByIdForChange(String userId) {
        return Optional.ofNullable(em.find(User.class, userId, Jpa.FRESH));
    }

    private Optional<TypedQuery<User>> byUsername(String username, String queryName) {
        String u = username == null ? null : username.toLowerCase(Locale.ROOT);
        if (!Username.isWellFormed(u)) {
            return Optional.empty(); // no account has it; and a NUL would fail the query on PostgreSQL
        }
        return Optional.of(em.createNamedQuery(queryName, User.class).setParameter("u", u));
    }

    /** Inserts now (flush), so a unique-constraint violation is raised to the caller. */
    @Transactional(Transactional.TxType.MANDATORY)
    public void add(User user) {
        em.persist(user);
        em.flush();
    }

    @Transactional(Transactional.TxType.MANDATORY)
    public void remove(User user) {
        em.remove(user);
    }
}
