package dev.portcullis.resource;

import dev.portcullis.client.Scopes;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.transaction.Transactional;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The client applications a user has authorized, as the user sees them: the remembered consent ({@code consents})
 * and the live token grants ({@code token_grants}, which also covers clients that skip consent). Withdrawing an
 * authorization deletes the consent and revokes every grant of that user and client with all their tokens, in one
 * transaction — the next authorization asks for consent again.
 */
@ApplicationScoped
public class UserAuthorizations {

    @PersistenceContext(unitName = "portcullis")
    EntityManager em;

    @Inject
    Clock clock;

    /** One authorized client. {@code grantedAt}: when consent was (last) given, or the first live grant's time. */
    public record Authorization(String clientId, String clientName, String scope, Instant grantedAt) {
    }

    /** Two queries, whatever the number of clients (no N+1). Ordered by time granted. */
    @Transactional(Transactional.TxType.SUPPORTS)
    public List<Authorization> list(String userId) {
        Map<String, Authorization> byClient = new LinkedHashMap<>();
        for (Object[] r : em.createQuery("SELECT c.clientId, k.name, c.scope, c.grantedAt FROM Consent c, Client k "
                + "WHERE c.userId = :u AND k.clientId = c.clientId ORDER BY c.grantedAt, c.clientId", Object[].class)
                .setParameter("u", userId).getResultList()) {
            byClient.put((String) r[0], new Authorization((String) r[0], (String) r[1], (String) r[2],
                    Instant.ofEpochSecond(((Number) r[3]).longValue())));
        }
        Map<String, Set<String>> grantScopes = new LinkedHashMap<>();
        Map<String, Authorization> grantOnly = new LinkedHashMap<>();
        for (Object[] r : em.createQuery("SELECT g.clientId, k.name, g.scope, g.createdAt FROM TokenGrant g, Client k "
                + "WHERE g.userId = :u AND g.revokedAt IS NULL AND k.clientId = g.clientId "
                + "ORDER BY g.createdAt, g.clientId", Object[].class)
                .setParameter("u", userId).getResultList()) {
            String clientId = (String) r[0];
            if (byClient.containsKey(clientId)) {
                continue;
            }
            grantScopes.computeIfAbsent(clientId, k -> new LinkedHashSet<>()).addAll(Scopes.parse((String) r[2]));
            grantOnly.putIfAbsent(clientId, new Authorization(clientId, (String) r[1], null,
                    Instant.ofEpochSecond(((Number) r[3]).longValue())));
        }
        List<Authorization> out = new ArrayList<>(byClient.values());
        grantOnly.values().forEach(a -> out.add(new Authorization(a.clientId(), a.clientName(),
                Scopes.format(grantScopes.get(a.clientId())), a.grantedAt())));
        return out;
    }

    /**
     * Withdraws the user's authorization of a client: consent deleted, grants and their access tokens revoked (their
     * refresh tokens die with the grant). Returns false when there was nothing to withdraw.
     */
    @Transactional
    public boolean revoke(String userId, String clientId) {
        long now = clock.instant().getEpochSecond();
        int consents = em.createQuery("DELETE FROM Consent c WHERE c.userId = :u AND c.clientId = :c")
                .setParameter("u", userId).setParameter("c", clientId).executeUpdate();
        em.createQuery("UPDATE AccessTokenRecord a SET a.revokedAt = :now WHERE a.revokedAt IS NULL AND a.grantId IN "
                        + "(SELECT g.grantId FROM TokenGrant g WHERE g.userId = :u AND g.clientId = :c)")
                .setParameter("now", now).setParameter("u", userId).setParameter("c", clientId).executeUpdate();
        int grants = em.createQuery("UPDATE TokenGrant g SET g.revokedAt = :now "
                        + "WHERE g.userId = :u AND g.clientId = :c AND g.revokedAt IS NULL")
                .setParameter("now", now).setParameter("u", userId).setParameter("c", clientId).executeUpdate();
        return consents > 0 || grants > 0;
    }
}
