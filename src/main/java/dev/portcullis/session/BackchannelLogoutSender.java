package dev.portcullis.session;

import dev.portcullis.audit.AuditEvent;
import dev.portcullis.audit.AuditLog;
import dev.portcullis.client.LogoutNotifications;
import dev.portcullis.crypto.Secrets;
import dev.portcullis.jose.TokenMinter;
import dev.portcullis.metrics.Metrics;
import dev.portcullis.outbound.OutboundFailure;
import dev.portcullis.outbound.OutboundHttp;
import dev.portcullis.protocol.LogText;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import jakarta.annotation.Resource;
import jakarta.ejb.ConcurrencyManagement;
import jakarta.ejb.ConcurrencyManagementType;
import jakarta.ejb.DependsOn;
import jakarta.ejb.Singleton;
import jakarta.ejb.Startup;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.enterprise.concurrent.ManagedScheduledExecutorService;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.event.TransactionPhase;
import jakarta.inject.Inject;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Sends the queued back-channel logouts ({@link LogoutDeliveryRepository}) on every instance: polls every second, and at
 * once when this instance has queued one ({@link BackchannelLogout}). Each claimed delivery is sent on its own task:
 * a freshly signed logout token ({@link TokenMinter#logoutToken}, valid {@link #TOKEN_LIFETIME}) POSTed as
 * {@code logout_token=} form data to the client's backchannel_logout_uri as registered now, through
 * {@link OutboundHttp} (the address checked), with {@value #CONNECT_TIMEOUT_MS} ms to connect and
 * {@value #TOTAL_TIMEOUT_MS} ms for the answer, no redirect followed and the answer's body not read. 200 or 204 is
 * delivered; what can succeed later ({@link #verdict}: a 5xx, 408, 429, a time-out, no connection) is retried with
 * back-off ({@link LogoutDeliveryRepository#nextAttempt}) until the delivery's give-up time
 * ({@code portcullis.logout.backchannel.retry-for} after the logout), then given up; any other answer (a 400 from a
 * relying party that could not validate the token, a 3xx, another 2xx), a client deleted or without a URI now, or a
 * URI naming an address {@code portcullis.outbound.allowed-networks} does not admit, is given up at once. Each outcome
 * is audited.
 *
 * <p>Runs on the default managed scheduled executor, like {@code retention.ExpiredRowsCleanup} (no EJB timer).
 */
@Startup
@Singleton
@DependsOn("DatabaseMigration")
@ConcurrencyManagement(ConcurrencyManagementType.BEAN)
@TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
public class BackchannelLogoutSender {

    static final int CONNECT_TIMEOUT_MS = 5_000;
    static final int TOTAL_TIMEOUT_MS = 5_000;
    static final Duration TOKEN_LIFETIME = Duration.ofMinutes(2);
    private static final long POLL_MS = 1_000;
    private static final int CLAIM_LIMIT = 20;
    private static final OutboundHttp.Limits LIMITS = new OutboundHttp.Limits(Duration.ofMillis(CONNECT_TIMEOUT_MS),
            Duration.ofMillis(TOTAL_TIMEOUT_MS), 0);
    private static final Logger LOG = Logger.getLogger(BackchannelLogoutSender.class.getName());

    @Resource
    ManagedScheduledExecutorService scheduler;

    @Inject
    LogoutDeliveryRepository deliveries;

    @Inject
    Metrics metrics;

    @Inject
    BackchannelLogout backchannel;

    @Inject
    TokenMinter minter;

    @Inject
    AuditLog audit;

    @Inject
    Clock clock;

    /** This instance's name on its claims: random per start, so a restarted instance holds nothing of its past. */
    private final String owner = Secrets.newId();

    private final AtomicBoolean claiming = new AtomicBoolean();

    @Inject
    OutboundHttp outbound;

    private ScheduledFuture<?> schedule;

    private volatile boolean stopped;

    @PostConstruct
    void start() {
        // the name on this instance's leases (logout_deliveries.lease_owner), so an operator can tell who holds one
        LOG.log(Level.INFO, "Back-channel logouts are claimed here as {0}", owner);
        schedule = scheduler.scheduleWithFixedDelay(this::sendDue, POLL_MS + ThreadLocalRandom.current()
                .nextLong(POLL_MS), POLL_MS, TimeUnit.MILLISECONDS);
    }

    @PreDestroy
    void stop() {
        stopped = true;
        schedule.cancel(false);
    }

    /**
     * Sends what this instance has just queued, once the transaction that queued it has committed (at once when it
     * ran in none); a rolled-back logout queued nothing and wakes nothing. Public: an observer of an EJB is one of
     * its business methods.
     */
    public void queued(@Observes(during = TransactionPhase.AFTER_SUCCESS) BackchannelLogoutsQueued queued) {
        if (!stopped) {
            scheduler.execute(this::sendDue);
        }
    }

    /** Claims what is due and starts a send for each; one claim round at a time on this instance. */
    void sendDue() {
        if (!claiming.compareAndSet(false, true)) {
            return;
        }
        try {
            for (LogoutDeliveryRepository.Delivery d : deliveries.claimDue(owner, clock.instant(), CLAIM_LIMIT)) {
                scheduler.execute(() -> attempt(d));
            }
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "Claiming back-channel logouts failed; retrying at the next poll: {0}",
                    LogText.escape(e.toString()));
        } finally {
            claiming.set(false);
        }
    }

    /** One attempt at a claimed delivery and its outcome, settled only while this instance still holds it. */
    void attempt(LogoutDeliveryRepository.Delivery d) {
        try {
            Optional<LogoutNotifications> registration = backchannel.currentRegistration(d.clientId());
            String uri = registration.map(LogoutNotifications::backchannelUri).orElse(null);
            if (uri == null) {
                if (deliveries.settle(d, owner)) {
                    metrics.backchannelDelivery(Metrics.Delivery.GIVEN_UP);
                    audit.failure(AuditEvent.Type.BACKCHANNEL_LOGOUT_GIVEN_UP, d.clientId(), d.subject(), null,
                            "the client has no backchannel_logout_uri any more");
                }
                return;
            }
            Instant now = clock.instant();
            String token = minter.logoutToken(new TokenMinter.LogoutTokenClaims(Secrets.newId(), d.subject(),
                    d.clientId(), d.sid(), Instant.ofEpochSecond(now.getEpochSecond()),
                    Instant.ofEpochSecond(now.getEpochSecond()).plus(TOKEN_LIFETIME)));
            Outcome sent = send(uri, token);
            if (sent.verdict() == Verdict.DELIVERED) {
                if (deliveries.settle(d, owner)) {
                    metrics.backchannelDelivery(Metrics.Delivery.DELIVERED);
                    audit.success(AuditEvent.Type.BACKCHANNEL_LOGOUT_DELIVERED, d.clientId(), d.subject(), null,
                            "delivered to " + uri + " at attempt " + d.attempts());
                }
                return;
            }
            if (sent.verdict() == Verdict.REFUSED) {
                if (deliveries.settle(d, owner)) {
                    metrics.backchannelDelivery(Metrics.Delivery.GIVEN_UP);
                    audit.failure(AuditEvent.Type.BACKCHANNEL_LOGOUT_GIVEN_UP, d.clientId(), d.subject(), null,
                            "not sent: backchannel_logout_uri " + sent.detail());
                }
                return;
            }
            if (sent.verdict() == Verdict.FINAL) {
                if (deliveries.settle(d, owner)) {
                    audit.failure(AuditEvent.Type.BACKCHANNEL_LOGOUT_GIVEN_UP, d.clientId(), d.subject(), null,
                            "given up at attempt " + d.attempts() + ": " + sent.detail()
                            + ", which a retry would not change");
                }
                return;
            }
            String outcome = sent.detail();
            Instant after = clock.instant();
            Optional<Instant> next = LogoutDeliveryRepository.nextAttempt(d, after);
            if (next.isEmpty()) {
                if (deliveries.settle(d, owner)) {
                    metrics.backchannelDelivery(Metrics.Delivery.GIVEN_UP);
                    audit.failure(AuditEvent.Type.BACKCHANNEL_LOGOUT_GIVEN_UP, d.clientId(), d.subject(), null,
                            "given up after " + d.attempts() + " attempts: " + outcome);
                }
            } else if (deliveries.retryAt(d, owner, next.get(), outcome)) {
                metrics.backchannelDelivery(Metrics.Delivery.FAILED);
                audit.failure(AuditEvent.Type.BACKCHANNEL_LOGOUT_FAILED, d.clientId(), d.subject(), null,
                        "attempt " + d.attempts() + ": " + outcome + "; next in "
                        + Duration.between(after, next.get()).toMillis() + " ms");
            }
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "A back-channel logout attempt failed unexpectedly: {0}",
                    LogText.escape(e.toString()));
            // due again after the back-off; if even that fails, the lease runs out and any instance tries again
            try {
                Instant now = clock.instant();
                deliveries.retryAt(d, owner, LogoutDeliveryRepository.nextAttempt(d, now).orElse(now),
                        "failed here: " + e.getClass().getSimpleName());
            } catch (RuntimeException again) {
                LOG.log(Level.WARNING, "Releasing the back-channel logout failed too: {0}",
                        LogText.escape(again.toString()));
            }
        }
    }

    /** How one send ended, as it decides the delivery's fate. */
    enum Verdict {
        /** 200 or 204: the relying party has logged the session out. */
        DELIVERED,
        /** Something that can pass: a 5xx, 408, 429, a time-out or no connection; tried again after the back-off. */
        RETRY,
        /** An answer the relying party would give again (a 4xx such as 400, a 3xx, another 2xx, a malformed reply). */
        FINAL,
        /** The URI's address is not one Portcullis may reach: no request was made. */
        REFUSED
    }

    /** What became of one send: its verdict and what happened, in the words of the audit trail. */
    record Outcome(Verdict verdict, String detail) {
    }

    /**
     * The verdict on an HTTP answer: 200 and 204 deliver; a server error (5xx), 408 (the receiver timed the request
     * out) and 429 (it asks to be called later) may pass and are retried; every other status is the receiver's
     * considered answer to this token (400: it could not validate it; 3xx: a redirect, never followed) and final.
     */
    static Verdict verdict(int status) {
        if (status == 200 || status == 204) {
            return Verdict.DELIVERED;
        }
        return status >= 500 && status <= 599 || status == 408 || status == 429 ? Verdict.RETRY : Verdict.FINAL;
    }

    /**
     * The verdict on a send that got no usable answer: no connection and a time-out may pass; an address refused or
     * an answer that is not HTTP/1.x as read here would be the same next time.
     */
    static Verdict verdict(OutboundFailure.Kind kind) {
        return switch (kind) {
            case UNREACHABLE, TIMED_OUT -> Verdict.RETRY;
            case REFUSED -> Verdict.REFUSED;
            case TOO_LARGE, MALFORMED -> Verdict.FINAL;
        };
    }

    /** POSTs the token to {@code uri}; a redirect is an answer like any other, never followed. */
    Outcome send(String uri, String token) {
        try {
            int status = outbound.postForm(uri, "logout_token=" + URLEncoder.encode(token, StandardCharsets.US_ASCII),
                    LIMITS).status();
            return new Outcome(verdict(status), "answered " + status);
        } catch (OutboundFailure e) {
            return new Outcome(verdict(e.kind()), notAnswered(e));
        }
    }

    /** What went wrong, in the words the audit trail and the delivery's last outcome keep. */
    static String notAnswered(OutboundFailure e) {
        return switch (e.kind()) {
            case TIMED_OUT -> "no answer within " + TOTAL_TIMEOUT_MS + " ms (" + e.getMessage() + ")";
            case REFUSED -> e.getMessage();
            default -> "not answered: " + e.getMessage();
        };
    }
}
