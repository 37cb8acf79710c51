package dev.portcullis.authorize;

import dev.portcullis.audit.AuditEvent;
import dev.portcullis.audit.AuditLog;
import dev.portcullis.config.PortcullisConfig;
import dev.portcullis.crypto.Secrets;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.transaction.Transactional;
import java.time.Clock;
import java.time.Instant;
import java.util.Optional;

/**
 * Issue, look up and redeem authorization codes. The code value is 256 random bits handed to the browser once;
 * the database holds only its hash. Redemption is one conditional UPDATE, so of any number of concurrent
 * redemptions on any number of instances exactly one wins.
 */
@ApplicationScoped
public class AuthorizationCodes {

    @PersistenceContext(unitName = "portcullis")
    EntityManager em;

    @Inject
    PortcullisConfig config;

    @Inject
    Clock clock;

    @Inject
    AuditLog audit;

    /** Stores a new code bound to {@code request} and audits it; returns the code value (never stored). */
    @Transactional
    public String issue(AuthorizationCode.CodeRequest request, String ip) {
        String code = Secrets.newSecret();
        Instant now = clock.instant();
        em.persist(new AuthorizationCode(Secrets.hash(code), request, now, now.plus(config.codeTtl())));
        audit.success(AuditEvent.Type.CODE_ISSUED, request.clientId(), request.userId(), ip, request.scope());
        return code;
    }

    /** The code's row, whatever its state (expired, redeemed), or empty when the value is unknown. */
    @Transactional(Transactional.TxType.SUPPORTS)
    public Optional<AuthorizationCode> find(String code) {
        if (code == null || code.isEmpty() || code.length() > 256) {
            return Optional.empty();
        }
        return Optional.ofNullable(em.find(AuthorizationCode.class, Secrets.hash(code)));
    }

    /**
     * The single atomic step of redemption: marks the code used and records the grant it created, if and only if it
     * is still unused and unexpired. Returns true for exactly one caller. Joins the caller's transaction, so the
     * tokens of the grant commit together with the redemption.
     */
    @Transactional(Transactional.TxType.MANDATORY)
    public boolean markRedeemed(AuthorizationCode code, String grantId) {
        long now = clock.instant().getEpochSecond();
        return em.createQuery("UPDATE AuthorizationCode c SET c.redeemedAt = :now, c.grantId = :grant "
                        + "WHERE c.codeHash = :hash AND c.redeemedAt IS NULL AND c.expiresAt > :now")
                .setParameter("now", now)
                .setParameter("grant", grantId)
                .setParameter("hash", code.codeHash())
                .executeUpdate() == 1;
    }

    /** Deletes codes that expired more than a day ago (redeemed ones are kept that long to detect replays). */
    @Transactional
    public int purgeExpired() {
        long cutoff = clock.instant().getEpochSecond() - 86_400;
        return em.createQuery("DELETE FROM AuthorizationCode c WHERE c.expiresAt < :cutoff")
                .setParameter("cutoff", cutoff).executeUpdate();
    }
}
