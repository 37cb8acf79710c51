package dev.portcullis.jose;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.transaction.Transactional;
import java.time.Instant;
import java.util.List;

/** Persistence of {@link SigningKey}s. Every write is its own short transaction. */
@ApplicationScoped
public class SigningKeyRepository {

    @PersistenceContext(unitName = "portcullis")
    EntityManager em;

    @Transactional(Transactional.TxType.SUPPORTS)
    public List<SigningKey> all() {
        return em.createQuery("SELECT k FROM SigningKey k ORDER BY k.activeFrom, k.kid", SigningKey.class)
                .getResultList();
    }

    /**
     * Inserts a key; throws (PersistenceException) when its kid exists already. Key ids are deterministic
     * ({@code <alg>-<generation>}), so two instances creating "the next key" at once collide on the primary key and
     * exactly one insert wins.
     */
    @Transactional(Transactional.TxType.REQUIRES_NEW)
    public void insert(SigningKey key) {
        em.persist(key);
        em.flush();
    }

    /**
     * Publishes {@code next} and retires every current key of its algorithm at the moment {@code next} starts
     * signing; drops keys whose tokens have all expired (retired before {@code dropRetiredBefore}).
     */
    @Transactional(Transactional.TxType.REQUIRES_NEW)
    public void rotate(SigningKey next, Instant dropRetiredBefore) {
        em.persist(next);
        em.flush();
        em.createQuery("UPDATE SigningKey k SET k.retiredAt = :at WHERE k.alg = :alg AND k.kid <> :kid "
                        + "AND (k.retiredAt IS NULL OR k.retiredAt > :at)")
                .setParameter("at", next.activeFrom().getEpochSecond())
                .setParameter("alg", next.alg())
                .setParameter("kid", next.kid())
                .executeUpdate();
        em.createQuery("DELETE FROM SigningKey k WHERE k.retiredAt IS NOT NULL AND k.retiredAt < :cutoff")
                .setParameter("cutoff", dropRetiredBefore.getEpochSecond())
                .executeUpdate();
    }

    /**
     * Replaces a key's stored private JWK (encryption of a clear row, re-encryption under a new key-encryption key)
     * if it still holds {@code expected}; false when another instance changed it first.
     */
    @Transactional(Transactional.TxType.REQUIRES_NEW)
    public boolean reseal(String kid, String expected, String replacement) {
        return em.createQuery("UPDATE SigningKey k SET k.privateJwk = :replacement WHERE k.kid = :kid "
                        + "AND k.privateJwk = :expected")
                .setParameter("replacement", replacement)
                .setParameter("kid", kid)
                .setParameter("expected", expected)
                .executeUpdate() == 1;
    }
}
