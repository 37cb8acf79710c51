package dev.portcullis.retention;

import dev.portcullis.account.SecondFactorThrottle;
import dev.portcullis.account.SignInThrottle;
import dev.portcullis.audit.Actor;
import dev.portcullis.audit.AuditEvent;
import dev.portcullis.audit.AuditEventRepository;
import dev.portcullis.audit.AuditLog;
import dev.portcullis.authorize.AuthorizationCodeRepository;
import dev.portcullis.authorize.PushedRequestRepository;
import dev.portcullis.authorize.RequestObjectJtiRepository;
import dev.portcullis.authorize.RequestObjectVerifier;
import dev.portcullis.config.RetentionSettings;
import dev.portcullis.dpop.DpopProofJtiRepository;
import dev.portcullis.kerberos.UsedAuthenticatorRepository;
import dev.portcullis.session.SsoSessionRepository;
import dev.portcullis.token.ClientAssertionJtiRepository;
import dev.portcullis.token.ClientAssertionVerifier;
import dev.portcullis.token.TokenGrantRepository;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import jakarta.annotation.Resource;
import jakarta.ejb.DependsOn;
import jakarta.ejb.Singleton;
import jakarta.ejb.Startup;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.enterprise.concurrent.ManagedScheduledExecutorService;
import jakarta.inject.Inject;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Deletes rows that can no longer be used, so no table grows with the server's age: expired SSO sessions, stale
 * sign-in counters, authorization codes, access-token records and refresh tokens a day past expiry, grants with no
 * token left, the jtis of expired client assertions, used Kerberos authenticators past their time, pushed
 * authorization requests past their time, the jtis of DPoP proofs too old to be accepted, and audit events
 * past {@code portcullis.audit.retention-days}.
 *
 * <p>Every instance runs it every 10 minutes, on the server's default managed scheduled executor (Jakarta
 * Concurrency: nothing persistent, nothing to coordinate; not an EJB timer, whose service Payara keeps in its
 * Hazelcast data grid, which the run command switches off — docs/decisions.md). The first run is 1–2 minutes after
 * start, at a random point so that instances started together do not purge in step,
 * and off the deployment's path, so a large backlog never delays readiness. Every DELETE is idempotent and works in
 * chunks that commit on their own ({@code Jdbc.deleteInChunks}), so two instances purging at once only share the
 * work. {@code POST /admin/purge} runs it on demand.
 */
@Startup
@Singleton
@DependsOn("DatabaseMigration")
@TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
public class ExpiredRowsCleanup {

    /** What one run deleted, per table. */
    public record Purged(int ssoSessions, int throttleCounters, int authorizationCodes, int accessTokens,
                         int refreshTokens, int tokenGrants, int clientAssertionJtis, int kerberosAuthenticators,
                         int pushedAuthorizationRequests, int requestObjectJtis, int dpopProofJtis,
                         int auditEvents) {
        public int total() {
            return ssoSessions + throttleCounters + authorizationCodes + accessTokens + refreshTokens + tokenGrants
                    + clientAssertionJtis + kerberosAuthenticators + pushedAuthorizationRequests + requestObjectJtis
                    + dpopProofJtis
                    + auditEvents;
        }

        /** The counts under the names of the admin API's answer. */
        public Map<String, Integer> byName() {
            Map<String, Integer> m = new LinkedHashMap<>();
            m.put("sso_sessions", ssoSessions);
            m.put("throttle_counters", throttleCounters);
            m.put("authorization_codes", authorizationCodes);
            m.put("access_tokens", accessTokens);
            m.put("refresh_tokens", refreshTokens);
            m.put("token_grants", tokenGrants);
            m.put("client_assertion_jtis", clientAssertionJtis);
            m.put("kerberos_authenticators", kerberosAuthenticators);
            m.put("pushed_authorization_requests", pushedAuthorizationRequests);
            m.put("request_object_jtis", requestObjectJtis);
            m.put("dpop_proof_jtis", dpopProofJtis);
            m.put("audit_events", auditEvents);
            return m;
        }

        @Override
        public String toString() {
            StringBuilder b = new StringBuilder();
            byName().forEach((table, n) -> b.append(b.length() == 0 ? "" : ", ").append(table).append('=').append(n));
            return b.toString();
        }
    }

