package dev.portcullis.health;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import javax.sql.DataSource;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;

/** {@code /health/ready}: UP only while the database answers (every request needs it). */
@Readiness
@ApplicationScoped
public class DatabaseReadiness implements HealthCheck {

    @Inject
    DataSource dataSource;

    @Override
    public HealthCheckResponse call() {
        String error = HealthServlet.databaseError(dataSource);
        return error == null ? HealthCheckResponse.named("database").up().build()
                : HealthCheckResponse.named("database").down().withData("error", error).build();
    }
}
