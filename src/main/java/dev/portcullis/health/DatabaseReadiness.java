package dev.portcullis.health;

import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Connection;
import javax.sql.DataSource;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;

/** {@code /health/ready}: UP only while the database answers (every request needs it). */
@Readiness
@ApplicationScoped
public class DatabaseReadiness implements HealthCheck {

    @Resource(lookup = "java:app/jdbc/portcullis")
    DataSource dataSource;

    @Override
    public HealthCheckResponse call() {
        try (Connection c = dataSource.getConnection()) {
            boolean valid = c.isValid(2);
            return HealthCheckResponse.named("database").status(valid).build();
        } catch (Exception e) {
            return HealthCheckResponse.named("database").down().withData("error", e.getClass().getSimpleName()).build();
        }
    }
}
