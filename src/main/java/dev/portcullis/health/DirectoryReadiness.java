package dev.portcullis.health;

import dev.portcullis.directory.Directory;
import dev.portcullis.directory.DirectoryUnavailableException;
import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedExecutorService;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;

/**
 * {@code /health/ready}, check {@code directory}: whether the LDAP directory answers within a second
 * ({@code "directory": "up"}, {@code "degraded"} or {@code "not configured"}). It stays UP while the directory is
 * down, on purpose: tokens, refresh, userinfo and local users do not need the directory, and every instance sees the
 * same directory, so DOWN would take all of them out of the load balancer for what only new directory sign-ins need.
 * The second's bound keeps a probe fast when a directory server drops packets (connect time-outs are longer).
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
        if (!directory.configured()) {
            return HealthCheckResponse.named("directory").up().withData("directory", "not configured").build();
        }
        Future<?> ping = executor.submit(directory::ping);
        try {
            ping.get(1, TimeUnit.SECONDS);
            return HealthCheckResponse.named("directory").up().withData("directory", "up").build();
        } catch (ExecutionException | TimeoutException e) {
            boolean refused = e instanceof ExecutionException && e.getCause() instanceof DirectoryUnavailableException;
            return HealthCheckResponse.named("directory").up().withData("directory", "degraded")
                    .withData("reason", refused ? "no directory server answers" : "no answer within 1 s")
                    .build();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return HealthCheckResponse.named("directory").up().withData("directory", "degraded").build();
        }
    }
}
