package dev.portcullis.health;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.HealthCheckResponseBuilder;
import org.eclipse.microprofile.health.Readiness;

/**
 * MicroProfile Health's readiness check {@code directory} for the server's own health endpoint; the application's
 * {@code /health/ready} ({@link HealthServlet}) reports the same state. Only {@code @Inject} here: a resource
 * injection makes WildFly link the class at deployment, which fails where MicroProfile Health is absent.
 */
@Readiness
@ApplicationScoped
public class DirectoryReadiness implements HealthCheck {

    @Inject
    DirectoryProbe probe;

    @Override
    public HealthCheckResponse call() {
        DirectoryProbe.State d = probe.state();
        HealthCheckResponseBuilder b = HealthCheckResponse.named("directory").up().withData("directory", d.state());
        return d.reason() == null ? b.build() : b.withData("reason", d.reason()).build();
    }
}
