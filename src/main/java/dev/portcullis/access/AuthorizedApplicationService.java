package dev.portcullis.access;

import dev.portcullis.audit.Actor;
import dev.portcullis.audit.AuditEvent;
import dev.portcullis.audit.AuditLog;
import dev.portcullis.client.ClientRepository;
import dev.portcullis.client.Scopes;
import dev.portcullis.consent.Consent;
import dev.portcullis.consent.ConsentRepository;
import dev.portcullis.token.TokenGrant;
import dev.portcullis.token.TokenGrantRepository;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.transaction.Transactional;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The client applications a user has authorized, as the user sees them: the remembered consent ({@link ConsentRepository})
 * and the live token grants ({@link TokenGrantRepository}, which also covers clients that skip consent), with each client's
 * name ({@link ClientRepository}); every table is read through its owner. Withdrawing an authorization deletes the
 * consent and revokes every grant of that user and client with all their tokens, in one transaction — the next
 * authorization asks for consent again.
 */
@ApplicationScoped
public class AuthorizedApplicationService {

    @Inject
    ConsentRepository consents;

    @Inject
    TokenGrantRepository grants;

    @Inject
    ClientRepository clients;

    @Inject
    AuditLog audit;

    /** One authorized client. {@code grantedAt}: when consent was (last) given, or the first live grant's time. */
    public record Authorization(String clientId, String clientName, String scope, Instant grantedAt) {
    }

    /** Three queries, whatever the number of clients (no N+1). Ordered by time granted. */
    public List<Authorization> list(String userId) {
        List<Consent> given = consents.listOf(userId);
        List<TokenGrant> live = grants.liveGrantsOf(userId);
        Set<String> clientIds = new HashSet<>();
        given.forEach(c -> clientIds.add(c.clientId()));
        live.forEach(g -> clientIds.add(g.clientId()));
        Map<String, String> names = clients.namesOf(clientIds);
        Map<String, Authorization> byClient = new LinkedHashMap<>();
        for (Consent c : given) {
            String name = names.get(c.clientId());
            if (name != null) {
                byClient.put(c.clientId(), new Authorization(c.clientId(), name, c.scope(), c.grantedAt()));
            }
        }
        Map<String, Set<String>> grantScopes = new LinkedHashMap<>();
        Map<String, Authorization> grantOnly = new LinkedHashMap<>();
        for (TokenGrant g : live) {
            String name = names.get(g.clientId());
            if (name == null || byClient.containsKey(g.clientId())) {
                continue;
            }
            grantScopes.computeIfAbsent(g.clientId(), k -> new LinkedHashSet<>()).addAll(Scopes.parse(g.scope()));
            grantOnly.putIfAbsent(g.clientId(), new Authorization(g.clientId(), name, null, g.createdAt()));
        }
        List<Authorization> out = new ArrayList<>(byClient.values());
        grantOnly.values().forEach(a -> out.add(new Authorization(a.clientId(), a.clientName(),
                Scopes.format(grantScopes.get(a.clientId())), a.grantedAt())));
        return out;
    }

    /**
     * Withdraws the user's authorization of a client: consent deleted, grants and their access tokens revoked (their
     * refresh tokens die with the grant). Returns false when there was nothing to withdraw. Package-private: the
     * administrators' withdrawal ({@link AccessService#withdrawGrant}) audits it.
     */
    @Transactional
    boolean revoke(String userId, String clientId) {
        return withdraw(userId, clientId);
    }

    /**
     * The user's own withdrawal ({@link #revoke}), audited as {@code GRANT_REVOKED} of the user at the client, from
     * the {@code user}'s address, with where they did it ({@link Actor#where}) as the detail. False when there was
     * nothing to withdraw (nothing audited).
     */
    @Transactional
    public boolean withdrawByUser(String userId, String clientId, Actor user) {
        boolean withdrawn = withdraw(userId, clientId);
        if (withdrawn) {
            audit.success(AuditEvent.Type.GRANT_REVOKED, clientId, userId, user.ip(), user.where());
        }
        return withdrawn;
    }

    private boolean withdraw(String userId, String clientId) {
        boolean consented = consents.withdraw(userId, clientId);
        int revoked = grants.revokeGrantsOf(userId, clientId);
        return consented || revoked > 0;
    }
}
