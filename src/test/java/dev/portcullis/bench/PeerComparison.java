package dev.portcullis.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * Portcullis beside the peer on one database: per scenario the ratio Portcullis ÷ peer of flows/s, server CPU per
 * flow, p50, p99 and RSS under load, and of the runs' time to ready and idle RSS. A ratio is empty ("n/a") where
 * either side has no figure (skipped, failed set-up, no flow, or a figure of 0).
 */
final class PeerComparison {

    /** The ratios of one scenario; {@code note} says why a row is n/a. */
    record Row(String scenario, Optional<Double> flowsPerSecond, Optional<Double> cpuPerFlow, Optional<Double> p50,
               Optional<Double> p99, Optional<Double> rssMax, String note) {
    }

    private PeerComparison() {
    }

    static List<Row> rows(BenchReport.Run portcullis, BenchReport.Run peer) {
        List<Row> rows = new ArrayList<>();
        for (ScenarioResult p : portcullis.results()) {
            ScenarioResult q = peer.results().stream().filter(r -> r.scenario().equals(p.scenario())).findFirst()
                    .orElse(null);
            String note = q == null ? "not run on the peer" : unusable(p, "Portcullis") != null ? unusable(p, "Portcullis")
                    : unusable(q, "peer");
            if (note != null) {
                rows.add(new Row(p.scenario(), Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(),
                        Optional.empty(), note));
                continue;
            }
            rows.add(new Row(p.scenario(), ratio(p.flowsPerSecond(), q.flowsPerSecond()),
                    ratio(p.serverCpuMillisPerFlow(), q.serverCpuMillisPerFlow()), ratio(p.p50Millis(), q.p50Millis()),
                    ratio(p.p99Millis(), q.p99Millis()), ratio(p.serverRssMaxKib(), q.serverRssMaxKib()), null));
        }
        return rows;
    }

    private static String unusable(ScenarioResult r, String side) {
        if (r.wasSkipped()) {
            return side + ": " + r.note();
        }
        if (r.flows() == 0) {
            return side + ": no successful flow" + (r.note() == null ? "" : " (" + r.note() + ")");
        }
        return null;
    }

    /** a ÷ b, empty unless both are positive (a figure of 0 or -1 means not measured). */
    static Optional<Double> ratio(double a, double b) {
        return a > 0 && b > 0 ? Optional.of(a / b) : Optional.empty();
    }

    static String markdown(BenchReport.Run portcullis, BenchReport.Run peer) {
        StringBuilder sb = new StringBuilder()
                .append("# Portcullis ÷ ").append(peer.options().peer()).append(" — ").append(portcullis.database())
                .append("\n\n- Portcullis on ").append(portcullis.database()).append("; peer: ").append(peer.peer())
                .append("\n- ratio = Portcullis ÷ peer: above 1 is more flows/s, but more CPU, latency or memory")
                .append("\n- time to ready: ").append(portcullis.readyMillis()).append(" ms ÷ ").append(peer.readyMillis())
                .append(" ms = ").append(format(ratio(portcullis.readyMillis(), peer.readyMillis())))
                .append("; idle RSS: ").append(portcullis.idleRssKib() / 1024).append(" MiB ÷ ")
                .append(peer.idleRssKib() / 1024).append(" MiB = ")
                .append(format(ratio(portcullis.idleRssKib(), peer.idleRssKib()))).append("\n\n")
                .append("| scenario | flows/s | server CPU ms/flow | p50 | p99 | server RSS max | note |\n")
                .append("|---|---:|---:|---:|---:|---:|---|\n");
        for (Row r : rows(portcullis, peer)) {
            sb.append("| ").append(r.scenario()).append(" | ").append(format(r.flowsPerSecond())).append(" | ")
                    .append(format(r.cpuPerFlow())).append(" | ").append(format(r.p50())).append(" | ")
                    .append(format(r.p99())).append(" | ").append(format(r.rssMax())).append(" | ")
                    .append(r.note() == null ? "" : r.note()).append(" |\n");
        }
        return sb.toString();
    }

    static String json(BenchReport.Run portcullis, BenchReport.Run peer) {
        String rows = rows(portcullis, peer).stream().map(r -> "{\"scenario\":" + Target.q(r.scenario())
                + ",\"flows_per_second\":" + number(r.flowsPerSecond()) + ",\"server_cpu_ms_per_flow\":"
                + number(r.cpuPerFlow()) + ",\"p50_ms\":" + number(r.p50()) + ",\"p99_ms\":" + number(r.p99())
                + ",\"server_rss_max\":" + number(r.rssMax()) + ",\"note\":"
                + (r.note() == null ? "null" : Target.q(r.note())) + "}").collect(Collectors.joining(",\n    "));
        return "{\n  \"database\": " + Target.q(portcullis.database()) + ",\n  \"peer\": " + Target.q(peer.peer())
                + ",\n  \"ratio\": \"Portcullis / peer\",\n  \"ready_ms\": " + number(ratio(portcullis.readyMillis(),
                peer.readyMillis())) + ",\n  \"idle_rss\": " + number(ratio(portcullis.idleRssKib(), peer.idleRssKib()))
                + ",\n  \"scenarios\": [\n    " + rows + "\n  ]\n}\n";
    }

    static void write(Path dir, BenchReport.Run portcullis, BenchReport.Run peer) throws IOException {
        String name = "results-" + portcullis.database() + "-vs-" + peer.options().peer();
        Files.createDirectories(dir);
        Files.writeString(dir.resolve(name + ".md"), markdown(portcullis, peer));
        Files.writeString(dir.resolve(name + ".json"), json(portcullis, peer));
    }

    private static String format(Optional<Double> ratio) {
        return ratio.map(v -> String.format(Locale.ROOT, "%.2f×", v)).orElse("n/a");
    }

    private static String number(Optional<Double> ratio) {
        return ratio.map(v -> String.format(Locale.ROOT, "%.3f", v)).orElse("null");
    }
}
