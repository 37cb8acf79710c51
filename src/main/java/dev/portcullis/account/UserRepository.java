package dev.portcullis.account;

import dev.portcullis.persistence.Jdbc;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/** Persistence of {@link User}s. Usernames are stored lower-case, so lookups are case-insensitive. */
@ApplicationScoped
public class UserRepository {

    @PersistenceContext(unitName = "portcullis")
    EntityManager em;

    @Inject
    Jdbc jdbc;

    /** The user, read-only (plain JDBC: the token and userinfo path; changes go through {@link #findByUsername}). */
    public Optional<User> findById(String userId) {
        if (userId == null || userId.isEmpty() || userId.length() > 64) {
            return Optional.empty();
        }
        return jdbc.one("SELECT user_id, username, email, name, password_hash, created_at, updated_at FROM users "
                        + "WHERE user_id = ?",
                row -> new User(row.string("user_id"), row.string("username"), row.string("email"),
                        row.string("name"), row.string("password_hash"), row.longValue("created_at"),
                        row.longValue("updated_at")), userId);
    }

    public Optional<User> findByUsername(String username) {
        if (username == null || username.isEmpty() || username.length() > UserService.MAX_USERNAME) {
            return Optional.empty();
        }
        List<User> found = em.createQuery("SELECT u FROM User u WHERE u.username = :u", User.class)
                .setParameter("u", username.toLowerCase(Locale.ROOT)).getResultList();
        return found.stream().findFirst();
    }

    /** Inserts now (flush), so a unique-constraint violation is raised to the caller. */
    public void add(User user) {
        em.persist(user);
        em.flush();
    }

    public void remove(User user) {
        em.remove(user);
    }
}
