package dev.portcullis.health;

import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;

/** {@code /health/live}: the application is deployed and answering. */
@org.eclipse.microprofile.health.Liveness
@ApplicationScoped
public class Liveness implements HealthCheck {

    @Override
    public HealthCheckResponse call() {
        return HealthCheckResponse.up("portcullis");
    }
}
