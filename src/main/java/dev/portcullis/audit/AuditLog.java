package dev.portcullis.audit;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.transaction.Transactional;
import java.time.Clock;
import java.util.logging.Logger;

/**
 * Records security events in the audit table and the server log. A success joins the caller's transaction, so it
 * commits together with what it records (and costs no transaction of its own on the token path); a failure is its
 * own transaction (REQUIRES_NEW), so it survives the rollback of the request that caused it.
 * Callers pass ids, never secrets: no passwords, codes, tokens or client secrets.
 */
@ApplicationScoped
public class AuditLog {

    private static final Logger LOG = Logger.getLogger("dev.portcullis.audit");

    @PersistenceContext(unitName = "portcullis")
    EntityManager em;

    @Inject
    Clock clock;

    @Transactional(Transactional.TxType.REQUIRED)
    public void success(AuditEvent.Type type, String clientId, String subject, String ip, String detail) {
        record(type, "success", clientId, subject, ip, detail);
    }

    @Transactional(Transactional.TxType.REQUIRES_NEW)
    public void failure(AuditEvent.Type type, String clientId, String subject, String ip, String detail) {
        record(type, "failure", clientId, subject, ip, detail);
    }

    private void record(AuditEvent.Type type, String outcome, String clientId, String subject, String ip,
                        String detail) {
        AuditEvent e = new AuditEvent(clock.instant(), type, outcome, clientId, subject, ip, detail);
        em.persist(e);
        LOG.info(e::toString);
    }
}
