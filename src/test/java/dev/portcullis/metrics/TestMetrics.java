package dev.portcullis.metrics;

import java.util.List;

/** A registry of the server's metrics without CDI, for unit tests that build services by hand. */
public final class TestMetrics {

    private TestMetrics() {
    }

    /** Every metric registered, no per-client label, no database gauges. */
    public static Metrics create() {
        Metrics metrics = new Metrics();
        metrics.register(false, List.of());
        return metrics;
    }
}
