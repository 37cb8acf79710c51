package dev.portcullis.health;

import dev.portcullis.directory.Directory;
import dev.portcullis.directory.DirectoryUnavailableException;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;

/**
 * {@code /health/ready}, check {@code directory}: whether the LDAP directory answers ({@code "directory": "up"},
 * {@code "degraded"} or {@code "not configured"}). It stays UP while the directory is down, on purpose: tokens,
 * refresh, userinfo and local users do not need the directory, and every instance sees the same directory, so DOWN
 * would take all of them out of the load balancer for what only new directory sign-ins need.
 */
@Readiness
@ApplicationScoped
public class DirectoryReadiness implements HealthCheck {

    @Inject
    Directory directory;

    @Override
    public HealthCheckResponse call() {
        if (!directory.configured()) {
            return HealthCheckResponse.named("directory").up().withData("directory", "not configured").build();
        }
        try {
            directory.ping();
            return HealthCheckResponse.named("directory").up().withData("directory", "up").build();
        } catch (DirectoryUnavailableException e) {
            return HealthCheckResponse.named("directory").up().withData("directory", "degraded")
                    .withData("reason", "no directory server answers; directory sign-in is unavailable").build();
        }
    }
}
