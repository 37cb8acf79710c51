package dev.portcullis.protocol;

import jakarta.json.spi.JsonProvider;

/**
 * The one JSON-P provider of the application. {@code jakarta.json.Json.createX()} looks the provider up through the
 * service loader on every call, a scan of every jar that the token path would pay on each request, so everything
 * builds and parses JSON through this instance, looked up once.
 */
public final class JsonSupport {

    public static final JsonProvider JSON = JsonProvider.provider();

    private JsonSupport() {
    }
}
