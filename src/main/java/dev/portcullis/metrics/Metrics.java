package dev.portcullis.metrics;

import dev.portcullis.config.MetricsSettings;
import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.Histogram;
import io.prometheus.metrics.instrumentation.jvm.JvmMetrics;
import io.prometheus.metrics.model.registry.MultiCollector;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Any;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;
import java.util.Locale;

/**
 * What Portcullis counts, in a registry of this deployment's own (never the client library's JVM-wide default, so two
 * deployments in one server, or a server's own metrics, never clash): the counters and histograms every capability
 * records into, the JVM's instrumentation, and the {@link MultiCollector} beans that read the database at scrape time
 * (so any instance answers for the cluster). Recording is a lock-free add on the hot path; label values come from
 * enums or bounded codes only, never a user name, an address, a token or a secret.
 */
@ApplicationScoped
public class Metrics {

    /** How a user signed in. */
    public enum Method { PWD, WIA, OTP, PASSKEY }

    /** Why a sign-in did not succeed; {@code NONE} for a success. */
    public enum Reason {
        NONE, BAD_PASSWORD, UNKNOWN_USER, LOCKED, THROTTLED, DISABLED, PASSWORD_EXPIRED, DIRECTORY_DOWN,
        DIRECTORY_REFUSED, BUSY, SECOND_FACTOR_FAILED, TICKET_REFUSED, REPLAYED, UNKNOWN_PRINCIPAL
    }

    /** What ended an SSO session. */
    public enum LogoutTrigger { RP_INITIATED, REFRESH_TOKEN, ADMIN, DIRECTORY, FACTOR_CHANGE }

    /** What became of one back-channel logout delivery attempt. */
    public enum Delivery { DELIVERED, FAILED, GIVEN_UP }

    /** The endpoint families of the request latency histogram. */
    public enum Family { AUTHORIZE, TOKEN, USERINFO, INTROSPECT, ADMIN, PAGES, OTHER }

    /** Seconds: from a fast database read to a slow password hash or directory bind. */
    private static final double[] LATENCY_BUCKETS = {0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5,
        5, 10};

    private final PrometheusRegistry registry = new PrometheusRegistry();

    @Inject
    MetricsSettings settings;

    @Inject
    @Any
    Instance<MultiCollector> databaseGauges;

    private Counter signIns;
    private Counter tokensIssued;
    private Counter tokenErrors;
    private Counter refreshTokenReuse;
    private Counter authorizationRefusals;
    private Counter logouts;
    private Counter backchannelDeliveries;
    private Counter throttleLockouts;
    private Counter directoryOperations;
    private Histogram directoryLatency;
    private Counter kerberosTickets;
    private Histogram requestLatency;

    @PostConstruct
    void register() {
        register(settings.clientLabels(), databaseGauges);
    }

    /** Registers every metric, with a per-client label when {@code clientLabels}, and the database's gauges. */
    void register(boolean clientLabels, Iterable<MultiCollector> gauges) {
        String[] perClient = clientLabels ? new String[] {"client"} : new String[0];
        signIns = counter("portcullis_sign_ins", "Sign-in attempts by method, outcome and reason",
                "method", "outcome", "reason");
        tokensIssued = counter("portcullis_tokens_issued", "Token responses by grant type",
                concat(new String[] {"grant_type"}, perClient));
        tokenErrors = counter("portcullis_token_errors", "Token endpoint error responses by OAuth error code",
                concat(new String[] {"error"}, perClient));
        refreshTokenReuse = counter("portcullis_refresh_token_reuse", "Refresh tokens presented again after rotation "
                + "(the grant is revoked)");
        authorizationRefusals = counter("portcullis_authorization_refusals",
                "Authorization requests refused, by OAuth error code", "error");
        logouts = counter("portcullis_logouts", "SSO sessions ended, by what ended them", "trigger");
        backchannelDeliveries = counter("portcullis_backchannel_deliveries",
                "Back-channel logout delivery attempts by result", "result");
        throttleLockouts = counter("portcullis_throttle_lockouts", "Sign-in lock-outs started, by what is locked",
                "scope");
        directoryOperations = counter("portcullis_directory_operations",
                "LDAP operations by kind and outcome", "operation", "outcome");
        directoryLatency = Histogram.builder().name("portcullis_directory_operation_seconds")
                .help("LDAP operation latency").labelNames("operation").classicOnly()
                .classicUpperBounds(LATENCY_BUCKETS).withoutExemplars().register(registry);
        kerberosTickets = counter("portcullis_kerberos_tickets", "SPNEGO tickets by result", "result");
        requestLatency = Histogram.builder().name("portcullis_http_request_duration_seconds")
                .help("Request latency by endpoint family and status class").labelNames("family", "status")
                .classicOnly().classicUpperBounds(LATENCY_BUCKETS).withoutExemplars().register(registry);
        initialise();
        JvmMetrics.builder().register(registry);
        for (MultiCollector g : gauges) {
            registry.register(g);
        }
    }

