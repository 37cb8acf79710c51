package dev.portcullis.jose;

import io.prometheus.metrics.model.registry.MultiCollector;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Clock;
import java.time.Instant;
import java.util.Map;
import java.util.TreeMap;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * {@code portcullis_signing_key_age_seconds}: per algorithm, how long the key that signs now has been signing, read
 * from the database at scrape time (the key every instance signs with), so an alert can ask for a rotation.
 */
@ApplicationScoped
public class SigningKeyGauges implements MultiCollector {

    private static final Logger LOG = Logger.getLogger(SigningKeyGauges.class.getName());

    @Inject
    SigningKeyRepository keys;

    @Inject
    Clock clock;

    @Override
    public MetricSnapshots collect() {
        try {
            Instant now = clock.instant();
            Map<String, Instant> signingSince = new TreeMap<>();
            for (SigningKey k : keys.all()) {
                if (SigningKeyService.signsAt(k, now)) {
                    signingSince.merge(k.alg(), k.activeFrom(), (a, b) -> a.isAfter(b) ? a : b);
                }
            }
            GaugeSnapshot.Builder age = GaugeSnapshot.builder().name("portcullis_signing_key_age_seconds")
                    .help("How long the key that signs now has been signing, per algorithm");
            signingSince.forEach((alg, since) -> age.dataPoint(GaugeSnapshot.GaugeDataPointSnapshot.builder()
                    .labels(Labels.of("alg", alg)).value(now.getEpochSecond() - since.getEpochSecond()).build()));
            return MetricSnapshots.of(age.build());
        } catch (RuntimeException e) {
            LOG.log(Level.FINE, "Signing key gauge unavailable: " + e.getClass().getSimpleName());
            return MetricSnapshots.of();
        }
    }
}
