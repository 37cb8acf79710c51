package dev.portcullis.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/** Formats one database's run as a Markdown table (printed and written to results-DB.md) and as results-DB.json. */
final class BenchReport {

    /** One server's run on one database; {@code peer} describes the side-by-side peer, null for Portcullis. */
    record Run(String database, String started, long readyMillis, long idleRssKib, String machine, String loadBefore,
               String loadAfter, BenchOptions options, List<ScenarioResult> results, String peer) {

        /** The file name part: the database, and the peer's name for the peer's run. */
        String fileKey() {
            return peer == null ? database : database + "-" + options.peer();
        }
    }

    private BenchReport() {
    }

    static String machine() {
        String cpu = "?";
        String mem = "?";
        try {
            List<String> cpuinfo = Files.readAllLines(Path.of("/proc/cpuinfo"));
            // the model name alone ("AMD EPYC") hides the generation, which moves every figure (docs/performance.md)
            cpu = cpuField(cpuinfo, "model name") + ", family " + cpuField(cpuinfo, "cpu family") + " model "
                    + cpuField(cpuinfo, "model") + (cpuField(cpuinfo, "flags").contains("avx512f") ? ", AVX-512" : "");
            mem = Files.readAllLines(Path.of("/proc/meminfo")).stream().filter(l -> l.startsWith("MemTotal"))
                    .findFirst().map(l -> (Long.parseLong(l.replaceAll("\\D", "")) / 1024 / 1024) + " GiB").orElse("?");
        } catch (IOException | RuntimeException e) {
            // not Linux: the figures are still valid, the machine line is less precise
        }
        return Runtime.getRuntime().availableProcessors() + " cores (" + cpu + "), " + mem + " RAM, JDK "
                + System.getProperty("java.vm.vendor") + " " + System.getProperty("java.runtime.version") + ", "
                + System.getProperty("os.name") + " " + System.getProperty("os.version");
    }

    private static String cpuField(List<String> cpuinfo, String name) {
        return cpuinfo.stream().filter(l -> l.startsWith(name) && l.substring(0, l.indexOf(':')).trim().equals(name))
                .findFirst().map(l -> l.substring(l.indexOf(':') + 1).trim()).orElse("?");
    }

    static String loadAverage() {
        try {
            String[] f = Files.readString(Path.of("/proc/loadavg")).split(" ");
            return f[0] + " " + f[1] + " " + f[2];
        } catch (IOException | RuntimeException e) {
            return "?";
        }
    }

    static String markdown(Run run) {
        BenchOptions o = run.options();
        StringBuilder sb = new StringBuilder();
        sb.append(run.peer() == null ? "# Portcullis bench — " : "# Peer " + o.peer() + " — run beside Portcullis on ")
                .append(run.database()).append("\n\n")
                .append("- started: ").append(run.started()).append("\n")
                .append("- machine: ").append(run.machine()).append("\n")
                .append("- load average before / after: ").append(run.loadBefore()).append(" / ").append(run.loadAfter()).append("\n");
        if (run.peer() != null) {
            sb.append("- server: ").append(run.peer()).append("; the JIT column counts HotSpot's compiler threads, ")
                    .append("so it is 0 for Node (V8's are not told apart) and the JIT warm-up rounds stop after the first\n")
                    .append("- time to ready (Node launch → discovery document 200): ");
        } else {
            sb.append("- server: Payara Micro, JVM options `").append(String.join(" ", o.serverJvmOptions()))
                .append("`, JCA provider for JOSE: ").append(o.accp() ? "ACCP installed in the server (bench.accp=true)"
                        : "the WAR's choice (ACCP unless -Dportcullis.jose.jca-provider=JDK; see server.log)").append("\n")
                .append("- time to ready (JVM launch → /health/ready UP): ");
        }
        sb.append(run.readyMillis()).append(" ms; idle RSS after ready ")
                .append(run.idleRssKib() / 1024).append(" MiB\n")
                .append("- load generator: ").append(o.client()).append(" HTTP/1.1 client, JIT warm-up rounds of ")
                .append(o.jitWarmupSeconds()).append(" s per scenario until the JIT used ≤ ").append(o.jitSettledPercent())
                .append(" % of the server's CPU (at most ").append(o.jitRounds()).append("), then warm-up ").append(o.warmupSeconds())
                .append(" s, measured window ").append(o.measureSeconds()).append(" s per scenario\n\n")
                .append("| scenario | workers | flows/s | p50 ms | p99 ms | max ms | errors | warm-up errors | server RSS max MiB "
                        + "| server CPU ms/flow | of which JIT ms/flow | load-gen CPU ms/flow | note |\n")
                .append("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|\n");
        for (ScenarioResult r : run.results()) {
            if (r.wasSkipped()) {
                sb.append("| ").append(r.scenario()).append(" | ").append(r.workers())
                        .append(" | – | – | – | – | – | – | – | – | – | – | skipped: ").append(r.note()).append(" |\n");
                continue;
            }
            sb.append(String.format(Locale.ROOT, "| %s | %d | %.1f | %.2f | %.2f | %.1f | %d | %d | %d | %.2f | %.2f | %.2f | %s |%n",
                    r.scenario(), r.workers(), r.flowsPerSecond(), r.p50Millis(), r.p99Millis(), r.maxMillis(), r.errors(),
                    r.warmupErrors(), r.serverRssMaxKib() / 1024, r.serverCpuMillisPerFlow(),
                    r.serverJitMillisPerFlow(), r.loadGeneratorCpuMillisPerFlow(), r.note() == null ? "" : r.note()));
        }
        boolean anyErrors = run.results().stream().anyMatch(r -> !r.errorSamples().isEmpty());
        if (anyErrors) {
            sb.append("\n## Errors (one sample per kind)\n\n");
            for (ScenarioResult r : run.results()) {
                r.errorSamples().forEach((kind, sample) -> sb.append("- ").append(r.scenario()).append(" — ")
                        .append(kind).append(": `").append(sample.replace('`', '\'')).append("`\n"));
            }
        }
        return sb.toString();
    }

