package dev.portcullis.token;

import dev.portcullis.crypto.Secrets;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.transaction.Transactional;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * Persistence of token families: {@link TokenGrant}s with their {@link RefreshToken}s and {@link AccessTokenRecord}s.
 * The two race-deciding steps are single conditional UPDATEs ({@link #markRefreshTokenUsed}, and
 * {@code AuthorizationCodes.markRedeemed}), so exactly one of any number of concurrent requests on any number of
 * instances wins. Revocation is its own transaction, so it commits even when the request that detected the attack
 * fails.
 */
@ApplicationScoped
public class TokenGrants {

    @PersistenceContext(unitName = "portcullis")
    EntityManager em;

    @Inject
    Clock clock;

    /** Result of a revocation-aware access-token lookup by jti. */
    public record AccessTokenStatus(AccessTokenRecord token, TokenGrant grant) {
        /** Active = not revoked itself, its grant not revoked, and not expired. */
        public boolean isActive(Instant now) {
            return !token.isRevoked() && !grant.isRevoked() && now.isBefore(token.expiresAt());
        }
    }

    @Transactional(Transactional.TxType.MANDATORY)
    TokenGrant createGrant(String grantId, String clientId, String userId, String scope, Instant authTime) {
        TokenGrant g = new TokenGrant(grantId, clientId, userId, scope, authTime, clock.instant());
        em.persist(g);
        em.flush(); // no JPA relationship orders the inserts: the grant row must exist before its tokens' rows
        return g;
    }

    @Transactional(Transactional.TxType.MANDATORY)
    void recordAccessToken(AccessTokenRecord record) {
        em.persist(record);
    }

    /** Stores a new refresh token of {@code grant}; returns its value (only the hash is stored). */
    @Transactional(Transactional.TxType.MANDATORY)
    String newRefreshToken(TokenGrant grant, Instant now, Instant expiresAt) {
        String value = Secrets.newSecret();
        em.persist(new RefreshToken(Secrets.hash(value), grant.grantId(), grant.scope(), now, expiresAt));
        return value;
    }

    /**
     * The single atomic step of rotation: marks the refresh token used if and only if nobody has yet. Returns true
     * for exactly one caller; joins the caller's transaction so the new tokens commit with it.
     */
    @Transactional(Transactional.TxType.MANDATORY)
    boolean markRefreshTokenUsed(RefreshToken token) {
        return em.createQuery("UPDATE RefreshToken r SET r.usedAt = :now WHERE r.tokenHash = :hash AND r.usedAt IS NULL")
                .setParameter("now", clock.instant().getEpochSecond())
                .setParameter("hash", token.tokenHash())
                .executeUpdate() == 1;
    }

    @Transactional(Transactional.TxType.SUPPORTS)
    public Optional<RefreshToken> findRefreshToken(String value) {
        if (value == null || value.isEmpty() || value.length() > 256) {
            return Optional.empty();
        }
        return Optional.ofNullable(em.find(RefreshToken.class, Secrets.hash(value)));
    }

    @Transactional(Transactional.TxType.SUPPORTS)
    public Optional<TokenGrant> findGrant(String grantId) {
        return grantId == null ? Optional.empty() : Optional.ofNullable(em.find(TokenGrant.class, grantId));
    }

    /** An access token's record and its grant, by jti, in one query (for validation and introspection). */
    @Transactional(Transactional.TxType.SUPPORTS)
    public Optional<AccessTokenStatus> accessTokenStatus(String jti) {
        if (jti == null || jti.isEmpty() || jti.length() > 64) {
            return Optional.empty();
        }
        List<Object[]> rows = em.createQuery("SELECT a, g FROM AccessTokenRecord a, TokenGrant g "
                        + "WHERE a.jti = :jti AND g.grantId = a.grantId", Object[].class)
                .setParameter("jti", jti).getResultList();
        return rows.stream().findFirst().map(r -> new AccessTokenStatus((AccessTokenRecord) r[0], (TokenGrant) r[1]));
    }

    /**
     * Revokes a single access token (RFC 7009 revocation of an access token); its grant and refresh token stay
     * valid. Returns whether it was active. Added for the resource side (revocation endpoint).
     */
    @Transactional(Transactional.TxType.REQUIRES_NEW)
    public boolean revokeAccessToken(String jti) {
        return em.createQuery("UPDATE AccessTokenRecord a SET a.revokedAt = :now WHERE a.jti = :jti AND a.revokedAt IS NULL")
                .setParameter("now", clock.instant().getEpochSecond()).setParameter("jti", jti)
                .executeUpdate() == 1;
    }

    /**
     * Revokes a whole family: the grant (so none of its refresh tokens works any more) and every access token in it.
     * Its own transaction, so it commits even when the caller's request fails. Returns whether the grant was active.
     */
    @Transactional(Transactional.TxType.REQUIRES_NEW)
    public boolean revokeGrant(String grantId) {
        long now = clock.instant().getEpochSecond();
        int grants = em.createQuery("UPDATE TokenGrant g SET g.revokedAt = :now WHERE g.grantId = :id AND g.revokedAt IS NULL")
                .setParameter("now", now).setParameter("id", grantId).executeUpdate();
        em.createQuery("UPDATE AccessTokenRecord a SET a.revokedAt = :now WHERE a.grantId = :id AND a.revokedAt IS NULL")
                .setParameter("now", now).setParameter("id", grantId).executeUpdate();
        return grants == 1;
    }
}
