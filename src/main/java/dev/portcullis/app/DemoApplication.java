package dev.portcullis.app;

import dev.portcullis.app.WebProviders;
import dev.portcullis.demo.DemoRelyingParty;
import jakarta.ws.rs.ApplicationPath;
import jakarta.ws.rs.core.Application;
import java.util.Map;
import java.util.Set;

/** The demo relying party under {@code /demo} (404 unless {@code portcullis.demo=true}). */
@ApplicationPath("demo")
public class DemoApplication extends Application {

    @Override
    public Set<Class<?>> getClasses() {
        return WebProviders.with(DemoRelyingParty.class);
    }

    @Override
    public Map<String, Object> getProperties() {
        return WebProviders.PROPERTIES;
    }
}
