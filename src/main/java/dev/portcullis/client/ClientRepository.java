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
 * The one owner of the clients table (JPA). Reads ({@link #find}, {@link #findCached}, {@link #list},
 * {@link #namesOf}) return objects that are not managed and must not be changed. Changes go through
 * {@link #findForChange}, {@link #add} and {@link #remove}, which run in the caller's transaction. Every read but
 * {@link #findCached} sees the row as it is now; that one, for the authorization and token endpoints, may be up to
 * {@link Jpa#CACHED_READ_MILLIS} old when another instance changed the client.
 */
@ApplicationScoped
public class ClientRepository {

    @PersistenceContext(unitName = "portcullis")
    EntityManager em;

    /** The client as it is now, read-only. */
    public Optional<Client> find(String clientId) {
        return byId(Client.READ_BY_ID, clientId);
    }

    /**
     * The client, read-only, from this instance's cache while the entry is younger than
     * {@link Jpa#CACHED_READ_MILLIS}: the read of every authorization and token request, which would otherwise cost
     * a pooled connection and a query each time.
     */
    public Optional<Client> findCached(String clientId) {
        return byId(Client.CACHED_BY_ID, clientId);
    }

    private Optional<Client> byId(String queryName, String clientId) {
        if (!plausibleId(clientId)) {
            return Optional.empty();
        }
        return em.createNamedQuery(queryName, Client.class).setParameter("id", clientId)
                .getResultList().stream().findFirst();
    }

    /** The managed client as it is now, for changes that commit with the caller's transaction. */
    @Transactional(Transactional.TxType.MANDATORY)
    public Optional<Client> findForChange(String clientId) {
        return plausibleId(clientId) ? Optional.ofNullable(em.find(Client.class, clientId, Jpa.FRESH))
                : Optional.empty();
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

    /** A page of clients as this transaction sees them, its own changes included, for the checks of a change. */
    @Transactional(Transactional.TxType.MANDATORY)
    public List<Client> listForChange(int offset, int limit) {
        return em.createQuery("SELECT c FROM Client c ORDER BY c.createdAt, c.clientId", Client.class)
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
