package dev.portcullis.client;

import dev.portcullis.persistence.Jpa;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.transaction.Transactional;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The one owner of the clients table (JPA). Reads ({@link #find}, {@link #list}, {@link #namesOf}) return objects
 * that are not managed: changing them saves nothing. Changes go through {@link #findForChange}, {@link #add} and
 * {@link #remove}, which run in the caller's transaction. One primary-key read per lookup, no second-level cache:
 * a deleted client or rotated secret takes effect on every instance at once.
 */
@ApplicationScoped
public class ClientRepository {

    @PersistenceContext(unitName = "portcullis")
    EntityManager em;

    /** The client, read-only (the token and authorization path: a prepared named query, no unit-of-work clone). */
    public Optional<Client> find(String clientId) {
        if (!plausibleId(clientId)) {
            return Optional.empty();
        }
        return em.createNamedQuery(Client.READ_BY_ID, Client.class).setParameter("id", clientId)
                .getResultList().stream().findFirst();
    }

    /** The managed client, for changes that commit with the caller's transaction. */
    @Transactional(Transactional.TxType.MANDATORY)
    public Optional<Client> findForChange(String clientId) {
        return plausibleId(clientId) ? Optional.ofNullable(em.find(Client.class, clientId)) : Optional.empty();
    }

    private static boolean plausibleId(String clientId) {
        return clientId != null && !clientId.isEmpty() && clientId.length() <= 64;
    }

    /** How many clients there are (the console's dashboard). */
    public long count() {
        return em.createQuery("SELECT COUNT(c) FROM Client c", Long.class).getSingleResult();
    }

    /** A page of clients, read-only, oldest first. */
    public List<Client> list(int offset, int limit) {
        return Jpa.readOnly(em.createQuery("SELECT c FROM Client c ORDER BY c.createdAt, c.clientId", Client.class))
                .setFirstResult(offset).setMaxResults(limit).getResultList();
    }

    /** Client id → display name of those of {@code clientIds} that exist (one query). */
    public Map<String, String> namesOf(Collection<String> clientIds) {
        Map<String, String> names = new HashMap<>();
        if (clientIds.isEmpty()) {
            return names;
        }
        for (Object[] r : em.createQuery("SELECT c.clientId, c.name FROM Client c WHERE c.clientId IN :ids",
                Object[].class).setParameter("ids", clientIds).getResultList()) {
            names.put((String) r[0], (String) r[1]);
        }
        return names;
    }

    @Transactional(Transactional.TxType.MANDATORY)
    public void add(Client client) {
        em.persist(client);
    }

    @Transactional(Transactional.TxType.MANDATORY)
    public void remove(Client client) {
        em.remove(client);
    }
}
