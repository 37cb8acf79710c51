package dev.portcullis.bench;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.logging.Logger;

/**
 * Runs one scenario: N workers (platform threads, one connection each) loop on {@link Scenario.Worker#runOnce}
 * through a warm-up and then a fixed measured window. Only iterations that start and end inside the window count;
 * each failure is counted (by kind, with a sample message). Around the window it reads the server's CPU time and
 * samples its RSS every 200 ms.
 */
final class LoadRunner {

    private static final Logger LOG = Logger.getLogger(LoadRunner.class.getName());
    private static final int WARMUP = 0;
    private static final int MEASURE = 1;
    private static final int STOP = 2;

    private volatile int phase = WARMUP;
    private final AtomicLong warmupErrors = new AtomicLong();
    private final AtomicLong errors = new AtomicLong();
    private final Map<String, String> errorSamples = new ConcurrentHashMap<>();

    private LoadRunner() {
    }

    static ScenarioResult run(Scenario scenario, Target target, long serverPid, BenchOptions o) throws InterruptedException {
        return new LoadRunner().execute(scenario, target, serverPid, o);
    }

    private ScenarioResult execute(Scenario scenario, Target target, long serverPid, BenchOptions o)
            throws InterruptedException {
        int n = scenario.workers(o);
        List<Scenario.Worker> workers = new ArrayList<>();
        try {
            for (int i = 0; i < n; i++) {
                workers.add(scenario.prepare(i, target));
            }
        } catch (ScenarioUnavailable e) {
            workers.forEach(Scenario.Worker::close);
            LOG.info(() -> scenario.name() + ": skipped — " + e.getMessage());
            return ScenarioResult.skipped(scenario.name(), n, e.getMessage());
        } catch (IOException | RuntimeException e) {
            workers.forEach(Scenario.Worker::close);
            LOG.warning(() -> scenario.name() + ": setup failed — " + e);
            return new ScenarioResult(scenario.name(), n, 0, 0, 0, 0, 0, 0, 1, 0,
                    Map.of("setup", String.valueOf(e.getMessage())), -1, 0, 0, 0, "setup failed: " + e.getMessage());
        }

        long[][] samples = new long[n][];
        int[] counts = new int[n];
        Thread[] threads = new Thread[n];
        for (int i = 0; i < n; i++) {
            int w = i;
            threads[i] = new Thread(() -> {
                long[] lat = new long[4096];
                int count = 0;
                Scenario.Worker worker = workers.get(w);
                while (phase != STOP) {
                    int startPhase = phase;
                    try {
                        long latency = worker.runOnce();
                        if (startPhase == MEASURE && phase == MEASURE) {
                            if (count == lat.length) {
                                lat = Arrays.copyOf(lat, count * 2);
                            }
                            lat[count++] = latency;
                        }
                    } catch (IOException | RuntimeException e) {
                        failed(startPhase, e);
                    }
                }
                samples[w] = lat;
                counts[w] = count;
            }, "bench-" + scenario.name() + "-" + i);
            threads[i].start();
        }

        LOG.info(() -> scenario.name() + ": " + n + " workers, warm-up " + o.warmupSeconds() + " s");
        TimeUnit.SECONDS.sleep(o.warmupSeconds());
        long cpu0 = ProcStats.cpuNanos(serverPid);
        long jit0 = ProcStats.jitCpuNanos(serverPid);
        long selfCpu0 = ProcStats.cpuNanos(ProcessHandle.current().pid());
        long t0 = System.nanoTime();
        phase = MEASURE;
        long rssMax = ProcStats.rssKib(serverPid);
        long end = t0 + TimeUnit.SECONDS.toNanos(o.measureSeconds());
        while (System.nanoTime() < end) {
            TimeUnit.MILLISECONDS.sleep(Math.min(200, Math.max(1, TimeUnit.NANOSECONDS.toMillis(end - System.nanoTime()))));
            rssMax = Math.max(rssMax, ProcStats.rssKib(serverPid));
        }
        phase = STOP;
        long t1 = System.nanoTime();
        long cpu1 = ProcStats.cpuNanos(serverPid);
        long jit1 = ProcStats.jitCpuNanos(serverPid);
        long selfCpu1 = ProcStats.cpuNanos(ProcessHandle.current().pid());
        for (Thread t : threads) {
            t.join(TimeUnit.SECONDS.toMillis(60));
        }
        workers.forEach(Scenario.Worker::close);

        int total = Arrays.stream(counts).sum();
        long[] all = new long[total];
        int pos = 0;
        for (int i = 0; i < n; i++) {
            if (samples[i] != null) {
                System.arraycopy(samples[i], 0, all, pos, counts[i]);
                pos += counts[i];
            }
        }
        Arrays.sort(all);
        double window = (t1 - t0) / 1e9;
        double cpuPerFlow = total == 0 || cpu0 < 0 || cpu1 < 0 ? 0 : (cpu1 - cpu0) / 1e6 / total;
        double jitPerFlow = total == 0 || jit0 < 0 || jit1 < 0 ? 0 : Math.max(0, jit1 - jit0) / 1e6 / total;
        double selfCpuPerFlow = total == 0 ? 0 : (selfCpu1 - selfCpu0) / 1e6 / total;
        ScenarioResult r = new ScenarioResult(scenario.name(), n, window, total, total / window,
                percentile(all, 0.50), percentile(all, 0.99), total == 0 ? 0 : all[total - 1] / 1e6,
                errors.get(), warmupErrors.get(), new LinkedHashMap<>(errorSamples), rssMax, cpuPerFlow, jitPerFlow, selfCpuPerFlow,
                null);
        LOG.info(() -> String.format("%s: %.1f flows/s, p50 %.2f ms, p99 %.2f ms, %d errors (%d in warm-up), RSS %d MiB, "
                        + "server CPU %.2f ms/flow (JIT %.2f)", r.scenario(), r.flowsPerSecond(), r.p50Millis(),
                r.p99Millis(), r.errors(), r.warmupErrors(), r.serverRssMaxKib() / 1024, r.serverCpuMillisPerFlow(),
                r.serverJitMillisPerFlow()));
        return r;
    }

    private void failed(int startPhase, Exception e) {
        if (startPhase == MEASURE) {
            errors.incrementAndGet();
        } else {
            warmupErrors.incrementAndGet();
        }
        String kind = e instanceof FlowFailure f ? f.kind() : e.getClass().getSimpleName();
        if (errorSamples.size() < 20) {
            errorSamples.putIfAbsent(kind, String.valueOf(e.getMessage()));
        }
    }

    /** Nearest-rank percentile of sorted nanosecond samples, in milliseconds. */
    static double percentile(long[] sorted, double p) {
        if (sorted.length == 0) {
            return 0;
        }
        int rank = (int) Math.ceil(p * sorted.length);
        return sorted[Math.max(0, Math.min(sorted.length - 1, rank - 1))] / 1e6;
    }
}
