package dev.portcullis.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Optional;
import org.jboss.shrinkwrap.api.exporter.ZipExporter;
import org.jboss.shrinkwrap.api.spec.WebArchive;

/**
 * Deploys a further WAR into the run's running WildFly the way an operator does: the archive dropped into its
 * {@code deployments/} directory, and the deployment scanner's marker file ({@code .deployed}, {@code .failed},
 * {@code .undeployed}) awaited with a deadline.
 */
public final class WildFlyDeployments {

    private static final long DEADLINE_SECONDS = 120;

    private WildFlyDeployments() {
    }

    /** The running WildFly's deployments directory, empty when this run's server is not WildFly. */
    public static Optional<Path> directory() {
        return Optional.ofNullable(AppServer.wildflyDeployments);
    }

    /** Drops {@code war} into the scanner's directory and waits until WildFly has deployed it (or says why not). */
    public static void deploy(WebArchive war) {
        Path dir = directory().orElseThrow(() -> new IllegalStateException("this run's server is not WildFly"));
        Path file = dir.resolve(war.getName());
        Path deployed = Path.of(file + ".deployed");
        Path failed = Path.of(file + ".failed");
        war.as(ZipExporter.class).exportTo(file.toFile(), true);
        await(() -> Files.exists(deployed) || Files.exists(failed), "deployment of " + war.getName());
        if (!Files.exists(deployed)) {
            throw new IllegalStateException("WildFly refused " + war.getName() + ": " + read(failed));
        }
    }

    /** Deletes the deployed archive and waits until WildFly has undeployed it. */
    public static void undeploy(String warName) {
        Path dir = directory().orElseThrow(() -> new IllegalStateException("this run's server is not WildFly"));
        Path file = dir.resolve(warName);
        try {
            Files.deleteIfExists(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        await(() -> Files.exists(Path.of(file + ".undeployed")), "undeployment of " + warName);
    }

    private interface Condition {
        boolean holds();
    }

    private static void await(Condition condition, String what) {
        Instant deadline = Instant.now().plusSeconds(DEADLINE_SECONDS);
        while (!condition.holds()) {
            if (Instant.now().isAfter(deadline)) {
                throw new IllegalStateException(what + " did not finish in " + DEADLINE_SECONDS + " s");
            }
            try {
                Thread.sleep(200); // polling interval of a condition with a deadline, not a synchronisation
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            return "(" + file + " unreadable: " + e.getMessage() + ")";
        }
    }
}
