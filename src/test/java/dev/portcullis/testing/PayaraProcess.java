package dev.portcullis.testing;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * A Payara Micro process with the WAR at "/": the Payara Micro passes' one server ({@link ItEnvironment#runPayaraMicro}),
 * and the servers of their own that classes start for settings of their own, for the server's own life cycle (refusing
 * bad configuration, restarts, several instances on one database) or behind a proxy. Same jar, same WAR, same database
 * settings as the run's server; or, by {@link #startWars}, other WARs than Portcullis (a backend of its tokens).
 */
public final class PayaraProcess implements ClassServer {

    private final Process process;
    private final StringBuffer output = new StringBuffer();
    private final CountDownLatch finished = new CountDownLatch(1);
    private final Path log;
    public final int port;
    public final String base;

    /** Portcullis's WAR at "/" with this run's settings plus {@code systemProperties}, or else {@code otherWars}. */
    private PayaraProcess(int port, List<String> systemProperties, List<Path> otherWars) throws IOException {
        this.port = port;
        this.base = "http://localhost:" + port;
        Path dir = Files.createTempDirectory(Path.of("target"), "payara-process");
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.add("-XX:+UseSerialGC");
        cmd.add(ItEnvironment.PAYARA_MICRO_SINGLE_THREADED_START);
        List<String> deploy = new ArrayList<>();
        if (otherWars.isEmpty()) {
            Path war = Path.of(System.getProperty("portcullis.war", "target/portcullis.war")).toAbsolutePath();
            Path root = dir.resolve("ROOT.war");
            Files.copy(war, root, StandardCopyOption.REPLACE_EXISTING);
            deploy.addAll(List.of("--deploy", root.toString()));
            cmd.add("-Dportcullis.issuer=" + base);
            for (String opt : System.getProperty("portcullis.test.db-options", "").trim().split(" +")) {
                if (!opt.isBlank()) {
                    cmd.add(opt);
                }
            }
        } else {
            otherWars.forEach(w -> deploy.addAll(List.of("--deploy", w.toAbsolutePath().toString())));
        }
        cmd.addAll(systemProperties);
        cmd.addAll(List.of("-jar", System.getProperty("payara.microJar")));
        cmd.addAll(deploy);
        cmd.addAll(List.of("--port", Integer.toString(port), "--nocluster", "--disablephonehome", "--rootdir",
                dir.resolve("rootdir").toString()));
        cmd.addAll(ItEnvironment.preBootCommands());
        log = dir.resolve("server.log");
        process = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        Thread reader = new Thread(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = r.readLine()) != null) {
                    output.append(line).append('\n');
                    Files.writeString(log, line + "\n", StandardCharsets.UTF_8,
                            java.nio.file.StandardOpenOption.CREATE, java.nio.file.StandardOpenOption.APPEND);
                    if (line.contains(" ready in ")) {
                        finished.countDown();
                    }
                }
            } catch (IOException e) {
                output.append("[output closed: ").append(e.getMessage()).append("]\n");
            } finally {
                finished.countDown();
            }
        }, "payara-output-" + port);
        reader.setDaemon(true);
        reader.start();
    }

    /** Starts Payara Micro with the WAR and waits until it reports ready (deployed or failed to deploy). */
    public static PayaraProcess start(String... extraSystemProperties) {
        return start(ItEnvironment.freePort(), extraSystemProperties);
    }

    public static PayaraProcess start(int port, String... extraSystemProperties) {
        return start(port, List.of(extraSystemProperties), List.of());
    }

    /**
     * {@link #start(int, String...)}, then checks that the WAR answers ({@code /health/live} 200), since a Payara
     * Micro reports ready after a failed deployment too; for a server that many classes share.
     */
    static PayaraProcess startDeployed(int port, List<String> extraSystemProperties) {
        PayaraProcess p = start(port, extraSystemProperties, List.of());
        Http.Res live;
        try {
            live = new Http(p.base).get("/health/live");
        } catch (RuntimeException e) {
            live = null;
        }
        if (live == null || live.status() != 200) {
            String out = p.output();
            p.close();
            throw new IllegalStateException("Payara Micro started without the WAR answering (/health/live: "
                    + (live == null ? "no answer" : live.status()) + "):\n" + tail(out));
        }
        return p;
    }

    /** Where this server's output is written. */
    public Path log() {
        return log;
    }

    /**
     * Starts Payara Micro with other WARs than Portcullis's (each at its file name as context root: a backend of its
     * tokens, say) and none of this run's Portcullis settings.
     */
    public static PayaraProcess startWars(List<Path> wars) {
        if (wars.isEmpty()) {
            throw new IllegalArgumentException("no WAR to deploy");
        }
        return start(ItEnvironment.freePort(), List.of(), wars);
    }

    private static PayaraProcess start(int port, List<String> extraSystemProperties, List<Path> otherWars) {
        try {
            PayaraProcess p = new PayaraProcess(port, extraSystemProperties, otherWars);
            if (!p.finished.await(300, TimeUnit.SECONDS) || !p.process.isAlive()) {
                String out = p.output();
                p.close();
                throw new IllegalStateException("Payara Micro did not become ready:\n" + tail(out));
            }
            return p;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    @Override
    public String base() {
        return base;
    }

    @Override
    public String output() {
        return output.toString();
    }

    /** Kills the process at once (SIGKILL): no shutdown hook, no pre-destroy, whatever it was doing left as it was. */
    public void kill() {
        try {
            process.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close() {
        process.destroy();
        try {
            if (!process.waitFor(60, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static String tail(String s) {
        return s.length() > 6000 ? s.substring(s.length() - 6000) : s;
    }
}
