package dev.portcullis.bench;

import java.io.Closeable;
import java.io.IOException;

/**
 * One worker's HTTP/1.1 connection to the server under test. Never follows redirects (the scenarios check them) and
 * keeps no cookies (scenarios send the ones they mean to). Two implementations, chosen with {@code bench.client}:
 * {@link RawHttpConnection} (a plain keep-alive socket, the default: cheapest for the load generator, which shares
 * the 2 cores with the server) and {@link JdkHttpConnection} ({@code java.net.http.HttpClient}).
 */
public interface LoadHttp extends Closeable {

    /** Sends one request; {@code headers} are name, value pairs. {@code body} may be null. */
    Reply send(String method, String pathAndQuery, String contentType, String body, String... headers) throws IOException;

    default Reply get(String pathAndQuery, String... headers) throws IOException {
        return send("GET", pathAndQuery, null, null, headers);
    }

    default Reply postJson(String path, String json, String... headers) throws IOException {
        return send("POST", path, "application/json", json, headers);
    }

    default Reply postForm(String path, String form, String... headers) throws IOException {
        return send("POST", path, "application/x-www-form-urlencoded", form, headers);
    }

    @Override
    void close();

    static LoadHttp open(String kind, String host, int port) {
        return switch (kind) {
            case "raw" -> new RawHttpConnection(host, port);
            case "jdk" -> new JdkHttpConnection(host, port);
            default -> throw new IllegalArgumentException("bench.client must be raw or jdk, not " + kind);
        };
    }
}