    /**
     * How long codes and tokens are kept past expiry. Until then a replayed code or a reused refresh token is still
     * recognised as such and revokes its grant, and the audit trail's ids still resolve.
     */
    static final Duration GRACE = Duration.ofDays(1);

    private static final Duration INTERVAL = Duration.ofMinutes(10);

    private static final Logger LOG = Logger.getLogger(ExpiredRowsCleanup.class.getName());
    /** The subject of a purge an operator asked for, as the audit trail has always named it (filters rely on it). */
    static final String REQUESTED_PURGE_SUBJECT = "admin";

    @Resource
    ManagedScheduledExecutorService scheduler;

    private ScheduledFuture<?> schedule;

    @Inject
    SsoSessionRepository sessions;

    @Inject
    SignInThrottle throttle;

    @Inject
    SecondFactorThrottle factorThrottle;

    @Inject
    AuthorizationCodeRepository codes;

    @Inject
    TokenGrantRepository grants;

    @Inject
    ClientAssertionJtiRepository assertionJtis;

    @Inject
    UsedAuthenticatorRepository kerberosAuthenticators;

    @Inject
    AuditLog audit;

    @Inject
    AuditEventRepository auditEvents;

    @Inject
    PushedRequestRepository pushedRequests;

    @Inject
    RequestObjectJtiRepository requestObjectJtis;

    @Inject
    RetentionSettings retentionSettings;

    @Inject
    Clock clock;

    @Inject
    DpopProofJtiRepository dpopJtis;

    @PostConstruct
    void schedule() {
        long firstRunMs = 60_000 + ThreadLocalRandom.current().nextLong(60_000);
        schedule = scheduler.scheduleAtFixedRate(this::scheduledRun, firstRunMs, INTERVAL.toMillis(),
                TimeUnit.MILLISECONDS);
    }

    @PreDestroy
    void cancel() {
        schedule.cancel(false);
    }

    /** Runs on the executor's thread, outside any transaction, as {@code Jdbc.deleteInChunks} requires. */
    void scheduledRun() {
        try {
            Purged p = purge();
            LOG.log(p.total() > 0 ? Level.INFO : Level.FINE, "Expired rows purged: {0}", p);
            if (p.total() > 0) {
                audit.success(AuditEvent.Type.EXPIRED_ROWS_PURGED, null, null, null, p.toString());
            }
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "Cleanup of expired rows failed; retrying at the next run: {0}", e.toString());
        }
    }

    /** A run the operator asked for ({@code POST /admin/purge}), audited as {@code actor}'s; a failure propagates. */
    public Purged purgeNow(Actor actor) {
        Purged p = purge();
        LOG.log(Level.INFO, "Expired rows purged on request: {0}", p);
        audit.change(AuditEvent.Type.EXPIRED_ROWS_PURGED, actor, null, REQUESTED_PURGE_SUBJECT, p.toString());
        return p;
    }

    /**
     * Tokens go before grants: a grant is deleted only once no token of it is left. On a failure what was deleted
     * stays deleted and the next run does the rest.
     */
    private Purged purge() {
        Instant now = clock.instant();
        Instant graceOver = now.minus(GRACE);
        int s = sessions.purgeExpired();
        int t = throttle.purgeStale() + factorThrottle.purgeStale();
        int c = codes.purgeExpired(graceOver);
        int a = grants.purgeExpiredAccessTokens(graceOver);
        int r = grants.purgeExpiredRefreshTokens(graceOver);
        int g = grants.purgeEmptyGrants(graceOver);
        // an assertion past exp (and the skew) is refused for that alone, so its jti need not be kept
        int j = assertionJtis.purgeExpired(now.minus(ClientAssertionVerifier.SKEW));
        int k = kerberosAuthenticators.purgeExpired(now);
        // a pushed request past its time can be neither redeemed nor carried by the pages
        int p = pushedRequests.purgeExpired(now);
        // likewise a request object past exp and the skew
        int o = requestObjectJtis.purgeExpired(now.minus(RequestObjectVerifier.SKEW));
        // a proof past its expires_at is refused for its iat alone
        int d = dpopJtis.purgeExpired(now);
        int e = retentionSettings.auditRetention().map(keep -> auditEvents.purgeOlderThan(now.minus(keep))).orElse(0);
        return new Purged(s, t, c, a, r, g, j, k, p, o, d, e);
    }
}
