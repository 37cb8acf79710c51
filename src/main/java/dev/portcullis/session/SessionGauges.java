package dev.portcullis.session;

import io.prometheus.metrics.model.registry.MultiCollector;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Clock;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The session gauges of {@code GET /metrics}, read from the database at scrape time so that every instance answers
 * for the cluster: live SSO sessions, and the back-channel logout queue's depth and the age of its oldest delivery.
 * When the database does not answer, the scrape goes on without them (an alert on their absence sees it).
 */
@ApplicationScoped
public class SessionGauges implements MultiCollector {

    private static final Logger LOG = Logger.getLogger(SessionGauges.class.getName());

    @Inject
    SsoSessionRepository sessions;

    @Inject
    LogoutDeliveryRepository deliveries;

    @Inject
    Clock clock;

    @Override
    public MetricSnapshots collect() {
        try {
            long live = sessions.countLive();
            LogoutDeliveryRepository.Queue queue = deliveries.queue();
            double oldestAge = queue.oldestCreatedMillis() == null ? 0
                    : Math.max(0, clock.millis() - queue.oldestCreatedMillis()) / 1000.0;
            return MetricSnapshots.of(
                    gauge("portcullis_sso_sessions_active", "SSO sessions neither expired nor idle too long", live),
                    gauge("portcullis_backchannel_queue_depth", "Back-channel logout deliveries waiting",
                            queue.depth()),
                    gauge("portcullis_backchannel_queue_oldest_age_seconds",
                            "Age of the oldest waiting back-channel logout delivery (0 when none)", oldestAge));
        } catch (RuntimeException e) {
            LOG.log(Level.FINE, "Session gauges unavailable: " + e.getClass().getSimpleName());
            return MetricSnapshots.of();
        }
    }

    static GaugeSnapshot gauge(String name, String help, double value) {
        return GaugeSnapshot.builder().name(name).help(help)
                .dataPoint(GaugeSnapshot.GaugeDataPointSnapshot.builder().value(value).build()).build();
    }
}
