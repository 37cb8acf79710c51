package dev.portcullis.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The bench's options, all Java system properties (the {@code bench} Maven profile passes {@code -Dbench.*} through).
 * Defaults are the figures the README quotes; use short windows while developing (warm-up 5 s, measure 10 s).
 */
record BenchOptions(
        List<String> databases,
        int workers,
        int signInWorkers,
        int warmupSeconds,
        int measureSeconds,
        List<String> scenarios,
        String client,
        List<String> serverJvmOptions,
        Path war,
        Path payaraMicroJar,
        Path preBootCommands,
        Path outputDir,
        String postgresUrl,
        String postgresUser,
        boolean keepDatabase,
        int readyTimeoutSeconds,
        boolean accp,
        int jitWarmupSeconds,
        int jitRounds,
        double jitSettledPercent,
        String peer,
        Path peerSource) {

    /** The one side-by-side peer the bench knows (bench.peer): docs/benchmark.md, "Side by side". */
    static final String NODE_OIDC_PROVIDER = "node-oidc-provider";

    static final List<String> ALL_SCENARIOS =
            List.of("admin-read", "sso-code-flow", "pkce-code-flow", "refresh", "userinfo", "sign-in");

    static BenchOptions fromSystemProperties() {
        String db = prop("bench.db", "h2");
        List<String> dbs = switch (db) {
            case "h2" -> List.of("h2");
            case "postgres" -> List.of("postgres");
            case "both" -> List.of("h2", "postgres");
            default -> throw new IllegalArgumentException("bench.db must be h2, postgres or both, not " + db);
        };
        String peer = prop("bench.peer", "none");
        if (!peer.equals("none") && !peer.equals(NODE_OIDC_PROVIDER)) {
            throw new IllegalArgumentException("bench.peer must be none or " + NODE_OIDC_PROVIDER + ", not " + peer);
        }
        List<String> scenarios = list(prop("bench.scenarios", String.join(",", ALL_SCENARIOS)));
        for (String s : scenarios) {
            if (!ALL_SCENARIOS.contains(s)) {
                throw new IllegalArgumentException("Unknown scenario " + s + "; known: " + ALL_SCENARIOS);
            }
        }
        return new BenchOptions(dbs,
                positive("bench.workers", 8),
                positive("bench.signin.workers", 1),
                nonNegative("bench.warmup", 30),
                positive("bench.duration", 30),
                scenarios,
                prop("bench.client", "raw"),
                jvmOptions(prop("bench.server-jvm-options", "")),
                Path.of(prop("bench.war", "target/portcullis.war")),
                Path.of(prop("bench.payara-micro", "target/payara-micro.jar")),
                Path.of(prop("bench.pre-boot-commands", "server-config/pre-boot-commands.asadmin")),
                Path.of(prop("bench.output", "target/bench")),
                prop("bench.postgres-url", "jdbc:postgresql://127.0.0.1:5432/test"),
                prop("bench.postgres-user", "postgres"),
                Boolean.parseBoolean(prop("bench.keep-db", "false")),
                positive("bench.ready-timeout", 300),
                Boolean.parseBoolean(prop("bench.accp", "false")),
                nonNegative("bench.jit-warmup", 20),
                positive("bench.jit-rounds", 6),
                Double.parseDouble(prop("bench.jit-settled", "5")),
                peer.equals("none") ? null : peer,
                Path.of(prop("bench.peer-source", "src/test/peer/node-oidc-provider")));
    }

    /** The same options with other windows (for the JIT warm-up round: load, nothing measured that is reported). */
    BenchOptions withWindows(int warmup, int measure) {
        return new BenchOptions(databases, workers, signInWorkers, warmup, measure, scenarios, client, serverJvmOptions,
                war, payaraMicroJar, preBootCommands, outputDir, postgresUrl, postgresUser, keepDatabase,
                readyTimeoutSeconds, accp, jitWarmupSeconds, jitRounds, jitSettledPercent, peer, peerSource);
    }

    /**
     * Whitespace-separated JVM options; an {@code @file} among them (the pom passes server-config/jvm.options) is
     * read here rather than by the server's launcher, so the report lists the options themselves. The file's format
     * is the launcher's argument file as far as that file uses it: an option per word, {@code #} to the end of a line
     * is a comment (no quoting).
     */
    static List<String> jvmOptions(String options) {
        List<String> expanded = new ArrayList<>();
        for (String option : words(options)) {
            if (!option.startsWith("@")) {
                expanded.add(option);
                continue;
            }
            try {
                for (String line : Files.readAllLines(Path.of(option.substring(1)))) {
                    int comment = line.indexOf('#');
                    expanded.addAll(words(comment < 0 ? line : line.substring(0, comment)));
                }
            } catch (IOException e) {
                throw new UncheckedIOException("Cannot read the JVM options file " + option.substring(1), e);
            }
        }
        return List.copyOf(expanded);
    }

    private static List<String> words(String s) {
        return Arrays.stream(s.trim().split("\\s+")).filter(w -> !w.isEmpty()).toList();
    }

    private static String prop(String key, String def) {
        String v = System.getProperty(key);
        return v == null || v.isBlank() ? def : v.trim();
    }

    private static List<String> list(String v) {
        return Arrays.stream(v.split(",")).map(String::trim).filter(s -> !s.isEmpty()).toList();
    }

    private static int positive(String key, int def) {
        int v = Integer.parseInt(prop(key, Integer.toString(def)));
        if (v < 1) {
            throw new IllegalArgumentException(key + " must be at least 1");
        }
        return v;
    }

    private static int nonNegative(String key, int def) {
        int v = Integer.parseInt(prop(key, Integer.toString(def)));
        if (v < 0) {
            throw new IllegalArgumentException(key + " must not be negative");
        }
        return v;
    }
}
