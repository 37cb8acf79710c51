package dev.portcullis.client;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import java.util.List;
import java.util.Optional;

/** Persistence of {@link Client}s. One primary-key read per lookup; clients are never cached across requests. */
@ApplicationScoped
public class ClientRepository {

    @PersistenceContext(unitName = "portcullis")
    EntityManager em;

    public Optional<Client> find(String clientId) {
        if (clientId == null || clientId.isEmpty() || clientId.length() > 64) {
            return Optional.empty();
        }
        return Optional.ofNullable(em.find(Client.class, clientId));
    }

    public List<Client> list(int offset, int limit) {
        return em.createQuery("SELECT c FROM Client c ORDER BY c.createdAt, c.clientId", Client.class)
                .setFirstResult(offset).setMaxResults(limit).getResultList();
    }

    public void add(Client client) {
        em.persist(client);
    }

    public void remove(Client client) {
        em.remove(client);
    }
}
