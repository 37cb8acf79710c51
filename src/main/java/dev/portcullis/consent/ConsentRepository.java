package dev.portcullis.consent;

import dev.portcullis.client.Scopes;
import dev.portcullis.persistence.Jpa;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.transaction.Transactional;
import java.time.Clock;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Remembered consent: which scopes a user granted to a client. Granting more scopes later widens the record. The one
 * owner of the consents table (JPA); {@link #listOf} returns objects that are not managed.
 */
@ApplicationScoped
public class ConsentRepository {

    @PersistenceContext(unitName = "portcullis")
    EntityManager em;

    @Inject
    Clock clock;

    /** Whether the user has already granted every one of {@code scopes} to the client. */
    @Transactional(Transactional.TxType.SUPPORTS)
    public boolean covers(String userId, String clientId, Set<String> scopes) {
        Consent c = em.find(Consent.class, new Consent.Key(userId, clientId));
        return c != null && Scopes.parse(c.scope()).containsAll(scopes);
    }

    /** The user's consents, read-only, in the order they were (last) given. */
    @Transactional(Transactional.TxType.SUPPORTS)
    public List<Consent> listOf(String userId) {
        return Jpa.readOnly(em.createQuery("SELECT c FROM Consent c WHERE c.userId = :u ORDER BY c.grantedAt, "
                + "c.clientId", Consent.class)).setParameter("u", userId).getResultList();
    }

    /** Deletes the user's consent to the client, in the caller's transaction; returns whether there was one. */
    @Transactional(Transactional.TxType.MANDATORY)
    public boolean withdraw(String userId, String clientId) {
        return em.createQuery("DELETE FROM Consent c WHERE c.userId = :u AND c.clientId = :c")
                .setParameter("u", userId).setParameter("c", clientId).executeUpdate() > 0;
    }

    @Transactional
    public void grant(String userId, String clientId, Set<String> scopes) {
        long now = clock.instant().getEpochSecond();
        Consent c = em.find(Consent.class, new Consent.Key(userId, clientId));
        if (c == null) {
            em.persist(new Consent(userId, clientId, Scopes.format(scopes), now));
        } else {
            Set<String> all = new LinkedHashSet<>(Scopes.parse(c.scope()));
            all.addAll(scopes);
            c.replace(Scopes.format(all), now);
        }
    }
}
