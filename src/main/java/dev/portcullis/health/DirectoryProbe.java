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

/**
 * What readiness says of the LDAP directory, for {@link HealthServlet} and the MicroProfile check
 * {@link DirectoryReadiness}. It never makes readiness DOWN: tokens, refresh, userinfo and local users do not need the
 * directory, and every instance sees the same one, so DOWN would take all of them out of the load balancer for what
 * only new directory sign-ins need. The second's bound keeps a probe fast when a directory server drops packets
 * (connect time-outs are longer). This class names no MicroProfile Health type, so it loads on a server without it.
 */
@ApplicationScoped
public class DirectoryProbe {

    /** {@code up}, {@code degraded} (with a reason) or {@code not configured}. */
    public record State(String state, String reason) {
    }

    @Inject
    Directory directory;

    @Resource
    ManagedExecutorService executor;

    /** Whether the directory answers within a second. */
    public State state() {
        if (!directory.configured()) {
            return new State("not configured", null);
        }
        Future<?> ping = executor.submit(directory::ping);
        try {
            ping.get(1, TimeUnit.SECONDS);
            return new State("up", null);
        } catch (ExecutionException | TimeoutException e) {
            boolean refused = e instanceof ExecutionException && e.getCause() instanceof DirectoryUnavailableException;
            return new State("degraded", refused ? "no directory server answers" : "no answer within 1 s");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new State("degraded", "interrupted");
        }
    }
}
