package dev.portcullis.app;

import dev.portcullis.discovery.DiscoveryResource;
import jakarta.ws.rs.ApplicationPath;
import jakarta.ws.rs.core.Application;
import java.util.Map;
import java.util.Set;

/** {@code /.well-known/openid-configuration} (OpenID Connect Discovery 1.0, RFC 8414). */
@ApplicationPath(".well-known")
public class WellKnownApplication extends Application {

    @Override
    public Set<Class<?>> getClasses() {
        return WebProviders.with(DiscoveryResource.class);
    }

    @Override
    public Map<String, Object> getProperties() {
        return WebProviders.PROPERTIES;
    }
}
