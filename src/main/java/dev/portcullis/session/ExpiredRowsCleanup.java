package dev.portcullis.session;

import dev.portcullis.account.SignInThrottle;
import dev.portcullis.authorize.AuthorizationCodes;
import jakarta.annotation.PostConstruct;
import jakarta.ejb.DependsOn;
import jakarta.ejb.Schedule;
import jakarta.ejb.Singleton;
import jakarta.ejb.Startup;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Deletes rows of the browser flow that can no longer be used: expired SSO sessions, stale sign-in counters and
 * authorization codes a day past expiry. Every instance runs it (non-persistent timer); the DELETEs are idempotent, so
 * running it on several instances at once is harmless. It also runs once at startup (after the migration), which
 * cleans up after downtime. Each purge is its own transaction, so a failure never breaks deployment.
 */
@Startup
@Singleton
@DependsOn("DatabaseMigration")
@TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
public class ExpiredRowsCleanup {

    private static final Logger LOG = Logger.getLogger(ExpiredRowsCleanup.class.getName());

    @Inject
    SsoSessions sessions;

    @Inject
    SignInThrottle throttle;

    @Inject
    AuthorizationCodes codes;

    @PostConstruct
    void atStartup() {
        purge(Level.INFO);
    }

    @Schedule(minute = "*/10", hour = "*", persistent = false)
    void every10Minutes() {
        purge(Level.FINE);
    }

    private void purge(Level level) {
        try {
            int s = sessions.purgeExpired();
            int t = throttle.purgeStale();
            int c = codes.purgeExpired();
            LOG.log(s + t + c > 0 ? Level.INFO : level, "Expired rows purged: {0} sessions, {1} throttle counters, "
                    + "{2} codes", new Object[] {s, t, c});
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "Cleanup of expired rows failed; retrying at the next run: {0}", e.toString());
        }
    }
}
