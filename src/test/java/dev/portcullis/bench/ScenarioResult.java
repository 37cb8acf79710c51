package dev.portcullis.bench;

import java.util.Map;

/**
 * The figures of one scenario on one database. Latencies in milliseconds; CPU per flow in milliseconds of CPU time
 * (utime + stime) during the measured window divided by the successful flows in it; the JIT figure is the part of
 * it spent by the JIT compiler threads (near 0 once the JIT has settled). {@code note} is set (and the
 * figures are empty) when the scenario was skipped.
 */
record ScenarioResult(
        String scenario,
        int workers,
        double windowSeconds,
        long flows,
        double flowsPerSecond,
        double p50Millis,
        double p99Millis,
        double maxMillis,
        long errors,
        long warmupErrors,
        Map<String, String> errorSamples,
        long serverRssMaxKib,
        double serverCpuMillisPerFlow,
        double serverJitMillisPerFlow,
        double loadGeneratorCpuMillisPerFlow,
        String note) {

    static ScenarioResult skipped(String scenario, int workers, String note) {
        return new ScenarioResult(scenario, workers, 0, 0, 0, 0, 0, 0, 0, 0, Map.of(), -1, 0, 0, 0, note);
    }

    boolean wasSkipped() {
        return note != null && flows == 0 && errors == 0;
    }
}
