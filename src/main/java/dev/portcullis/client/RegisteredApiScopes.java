package dev.portcullis.client;

import java.util.Set;

/**
 * The scopes beyond the built-in catalogue ({@link Scopes#ALL}) that a client may hold: those of the registered APIs.
 * Implemented by the API registry, which sits above this package, so that clients know the scopes without knowing
 * the APIs.
 */
public interface RegisteredApiScopes {

    /** Every scope of every registered API, as it is now. */
    Set<String> all();
}
