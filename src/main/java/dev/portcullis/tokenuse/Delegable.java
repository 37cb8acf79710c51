package dev.portcullis.tokenuse;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Declares that a resource method may be called <em>on behalf of a user</em>: with a user's access token
 * ({@code Authorization: Bearer <token>}) that carries every one of {@link #scopes()}. {@link DelegationFilter}
 * enforces it before the method runs and hands the verified token to the method as
 * {@link DelegationFilter#accessToken}.
 *
 * <p>Delegability is a declared property of each endpoint: a method without {@code @Delegable} never accepts a user
 * access token (see {@link NotDelegable}), so a new endpoint cannot become delegable by forgetting something.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
public @interface Delegable {

    /** Scopes the access token must carry (all of them); names from {@link dev.portcullis.client.Scopes}. */
    String[] scopes();
}
