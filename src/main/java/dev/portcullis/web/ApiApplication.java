package dev.portcullis.web;

import jakarta.ws.rs.ApplicationPath;
import jakarta.ws.rs.core.Application;
import java.util.Set;

/** The service's own API under {@code /api} ({@code /api/v1/...}), called with access tokens. */
@ApplicationPath("api")
public class ApiApplication extends Application {

    @Override
    public Set<Class<?>> getClasses() {
        return WebProviders.with();
    }
}
