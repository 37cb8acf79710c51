package dev.portcullis.account;

import jakarta.enterprise.context.ApplicationScoped;
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

    public Optional<User> findById(String userId) {
        if (userId == null || userId.isEmpty() || userId.length() > 64) {
            return Optional.empty();
        }
        return Optional.ofNullable(em.find(User.class, userId));
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
