package dev.portcullis.testing;

import dev.portcullis.backend.BackendWars;
import dev.portcullis.config.ConfigurationException;
import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.logging.Logger;
import java.util.function.Predicate;
import java.util.stream.Stream;

/**
 * A stock application server from its Maven artifact (unpacked under target/ by the build), started once for a
 * whole integration-test run with the WAR deployed the way an operator deploys it and configured the way README says:
 * {@code PORTCULLIS_*} environment variables only. {@code portcullis.test.server} chooses it: {@code wildfly}
 * (standalone.xml, the WAR dropped into deployments/) or {@code payara-server} (a new domain, {@code asadmin deploy}).
 * The tests reach it through {@link RunningServerContainer}, which deploys nothing itself.
 */
final class AppServer implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(AppServer.class.getName());
    private static final long START_TIMEOUT_SECONDS = 420;

    /** The run's WildFly's deployment-scanner directory, for {@link WildFlyDeployments}; null on other servers. */
    static volatile Path wildflyDeployments;

    private final Process process;
    private final Path log;
    private final List<String> stopCommand;

    private AppServer(Process process, Path log, List<String> stopCommand) {
        this.process = process;
        this.log = log;
        this.stopCommand = stopCommand;
    }

    /**
     * Starts {@code kind} serving the WAR on {@code http://localhost:<returned port>}, with {@code settings} and the
     * issuer of that port as its environment.
     */
    static Started start(String kind, Map<String, String> settings) {
        Path home = Path.of(required("portcullis.test.server-home")).toAbsolutePath();
        Path war = Path.of(System.getProperty("portcullis.war", "target/portcullis.war")).toAbsolutePath();
        try {
            Path dir = Files.createTempDirectory(Path.of("target").toAbsolutePath(), kind + "-");
            return switch (kind) {
                case "wildfly" -> wildfly(home, war, dir, settings);
                case "payara-server" -> payaraServer(home, war, dir, settings);
                default -> throw new IllegalArgumentException("portcullis.test.server: unknown server " + kind);
            };
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    record Started(AppServer server, int port) {
    }

    /**
     * WildFly with its default configuration, standalone.xml (the one with Faces and Enterprise Beans), in a server
     * directory of its own. The changes to the stock file are the one any WAR at "/" needs, the welcome-content
     * location at "/" goes, and Undertow's max-post-size rises above the largest body Portcullis drains to answer 413
     * (at its stock 10 MB Undertow cuts the connection instead); an operator runs the CLI commands of docs/servers.md.
     * The MicroProfile JWT backend WARs of {@link BackendWars} are deployed beside it, configured for this issuer.
     */
    private static Started wildfly(Path home, Path war, Path dir, Map<String, String> settings) throws IOException {
        Path base = dir.resolve("standalone");
        copyTree(home.resolve("standalone"), base);
        Path config = base.resolve("configuration/standalone.xml");
        String xml = Files.readString(config);
        String welcome = "<location name=\"/\" handler=\"welcome-content\"/>";
        if (!xml.contains(welcome)) {
            throw new IllegalStateException("standalone.xml has no welcome-content location at / any more: " + config);
        }
        String listener = "<http-listener name=\"default\" ";
        if (!xml.contains(listener)) {
            throw new IllegalStateException("standalone.xml has no default http-listener any more: " + config);
        }
        Files.writeString(config, xml.replace(welcome, "").replace(listener, listener + "max-post-size=\"33554432\" "));
        Files.copy(war, base.resolve("deployments/portcullis.war"), StandardCopyOption.REPLACE_EXISTING);
        if (wildflyDeployments == null) {
            // the run's server, which ItEnvironment starts first; a class's own server (ClassServer.startOwn) stops
            // with its class, so what is deployed later goes to the run's
            wildflyDeployments = base.resolve("deployments");
        }
        // every port of the stock socket-binding group moves by the offset (http 8080, management 9990, tx 4712/4713)
        int offset = freeOffset(8080, 8443, 9990, 9993, 4712, 4713, 8009);
        settings = withIssuer(settings, 8080 + offset);
        // the backend of BackendTokenValidationIT beside Portcullis, so the run still starts one WildFly; stock
        // standalone.xml has the microprofile-jwt-smallrye subsystem it needs
        List<Path> backends = BackendWars.export(base.resolve("deployments"), settings.get("portcullis.issuer"), false);
        Path log = dir.resolve("server.log");
        ProcessBuilder pb = new ProcessBuilder(home.resolve("bin/standalone.sh").toString(),
                "-Djboss.server.base.dir=" + base, "-Djboss.socket.binding.port-offset=" + offset)
                .redirectErrorStream(true);
        environment(pb, settings);
        pb.environment().put("JAVA_OPTS", "-Xms64m -Xmx512m -XX:+UseSerialGC -Djava.net.preferIPv4Stack=true");
        pb.environment().put("LAUNCH_JBOSS_IN_BACKGROUND", "true"); // the script passes TERM on to the server JVM
        AppServer server = new AppServer(pb.start(), log, List.of());
        // WFLYSRV0025 "started", WFLYSRV0026 "started (with errors)": the deployment scanner's first scan is done
        server.awaitLine(line -> line.contains("WFLYSRV0025") || line.contains("WFLYSRV0026"), "WildFly start");
        Path failed = base.resolve("deployments/portcullis.war.failed");
        if (!Files.exists(base.resolve("deployments/portcullis.war.deployed"))) {
            String why = Files.exists(failed) ? Files.readString(failed) : "not deployed";
            server.close();
            throw new IllegalStateException("WildFly refused the WAR: " + why + "\n" + server.tail());
        }
        for (Path backend : backends) {
            if (!Files.exists(Path.of(backend + ".deployed"))) {
                server.close();
                throw new IllegalStateException("WildFly refused " + backend.getFileName() + "\n" + server.tail());
            }
        }
        return new Started(server, 8080 + offset);
    }

    /**
     * Payara Server: a new domain at a free port base, started with the settings in its environment, hardened like
     * server-config/pre-boot-commands.asadmin (no Server / X-Powered-By banner), then {@code asadmin deploy}.
     */
    private static Started payaraServer(Path home, Path war, Path dir, Map<String, String> settings)
            throws IOException {
        String asadmin = home.resolve("bin/asadmin").toString();
        Path domains = dir.resolve("domains");
        // the domain's ports are the base plus: admin 48, http 80, https 81, IIOP 37-39, JMS 76, JMX 86, OSGi 66, debug 9
        int portBase = freeOffset(48, 80, 81, 37, 38, 39, 76, 86, 66, 9);
        int adminPort = portBase + 48;
        settings = withIssuer(settings, portBase + 80);
        Path log = dir.resolve("asadmin.log");
        // the backend of BackendTokenValidationIT beside Portcullis, in the run's one domain
        List<String> deployBackends = BackendWars.export(dir, settings.get("portcullis.issuer"), true).stream()
                .map(backend -> {
                    String name = backend.getFileName().toString().replaceFirst("\\.war$", "");
                    return "deploy --contextroot /" + name + " --name " + name + " " + backend;
                }).toList();
        run(log, settings, asadmin, "create-domain", "--nopassword", "--portbase", Integer.toString(portBase),
                "--domaindir", domains.toString(), "portcullis");
        withoutBanners(domains.resolve("portcullis/config/domain.xml"));
        withoutPayaraMetricsAndHealth(domains.resolve("portcullis/config/domain.xml"));
        Path commands = dir.resolve("deploy.asadmin");
        Files.writeString(commands, String.join("\n",
                "deploy --contextroot / --name portcullis " + war, String.join("\n", deployBackends)) + "\n");
        run(log, settings, asadmin, "start-domain", "--domaindir", domains.toString(), "portcullis");
        List<String> stop = List.of(asadmin, "stop-domain", "--domaindir", domains.toString(), "portcullis");
        Path serverLog = domains.resolve("portcullis/logs/server.log");
        try {
            run(log, settings, asadmin, "--port", Integer.toString(adminPort), "multimode", "--file",
                    commands.toString());
        } catch (IllegalStateException e) {
            AppServer failed = new AppServer(null, serverLog, stop);
            String tail = failed.tail();
            failed.close();
            throw new IllegalStateException(e.getMessage() + "\n" + tail, e);
        }
        return new Started(new AppServer(null, serverLog, stop), portBase + 80);
    }

    /**
     * The hardening of server-config/pre-boot-commands.asadmin (no Server / X-Powered-By banner) written into the new
     * domain before it starts: an {@code asadmin set} on the running domain restarts the HTTP listener, and a request
     * or deployment racing that restart can find it gone ("GrizzlyProxy is NULL").
     */
    private static void withoutBanners(Path domainXml) throws IOException {
        String xml = Files.readString(domainXml);
        int config = xml.indexOf("<config name=\"server-config\"");
        int protocol = config < 0 ? -1 : xml.indexOf("<protocol name=\"http-listener-1\">", config);
        int http = protocol < 0 ? -1 : xml.indexOf("<http ", protocol);
        int end = protocol < 0 ? -1 : xml.indexOf("</protocol>", protocol);
        if (http < 0 || http > end) {
            throw new IllegalStateException("domain.xml has no http element for http-listener-1 any more: " + domainXml);
        }
        int at = http + "<http ".length();
        Files.writeString(domainXml, xml.substring(0, at) + "xpowered-by=\"false\" server-header=\"false\" "
                + xml.substring(at));
    }

    /**
     * Payara's own MicroProfile Metrics and Health endpoints off, as server-config/run-payara-server.sh switches them
     * off ({@code set-metrics-configuration --enabled=false}, {@code set-microprofile-healthcheck-configuration
     * --enabled=false} and a restart), written into the new domain before it starts, which saves that restart.
     */
    private static void withoutPayaraMetricsAndHealth(Path domainXml) throws IOException {
        String xml = Files.readString(domainXml);
        int config = xml.indexOf("<config name=\"server-config\"");
        String metrics = "<microprofile-metrics-configuration></microprofile-metrics-configuration>";
        int at = config < 0 ? -1 : xml.indexOf(metrics, config);
        int end = xml.indexOf("</config>", Math.max(config, 0));
        if (at < 0 || at > end || xml.substring(config, end).contains("<microprofile-healthcheck-configuration")) {
            throw new IllegalStateException("domain.xml's server-config is not as expected any more: " + domainXml);
        }
        Files.writeString(domainXml, xml.substring(0, at) + "<microprofile-metrics-configuration enabled=\"false\">"
                + "</microprofile-metrics-configuration><microprofile-healthcheck-configuration enabled=\"false\">"
                + "</microprofile-healthcheck-configuration>" + xml.substring(at + metrics.length()));
    }

    private static Map<String, String> withIssuer(Map<String, String> settings, int port) {
        Map<String, String> all = new LinkedHashMap<>(settings);
        all.put("portcullis.issuer", "http://localhost:" + port);
        return all;
    }

    /** Runs an asadmin command to its end; a non-zero exit fails the run with its output. */
    private static void run(Path log, Map<String, String> settings, String... command) throws IOException {
        Files.writeString(log, "$ " + String.join(" ", command) + "\n", StandardCharsets.UTF_8,
                java.nio.file.StandardOpenOption.CREATE, java.nio.file.StandardOpenOption.APPEND);
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
        environment(pb, settings);
        pb.environment().put("AS_JAVA", System.getProperty("java.home"));
        try {
            Process p = pb.start();
            if (!p.waitFor(START_TIMEOUT_SECONDS, TimeUnit.SECONDS) || p.exitValue() != 0) {
                p.destroyForcibly();
                throw new IllegalStateException("Failed: " + String.join(" ", command) + "\n" + tail(log));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** The settings as an operator sets them: {@code portcullis.db.url} becomes {@code PORTCULLIS_DB_URL}. */
    private static void environment(ProcessBuilder pb, Map<String, String> settings) {
        pb.environment().keySet().removeIf(k -> k.startsWith("PORTCULLIS_"));
        settings.forEach((key, value) -> pb.environment().put(ConfigurationException.envName(key), value));
    }

    /** Copies the server's output to its log until a line {@code ready} accepts (or the server exits). */
    private void awaitLine(Predicate<String> ready, String what) {
        CountDownLatch seen = new CountDownLatch(1);
        Thread reader = new Thread(() -> {
            try (BufferedReader r = new BufferedReader(
                    new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
                 BufferedWriter out = Files.newBufferedWriter(log, StandardCharsets.UTF_8)) {
                String line;
                while ((line = r.readLine()) != null) {
                    out.write(line);
                    out.newLine();
                    out.flush();
                    if (ready.test(line)) {
                        seen.countDown();
                    }
                }
            } catch (IOException e) {
                LOG.warning("Server output: " + e);
            } finally {
                seen.countDown();
            }
        }, "app-server-output");
        reader.setDaemon(true);
        reader.start();
        try {
            if (!seen.await(START_TIMEOUT_SECONDS, TimeUnit.SECONDS) || !process.isAlive()) {
                close();
                throw new IllegalStateException(what + " did not finish in " + START_TIMEOUT_SECONDS + " s\n" + tail());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
        LOG.info(() -> what + " done; log: " + log);
    }

    String tail() {
        return tail(log);
    }

    private static String tail(Path file) {
        try {
            String s = Files.exists(file) ? Files.readString(file, StandardCharsets.UTF_8) : "(no log " + file + ")";
            return s.length() > 8000 ? s.substring(s.length() - 8000) : s;
        } catch (IOException e) {
            return "(log unreadable: " + e + ")";
        }
    }

    @Override
    public void close() {
        if (!stopCommand.isEmpty()) {
            try {
                Process p = new ProcessBuilder(stopCommand).redirectErrorStream(true)
                        .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
                p.waitFor(120, TimeUnit.SECONDS);
            } catch (IOException e) {
                LOG.warning("Could not stop the server: " + e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        if (process != null) {
            List<ProcessHandle> children = process.descendants().toList();
            process.destroy();
            children.forEach(ProcessHandle::destroy);
            try {
                if (!process.waitFor(60, TimeUnit.SECONDS)) {
                    process.destroyForcibly();
                }
                for (ProcessHandle child : children) {
                    child.onExit().get(60, TimeUnit.SECONDS);
                }
            } catch (Exception e) {
                children.forEach(ProcessHandle::destroyForcibly);
            }
        }
    }

    /** A random offset at which every one of {@code ports} (plus the offset) is free. */
    private static int freeOffset(int... ports) {
        for (int attempt = 0; attempt < 50; attempt++) {
            int offset = ThreadLocalRandom.current().nextInt(100, 400) * 100;
            boolean free = true;
            for (int p : ports) {
                try (ServerSocket s = new ServerSocket(p + offset)) {
                    s.setReuseAddress(true);
                } catch (IOException e) {
                    free = false;
                    break;
                }
            }
            if (free) {
                return offset;
            }
        }
        throw new IllegalStateException("No free port range found");
    }

    private static void copyTree(Path from, Path to) throws IOException {
        try (Stream<Path> files = Files.walk(from)) {
            for (Path f : (Iterable<Path>) files::iterator) {
                Path target = to.resolve(from.relativize(f).toString());
                if (Files.isDirectory(f)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(f, target, StandardCopyOption.REPLACE_EXISTING);
                }
            }
        }
    }

    private static String required(String property) {
        String v = System.getProperty(property);
        if (v == null || v.isBlank()) {
            throw new IllegalStateException("System property " + property + " is not set (see pom.xml, failsafe)");
        }
        return v;
    }
}