    static String json(Run run) {
        String results = run.results().stream().map(r -> String.format(Locale.ROOT,
                "{\"scenario\":%s,\"workers\":%d,\"window_seconds\":%.3f,\"flows\":%d,\"flows_per_second\":%.2f,"
                        + "\"p50_ms\":%.3f,\"p99_ms\":%.3f,\"max_ms\":%.3f,\"errors\":%d,\"warmup_errors\":%d,"
                        + "\"error_samples\":%s,\"server_rss_max_kib\":%d,\"server_cpu_ms_per_flow\":%.3f,\"server_jit_ms_per_flow\":%.3f,"
                        + "\"loadgen_cpu_ms_per_flow\":%.3f,\"note\":%s}",
                Target.q(r.scenario()), r.workers(), r.windowSeconds(), r.flows(), r.flowsPerSecond(), r.p50Millis(),
                r.p99Millis(), r.maxMillis(), r.errors(), r.warmupErrors(), jsonMap(r.errorSamples()),
                r.serverRssMaxKib(), r.serverCpuMillisPerFlow(), r.serverJitMillisPerFlow(),
                r.loadGeneratorCpuMillisPerFlow(), r.note() == null ? "null" : Target.q(r.note()))).collect(Collectors.joining(",\n    "));
        BenchOptions o = run.options();
        return "{\n  \"database\": " + Target.q(run.database()) + ",\n  \"server\": "
                + Target.q(run.peer() == null ? "Portcullis" : run.peer()) + ",\n  \"started\": " + Target.q(run.started())
                + ",\n  \"machine\": " + Target.q(run.machine()) + ",\n  \"load_before\": " + Target.q(run.loadBefore())
                + ",\n  \"load_after\": " + Target.q(run.loadAfter()) + ",\n  \"ready_ms\": " + run.readyMillis()
                + ",\n  \"idle_rss_kib\": " + run.idleRssKib() + ",\n  \"client\": " + Target.q(o.client())
                + ",\n  \"warmup_seconds\": " + o.warmupSeconds() + ",\n  \"measure_seconds\": " + o.measureSeconds()
                + ",\n  \"accp\": " + o.accp() + ",\n  \"server_jvm_options\": " + Target.q(String.join(" ", o.serverJvmOptions()))
                + ",\n  \"results\": [\n    " + results + "\n  ]\n}\n";
    }

    private static String jsonMap(Map<String, String> m) {
        return m.entrySet().stream().map(e -> Target.q(e.getKey()) + ":" + Target.q(e.getValue()))
                .collect(Collectors.joining(",", "{", "}"));
    }

    static void write(Path dir, Run run) throws IOException {
        Files.createDirectories(dir);
        Files.writeString(dir.resolve("results-" + run.fileKey() + ".md"), markdown(run));
        Files.writeString(dir.resolve("results-" + run.fileKey() + ".json"), json(run));
    }

    static String now() {
        return Instant.now().toString();
    }
}
