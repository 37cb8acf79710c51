package dev.portcullis.testing;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * A reverse proxy in front of a test server, as nginx with {@code proxy_set_header X-Forwarded-For
 * $proxy_add_x_forwarded_for} is: it forwards every request to the server from 127.0.0.1 and appends, to whatever
 * X-Forwarded-For the client sent, the address it "saw the client at" (fixed per proxy instance, so one instance
 * stands for one user's machine behind the load balancer).
 */
public final class ForwardingProxy implements AutoCloseable {

    /** Headers the JDK client sets itself or that belong to one connection only. */
    private static final Set<String> NOT_FORWARDED = Set.of("host", "connection", "content-length", "expect",
            "upgrade", "transfer-encoding", "keep-alive", "x-forwarded-for");

    private final HttpServer server;
    private final ExecutorService threads = Executors.newCachedThreadPool();
    private final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .followRedirects(HttpClient.Redirect.NEVER).connectTimeout(Duration.ofSeconds(10)).build();
    private final String target;
    private final String clientAddress;
    public final String base;

    /** A proxy to {@code targetBase} (e.g. http://127.0.0.1:8080) for a client at {@code clientAddress}. */
    public ForwardingProxy(String targetBase, String clientAddress) {
        this.target = targetBase;
        this.clientAddress = clientAddress;
        try {
            server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 64);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        server.createContext("/", this::forward);
        server.setExecutor(threads);
        server.start();
        base = "http://127.0.0.1:" + server.getAddress().getPort();
    }

    private void forward(HttpExchange ex) throws IOException {
        try (ex) {
            byte[] body;
            try (InputStream in = ex.getRequestBody()) {
                body = in.readAllBytes();
            }
            HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(target + ex.getRequestURI()))
                    .timeout(Duration.ofSeconds(60))
                    .method(ex.getRequestMethod(), HttpRequest.BodyPublishers.ofByteArray(body));
            for (Map.Entry<String, List<String>> h : ex.getRequestHeaders().entrySet()) {
                if (!NOT_FORWARDED.contains(h.getKey().toLowerCase(java.util.Locale.ROOT))) {
                    h.getValue().forEach(v -> b.header(h.getKey(), v));
                }
            }
            String sent = ex.getRequestHeaders().getFirst("X-Forwarded-For");
            b.header("X-Forwarded-For", sent == null ? clientAddress : sent + ", " + clientAddress);
            HttpResponse<byte[]> r;
            try {
                r = client.send(b.build(), HttpResponse.BodyHandlers.ofByteArray());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                ex.sendResponseHeaders(502, -1);
                return;
            }
            r.headers().map().forEach((name, values) -> {
                if (!NOT_FORWARDED.contains(name.toLowerCase(java.util.Locale.ROOT)) && !name.startsWith(":")) {
                    values.forEach(v -> ex.getResponseHeaders().add(name, v));
                }
            });
            ex.sendResponseHeaders(r.statusCode(), r.body().length == 0 ? -1 : r.body().length);
            try (OutputStream out = ex.getResponseBody()) {
                out.write(r.body());
            }
        }
    }

    @Override
    public void close() {
        server.stop(0);
        threads.shutdownNow();
    }
}