    /**
     * Every series of a known label set at zero, so it is scraped before its first event: a rule or a graph over it
     * sees 0 rather than nothing, and an increase from the first event on is counted.
     */
    private void initialise() {
        for (Method m : Method.values()) {
            signIns.labelValues(label(m), "success", label(Reason.NONE));
        }
        for (Reason r : Reason.values()) {
            if (r != Reason.NONE) {
                signIns.labelValues(label(Method.PWD), "failure", label(r));
            }
        }
        for (LogoutTrigger t : LogoutTrigger.values()) {
            logouts.labelValues(label(t));
        }
        for (Delivery d : Delivery.values()) {
            backchannelDeliveries.labelValues(label(d));
        }
        for (String scope : new String[] {"account", "second_factor"}) {
            throttleLockouts.labelValues(scope);
        }
        for (String operation : new String[] {"search", "bind", "probe"}) {
            for (String outcome : new String[] {"success", "refused", "unavailable"}) {
                directoryOperations.labelValues(operation, outcome);
            }
            directoryLatency.labelValues(operation);
        }
        kerberosTickets.labelValues("accepted");
        kerberosTickets.labelValues("refused");
    }

    private Counter counter(String name, String help, String... labels) {
        return Counter.builder().name(name).help(help).labelNames(labels).withoutExemplars().register(registry);
    }

    PrometheusRegistry registry() {
        return registry;
    }

    public void signIn(Method method, Reason reason) {
        signIns.labelValues(label(method), reason == Reason.NONE ? "success" : "failure", label(reason)).inc();
    }

    public void tokenIssued(String grantType, String clientId) {
        tokensIssued.labelValues(perClient(grantType, clientId)).inc();
    }

    public void tokenError(String error, String clientId) {
        tokenErrors.labelValues(perClient(error, clientId)).inc();
    }

    public void refreshTokenReused() {
        refreshTokenReuse.inc();
    }

    public void authorizationRefused(String error) {
        authorizationRefusals.labelValues(error).inc();
    }

    public void logout(LogoutTrigger trigger) {
        logouts.labelValues(label(trigger)).inc();
    }

    /** {@code count} sessions ended at once (all of a user's). */
    public void logouts(LogoutTrigger trigger, int count) {
        logouts.labelValues(label(trigger)).inc(count);
    }

    public void backchannelDelivery(Delivery result) {
        backchannelDeliveries.labelValues(label(result)).inc();
    }

    /** {@code scope}: "account" or "second_factor". */
    public void throttleLockout(String scope) {
        throttleLockouts.labelValues(scope).inc();
    }

    /** {@code operation}: "search", "bind" or "probe"; {@code outcome}: "success", "refused" or "unavailable". */
    public void directoryOperation(String operation, String outcome, long startedNanos) {
        directoryOperations.labelValues(operation, outcome).inc();
        directoryLatency.labelValues(operation).observe((System.nanoTime() - startedNanos) / 1e9);
    }

    public void kerberosTicket(boolean accepted) {
        kerberosTickets.labelValues(accepted ? "accepted" : "refused").inc();
    }

    public void request(Family family, int status, long startedNanos) {
        requestLatency.labelValues(label(family), statusClass(status))
                .observe((System.nanoTime() - startedNanos) / 1e9);
    }

    static String statusClass(int status) {
        return status >= 100 && status < 600 ? (status / 100) + "xx" : "5xx";
    }

    private String[] perClient(String value, String clientId) {
        return settings.clientLabels() ? new String[] {value, clientId == null ? "" : clientId} : new String[] {value};
    }

    private static String label(Enum<?> e) {
        return e.name().toLowerCase(Locale.ROOT);
    }

    private static String[] concat(String[] a, String[] b) {
        String[] all = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, all, a.length, b.length);
        return all;
    }
}
