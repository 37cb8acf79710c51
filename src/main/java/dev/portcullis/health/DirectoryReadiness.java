package dev.portcullis.health;

import dev.portcullis.directory.Directory;
import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedExecutorService;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.HealthCheckResponseBuilder;
import org.eclipse.microprofile.health.Readiness;

/**
 * MicroProfile Health's readiness check {@code directory} for the server's own health endpoint; the application's
 * {@code /health/ready} ({@link HealthServlet}) reports the same state.
 */
@Readiness
@ApplicationScoped
public class DirectoryReadiness implements HealthCheck {

    @Inject
    Directory directory;

    @Resource
    ManagedExecutorService executor;

    @Override
    public HealthCheckResponse call() {
        HealthServlet.DirectoryState d = HealthServlet.directoryState(directory, executor);
        HealthCheckResponseBuilder b = HealthCheckResponse.named("directory").up().withData("directory", d.state());
        return d.reason() == null ? b.build() : b.withData("reason", d.reason()).build();
    }
}
