package dev.portcullis.protocol;

import jakarta.json.spi.JsonProvider;

/**
 * The one JSON-P provider of the application. {@code jakarta.json.Json.createX()} looks the provider up through the
 * service loader on every call — a jar scan that cost about 9 % of the server's CPU on the token path — so
 * everything builds and parses JSON through this instance, looked up once.
 */
public final class JsonSupport {

    public static final JsonProvider JSON = JsonProvider.provider();

    private JsonSupport() {
    }
}
