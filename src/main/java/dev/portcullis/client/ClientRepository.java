package dev.portcullis.client;

import dev.portcullis.persistence.Jdbc;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import java.util.List;
import java.util.Optional;

/**
 * Persistence of {@link Client}s. One primary-key read per lookup; clients are never cached across requests (a
 * deleted client or rotated secret takes effect on every instance at once). {@link #find} is plain JDBC and returns
 * a detached copy (it is on the token and authorization path); changes go through {@link #findForChange} (JPA).
 */
@ApplicationScoped
public class ClientRepository {

    @PersistenceContext(unitName = "portcullis")
    EntityManager em;

    @Inject
    Jdbc jdbc;

    /** The client, read-only (changes to the returned object are not saved). */
    public Optional<Client> find(String clientId) {
        if (!plausibleId(clientId)) {
            return Optional.empty();
        }
        return jdbc.one("SELECT client_id, client_name, confidential, secret_hash, redirect_uris, "
                        + "post_logout_redirect_uris, scopes, skip_consent, created_at, updated_at FROM clients "
                        + "WHERE client_id = ?",
                row -> new Client(row.string("client_id"), row.string("client_name"), row.bool("confidential"),
                        row.string("secret_hash"), UriListConverter.parse(row.string("redirect_uris")),
                        UriListConverter.parse(row.string("post_logout_redirect_uris")), row.string("scopes"),
                        row.bool("skip_consent"), row.longValue("created_at"), row.longValue("updated_at")),
                clientId);
    }

    /** The managed entity, for changes inside the caller's transaction. */
    public Optional<Client> findForChange(String clientId) {
        return plausibleId(clientId) ? Optional.ofNullable(em.find(Client.class, clientId)) : Optional.empty();
    }

    private static boolean plausibleId(String clientId) {
        return clientId != null && !clientId.isEmpty() && clientId.length() <= 64;
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
