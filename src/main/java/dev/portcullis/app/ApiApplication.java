package dev.portcullis.app;

import dev.portcullis.tokenuse.DelegationFilter;
import dev.portcullis.tokenuse.MeResource;
import jakarta.ws.rs.ApplicationPath;
import jakarta.ws.rs.core.Application;
import java.util.Map;
import java.util.Set;

/**
 * The service's own API under {@code /api} ({@code /api/v1/...}), called with access tokens. Every resource method
 * here declares whether it is delegable ({@code tokenuse.Delegable} / {@code tokenuse.NotDelegable}), enforced by
 * {@link DelegationFilter}.
 */
@ApplicationPath("api")
public class ApiApplication extends Application {

    @Override
    public Set<Class<?>> getClasses() {
        return WebProviders.with(DelegationFilter.class, MeResource.class);
    }

    @Override
    public Map<String, Object> getProperties() {
        return WebProviders.PROPERTIES;
    }
}
