package dev.portcullis.audit;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.transaction.Transactional;
import java.time.Clock;
import java.util.EnumSet;
import java.util.Set;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Records security events in the audit table and the server log. A success joins the caller's transaction, if any,
 * so it commits together with what it records (and costs no transaction of its own on the token path); a failure is
 * its own transaction (REQUIRES_NEW), so it survives the rollback of the request that caused it. The rows are
 * {@link AuditEventRepository}'s. Callers pass ids, never secrets: no passwords, codes, tokens or client secrets.
 *
 * <p>The server log gets every event at INFO except the routine successes of the token path (a code issued, a code
 * redeemed, a token refreshed: two per sign-in flow, thousands a second under load), which are logged at FINE,
 * because the console handler writes synchronously under a lock that every request thread would queue on. They are
 * always in the audit table; set the logger {@code dev.portcullis.audit} to FINE to log them.
 */
@ApplicationScoped
public class AuditLog {

    private static final Logger LOG = Logger.getLogger("dev.portcullis.audit");

    /** Successes logged at FINE (see above). */
    private static final Set<AuditEvent.Type> ROUTINE = EnumSet.of(AuditEvent.Type.CODE_ISSUED,
            AuditEvent.Type.CODE_REDEEMED, AuditEvent.Type.TOKEN_REFRESHED);

    @Inject
    AuditEventRepository events;

    @Inject
    Clock clock;

    public void success(AuditEvent.Type type, String clientId, String subject, String ip, String detail) {
        record(type, "success", clientId, subject, ip, detail, null);
    }

    /** An administrative change made by {@code actor}, in the caller's transaction like every success. */
    public void change(AuditEvent.Type type, Actor actor, String clientId, String subject, String detail) {
        record(type, "success", clientId, subject, actor.ip(), detail, actor.id());
    }

    @Transactional(Transactional.TxType.REQUIRES_NEW)
    public void failure(AuditEvent.Type type, String clientId, String subject, String ip, String detail) {
        record(type, "failure", clientId, subject, ip, detail, null);
    }

    private void record(AuditEvent.Type type, String outcome, String clientId, String subject, String ip,
                        String detail, String actor) {
        AuditEvent e = new AuditEvent(clock.instant(), type, outcome, clientId, subject, ip, detail, actor);
        events.add(e);
        LOG.log(outcome.equals("success") && ROUTINE.contains(type) ? Level.FINE : Level.INFO, e::toString);
    }
}
