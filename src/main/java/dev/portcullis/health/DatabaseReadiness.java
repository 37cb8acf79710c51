package dev.portcullis.health;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;
import javax.sql.DataSource;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;

/**
 * {@code /health/ready}: UP only while the database answers (every request needs it). The datasource is resolved per
 * call, not injected: Payara runs its registered checks when its own health endpoint is asked while the WAR is still
 * deploying, before the application's datasource is bound, and that is DOWN, not an injection failure with a stack
 * trace in the server's log.
 */
@Readiness
@ApplicationScoped
public class DatabaseReadiness implements HealthCheck {

    @Inject
    Instance<DataSource> dataSource;

    @Override
    public HealthCheckResponse call() {
        String error = HealthServlet.databaseError(dataSource::get);
        return error == null ? HealthCheckResponse.named("database").up().build()
                : HealthCheckResponse.named("database").down().withData("error", error).build();
    }
}
