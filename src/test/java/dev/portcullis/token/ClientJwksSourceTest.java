package dev.portcullis.token;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The bounds of a key set fetch against a local HTTP server: size, time, redirects, status. */
class ClientJwksSourceTest {

    private static HttpServer server;
    private static final CountDownLatch release = new CountDownLatch(1);

    @BeforeAll
    static void start() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.setExecutor(Executors.newCachedThreadPool());
        server.createContext("/ok", x -> answer(x, 200, "{\"keys\":[]}"));
        server.createContext("/limit", x -> answer(x, 200, "x".repeat(ClientJwksSource.MAX_BYTES)));
        server.createContext("/huge", x -> answer(x, 200, "x".repeat(ClientJwksSource.MAX_BYTES + 1)));
        server.createContext("/moved", x -> {
            x.getResponseHeaders().add("Location", "/ok");
            answer(x, 302, "");
        });
        server.createContext("/slow", x -> {
            try {
                release.await(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            answer(x, 200, "{\"keys\":[]}");
        });
        server.start();
    }

    @AfterAll
    static void stop() {
        release.countDown();
        server.stop(0);
    }

    private static void answer(HttpExchange x, int status, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        x.sendResponseHeaders(status, bytes.length == 0 ? -1 : bytes.length);
        try (OutputStream out = x.getResponseBody()) {
            out.write(bytes);
        }
    }

    private static URI at(String path) {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + path);
    }

    private final ClientJwksSource.HttpFetcher fetcher = new ClientJwksSource.HttpFetcher();

    @Test
    void fetchWhenWithinTheLimitThenTheBody() throws Exception {
        assertEquals("{\"keys\":[]}", fetcher.fetch(at("/ok")));
        assertEquals(ClientJwksSource.MAX_BYTES, fetcher.fetch(at("/limit")).length());
    }

    @Test
    void fetchWhenLargerThanTheLimitThenUnavailable() {
        ClientJwksSource.Unavailable e = assertThrows(ClientJwksSource.Unavailable.class, () -> fetcher.fetch(at("/huge")));
        assertTrue(e.getMessage().contains("more than " + ClientJwksSource.MAX_BYTES + " bytes"), e.getMessage());
    }

    @Test
    void fetchWhenRedirectedThenUnavailableAndNotFollowed() {
        ClientJwksSource.Unavailable e = assertThrows(ClientJwksSource.Unavailable.class, () -> fetcher.fetch(at("/moved")));
        assertTrue(e.getMessage().contains("answered 302"), e.getMessage());
    }

    @Test
    void fetchWhenTooSlowThenUnavailableWithinTheTimeOut() {
        long start = System.nanoTime();
        ClientJwksSource.Unavailable e = assertThrows(ClientJwksSource.Unavailable.class, () -> fetcher.fetch(at("/slow")));
        long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        assertTrue(e.getMessage().contains("did not answer within"), e.getMessage());
        assertTrue(ms >= ClientJwksSource.TOTAL_TIMEOUT_MS - 100 && ms < ClientJwksSource.TOTAL_TIMEOUT_MS + 2_000,
                "gave up after " + ms + " ms");
    }
}
