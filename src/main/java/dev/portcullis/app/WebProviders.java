package dev.portcullis.app;

import java.util.Map;
import java.util.Set;

/**
 * JAX-RS providers shared by every REST application of Portcullis. Each application
 * ({@code /oauth}, {@code /.well-known}, {@code /api}, {@code /admin}) lists its resources explicitly and adds
 * these, so a reader sees in one file per prefix what is served there.
 */
public final class WebProviders {

    private WebProviders() {
    }

    public static final Set<Class<?>> COMMON = Set.of(OAuthExceptionMapper.class, RefusalMapper.class,
            UnexpectedExceptionMapper.class, TransactionalExceptionMapper.class, CrossOriginFilter.class);

    /** Application properties of every REST application: OPTIONS answers with Allow, not a WADL of the whole API. */
    public static final Map<String, Object> PROPERTIES = Map.of("jersey.config.server.wadl.disableWadl", true);

    public static Set<Class<?>> with(Class<?>... resources) {
        java.util.Set<Class<?>> all = new java.util.HashSet<>(COMMON);
        all.addAll(java.util.List.of(resources));
        return Set.copyOf(all);
    }
}
