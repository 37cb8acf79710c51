package dev.portcullis.account;

import dev.portcullis.persistence.Jpa;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.persistence.TypedQuery;
import jakarta.transaction.Transactional;
import java.util.Locale;
import java.util.Optional;

/**
 * The one owner of the users table (JPA). Usernames are stored lower-case, so lookups are case-insensitive. Reads
 * ({@link #findById}, {@link #findByUsername}) return objects that are not managed: changing them saves nothing.
 * Changes go through {@link #findForChange}, {@link #add} and {@link #remove}, which run in the caller's transaction.
 */
@ApplicationScoped
public class UserRepository {

    @PersistenceContext(unitName = "portcullis")
    EntityManager em;

    /** The user, read-only (the token and userinfo path: a prepared named query, no unit-of-work clone). */
    public Optional<User> findById(String userId) {
        if (userId == null || userId.isEmpty() || userId.length() > 64) {
            return Optional.empty();
        }
        return Jpa.readOnly(em.createNamedQuery(User.BY_ID, User.class)).setParameter("id", userId)
                .getResultList().stream().findFirst();
    }

    /** The user, read-only. */
    public Optional<User> findByUsername(String username) {
        return byUsername(username).map(q -> Jpa.readOnly(q).getResultList().stream().findFirst())
                .orElse(Optional.empty());
    }

    /** The managed user, for changes that commit with the caller's transaction. */
    @Transactional(Transactional.TxType.MANDATORY)
    public Optional<User> findForChange(String username) {
        return byUsername(username).flatMap(q -> q.getResultList().stream().findFirst());
    }

    /** The managed user by id, for changes that commit with the caller's transaction. */
    @Transactional(Transactional.TxType.MANDATORY)
    public Optional<User> findByIdForChange(String userId) {
        return Optional.ofNullable(em.find(User.class, userId));
    }

    private Optional<TypedQuery<User>> byUsername(String username) {
        String u = username == null ? null : username.toLowerCase(Locale.ROOT);
        if (!UserService.isWellFormedUsername(u)) {
            return Optional.empty(); // no account has it; and a NUL would fail the query on PostgreSQL
        }
        return Optional.of(em.createNamedQuery(User.BY_USERNAME, User.class).setParameter("u", u));
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
