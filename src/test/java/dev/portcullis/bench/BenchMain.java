package dev.portcullis.bench;

import java.nio.file.Files;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.logging.Logger;

/**
 * The Portcullis benchmark (not a test): {@code mvn -Pbench verify} (see docs/benchmark.md). For each database
 * (bench.db = h2 | postgres | both) it starts its own Payara Micro with target/portcullis.war, waits for readiness,
 * provisions a user and two clients, and runs every scenario (bench.scenarios) with bench.workers concurrent workers
 * for bench.warmup seconds, then measures for bench.duration seconds. Results: printed, and written to
 * target/bench/results-DB.md and .json. Exit status 1 if any measured flow failed.
 */
public final class BenchMain {

    private static final Logger LOG = Logger.getLogger(BenchMain.class.getName());

    private BenchMain() {
    }

    public static void main(String[] args) throws Exception {
        BenchOptions o = BenchOptions.fromSystemProperties();
        if (!Files.isRegularFile(o.war()) || !Files.isRegularFile(o.payaraMicroJar())) {
            throw new IllegalStateException("Need " + o.war() + " and " + o.payaraMicroJar()
                    + ": run through the Maven profile (mvn -Pbench verify)");
        }
        boolean failed = false;
        for (String db : o.databases()) {
            BenchReport.Run run = runOn(o, db);
            BenchReport.write(o.outputDir(), run);
            LOG.info("\n" + BenchReport.markdown(run) + "\nwritten to " + o.outputDir().resolve("results-" + db + ".md"));
            failed |= run.results().stream().anyMatch(r -> r.errors() > 0);
            if (o.peer() != null) {
                BenchReport.Run peer = runPeer(o, db);
                BenchReport.write(o.outputDir(), peer);
                PeerComparison.write(o.outputDir(), run, peer);
                LOG.info("\n" + BenchReport.markdown(peer) + "\n" + PeerComparison.markdown(run, peer) + "\nwritten to "
                        + o.outputDir().resolve("results-" + peer.fileKey() + ".md") + " and "
                        + o.outputDir().resolve("results-" + db + "-vs-" + o.peer() + ".md"));
                failed |= peer.results().stream().anyMatch(r -> r.errors() > 0);
            }
        }
        if (failed) {
            LOG.severe("Some measured flows failed: see the error samples above");
            System.exit(1);
        }
    }

    private static BenchReport.Run runOn(BenchOptions o, String db) throws Exception {
        String stamp = LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMddHHmmss"));
        String started = BenchReport.now();
        String loadBefore = BenchReport.loadAverage();
        List<ScenarioResult> results = new ArrayList<>();
        try (BenchServer server = BenchServer.start(o, db, stamp)) {
            server.awaitReady(o.readyTimeoutSeconds());
            long idleRss = ProcStats.rssKib(server.pid());
            LOG.info(() -> db + ": ready " + server.readyMillis() + " ms after JVM launch (pid " + server.pid()
                    + ", RSS " + idleRss / 1024 + " MiB)");
            Target target = new Target(o, server.port, server.adminToken());
            target.provision();
            jitWarmup(o, target, server.pid());
            for (String name : o.scenarios()) {
                results.add(LoadRunner.run(Scenarios.byName(name), target, server.pid(), o));
            }
            return new BenchReport.Run(db, started, server.readyMillis(), idleRss, BenchReport.machine(), loadBefore,
                    BenchReport.loadAverage(), o, results, null);
        }
    }

    /**
     * The peer right after Portcullis on database {@code db} (the peer keeps everything in memory, so only the
     * pairing differs): the same scenarios, load generator, warm-up rounds and windows.
     */
    private static BenchReport.Run runPeer(BenchOptions o, String db) throws Exception {
        String stamp = LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMddHHmmss"));
        String started = BenchReport.now();
        String loadBefore = BenchReport.loadAverage();
        List<ScenarioResult> results = new ArrayList<>();
        try (PeerServer server = PeerServer.start(o, db, stamp)) {
            server.awaitReady(o.readyTimeoutSeconds());
            long idleRss = ProcStats.rssKib(server.pid());
            LOG.info(() -> o.peer() + ": ready " + server.readyMillis() + " ms after launch (pid " + server.pid()
                    + ", RSS " + idleRss / 1024 + " MiB)");
            Target target = server.target(o);
            jitWarmup(o, target, server.pid());
            for (String name : o.scenarios()) {
                results.add(LoadRunner.run(Scenarios.byName(name), target, server.pid(), o));
            }
            return new BenchReport.Run(db, started, server.readyMillis(), idleRss, BenchReport.machine(), loadBefore,
                    BenchReport.loadAverage(), o, results, server.description());
        }
    }

    /**
     * Unreported rounds of every selected scenario except sign-in (bench.jit-warmup seconds each) before the measured
     * rounds, repeated until the JIT has settled: until the JIT compiler threads used at most bench.jit-settled % of
     * the server's CPU in a round, or bench.jit-rounds rounds have run. Payara's request path is thousands of methods;
     * on a slow 2-core machine C2 was still compiling (one core busy) three minutes into the load, which made the
     * server CPU per flow of the first measured scenarios up to twice its steady value.
     */
    private static void jitWarmup(BenchOptions o, Target target, long serverPid) throws InterruptedException {
        if (o.jitWarmupSeconds() == 0) {
            return;
        }
        BenchOptions round = o.withWindows(o.jitWarmupSeconds(), 1);
        for (int i = 1; i <= o.jitRounds(); i++) {
            int jitRound = i; // for the log lambdas
            long cpu0 = ProcStats.cpuNanos(serverPid);
            long jit0 = ProcStats.jitCpuNanos(serverPid);
            for (String name : o.scenarios()) {
                if (!name.equals("sign-in")) {
                    LOG.info(() -> "JIT warm-up round " + jitRound + " (not reported): " + name);
                    LoadRunner.run(Scenarios.byName(name), target, serverPid, round);
                }
            }
            double share = 100.0 * (ProcStats.jitCpuNanos(serverPid) - jit0)
                    / Math.max(1, ProcStats.cpuNanos(serverPid) - cpu0);
            LOG.info(() -> String.format("JIT warm-up round %d: JIT compiler threads used %.1f %% of the server's CPU",
                    jitRound, share));
            if (share <= o.jitSettledPercent()) {
                return;
            }
        }
        LOG.warning(() -> "The JIT had not settled after " + o.jitRounds() + " warm-up rounds: the measured server "
                + "CPU per flow includes compilation (column 'of which JIT')");
    }
}
