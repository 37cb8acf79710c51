package dev.portcullis.api;

import dev.portcullis.persistence.Jpa;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.transaction.Transactional;
import java.util.List;
import java.util.Optional;

/**
 * The one owner of the apis table (JPA). Reads return objects that are not managed and must not be changed; changes
 * go through {@link #findForChange}, {@link #add} and {@link #remove} in the caller's transaction. Every read sees the
 * rows as they are now, so a change on one instance holds on every other at once.
 */
@ApplicationScoped
public class ApiRepository {

    @PersistenceContext(unitName = "portcullis")
    EntityManager em;

    /** Every registered API, read-only, oldest first (the token path reads them all: there are few). */
    public List<Api> all() {
        return Jpa.readOnly(em.createQuery("SELECT a FROM Api a ORDER BY a.createdAt, a.apiId", Api.class))
                .getResultList();
    }

    /**
     * Every registered API as this transaction sees it, its own registrations included (the read-only query of
     * {@link #all()} reads outside it): what a change is checked against.
     */
    @Transactional(Transactional.TxType.MANDATORY)
    public List<Api> allForChange() {
        return em.createQuery("SELECT a FROM Api a ORDER BY a.createdAt, a.apiId", Api.class).getResultList();
    }

    public Optional<Api> find(String apiId) {
        if (!plausibleId(apiId)) {
            return Optional.empty();
        }
        return Jpa.readOnly(em.createQuery("SELECT a FROM Api a WHERE a.apiId = :id", Api.class))
                .setParameter("id", apiId).getResultList().stream().findFirst();
    }

    @Transactional(Transactional.TxType.MANDATORY)
    public Optional<Api> findForChange(String apiId) {
        return plausibleId(apiId) ? Optional.ofNullable(em.find(Api.class, apiId, Jpa.FRESH)) : Optional.empty();
    }

    private static boolean plausibleId(String apiId) {
        return apiId != null && !apiId.isEmpty() && apiId.length() <= 64;
    }

    /** Inserts now (flush), so a concurrent duplicate identifier is raised to the caller. */
    @Transactional(Transactional.TxType.MANDATORY)
    public void add(Api api) {
        em.persist(api);
        em.flush();
    }

    /** Writes a change now (flush), so a concurrent duplicate identifier is raised to the caller. */
    @Transactional(Transactional.TxType.MANDATORY)
    public void flush() {
        em.flush();
    }

    @Transactional(Transactional.TxType.MANDATORY)
    public void remove(Api api) {
        em.remove(api);
    }
}
