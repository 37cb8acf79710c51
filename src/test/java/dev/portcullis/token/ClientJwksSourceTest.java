package dev.portcullis.token;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.portcullis.config.AddressRange;
import dev.portcullis.outbound.OutboundAddressPolicy;
import dev.portcullis.outbound.OutboundHttp;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The bounds of a key set fetch against a local HTTP server: size, time, redirects, status, and the address policy
 * (the server is on loopback, which these tests admit as an operator would with
 * {@code portcullis.outbound.allowed-networks}).
 */
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

    private static String at(String path) {
        return "http://127.0.0.1:" + server.getAddress().getPort() + path;
    }

    private static ClientJwksSource.Fetcher fetcherAdmitting(String... networks) {
        ClientJwksSource keySets = new ClientJwksSource();
        keySets.outbound = new OutboundHttp(new OutboundAddressPolicy(
                java.util.Arrays.stream(networks).map(AddressRange::parse).toList()), null);
        return keySets.fetcher;
    }

    private final ClientJwksSource.Fetcher fetcher = fetcherAdmitting("127.0.0.0/8");

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
        assertTrue(e.getMessage().contains(at("/moved") + ": answered 302"), e.getMessage());
    }

    @Test
    void fetchWhenTheAddressIsNotAdmittedThenUnavailableWithoutARequest() {
        ClientJwksSource.Unavailable byDefault = assertThrows(ClientJwksSource.Unavailable.class,
                () -> fetcherAdmitting().fetch(at("/ok")));
        assertTrue(byDefault.getMessage().contains("names a loopback address (127.0.0.1)"), byDefault.getMessage());
        ClientJwksSource.Unavailable elsewhere = assertThrows(ClientJwksSource.Unavailable.class,
                () -> fetcherAdmitting("10.0.0.0/8").fetch(at("/ok")));
        assertTrue(elsewhere.getMessage().contains("outside portcullis.outbound.allowed-networks"),
                elsewhere.getMessage());
    }

    @Test
    void fetchWhenTooSlowThenUnavailableWithinTheTimeOut() {
        long start = System.nanoTime();
        ClientJwksSource.Unavailable e = assertThrows(ClientJwksSource.Unavailable.class, () -> fetcher.fetch(at("/slow")));
        long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        assertTrue(e.getMessage().contains("no complete answer within " + ClientJwksSource.TOTAL_TIMEOUT_MS + " ms"),
                e.getMessage());
        assertTrue(ms >= ClientJwksSource.TOTAL_TIMEOUT_MS - 100 && ms < ClientJwksSource.TOTAL_TIMEOUT_MS + 2_000,
                "gave up after " + ms + " ms");
    }
}
