package dev.portcullis.protocol;

import jakarta.ws.rs.NameBinding;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a resource that browser apps on any origin may call (token endpoint, JWKS, discovery; RFC 9700 2.6 allows
 * CORS there, never on the authorization endpoint). No cookies are involved on these endpoints, so {@code *} is safe.
 * Applied by {@link CrossOriginFilter}.
 */
@NameBinding
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.TYPE, ElementType.METHOD})
public @interface CrossOrigin {
}
