package dev.portcullis.outbound;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsParameters;
import com.sun.net.httpserver.HttpsServer;
import dev.portcullis.config.AddressRange;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SNIHostName;
import javax.net.ssl.SNIMatcher;
import javax.net.ssl.SNIServerName;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocketFactory;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The outbound request primitive against real servers on this machine's loopback addresses (127.0.0.1 and
 * 127.0.0.2): which addresses it reaches by default and with {@code allowed-networks}, by class of input; that the
 * connection goes to the address it checked (a second look-up is never made, so a name that rebinds changes nothing)
 * with the URL's host in {@code Host}, SNI and the certificate check; that a redirect is an answer; and the bounds
 * of time and size against servers that answer slowly, too much or not HTTP.
 */
class OutboundHttpTest {

    private static final OutboundHttp.Limits LIMITS = new OutboundHttp.Limits(Duration.ofSeconds(1),
            Duration.ofMillis(1_500), 1_024);
    private static HttpServer first;
    private static HttpServer second;
    private static HttpsServer tls;
    private static SSLSocketFactory trusting;
    private static final List<String> SNI = Collections.synchronizedList(new ArrayList<>());
    private static final ConcurrentLinkedQueue<String> HOSTS = new ConcurrentLinkedQueue<>();

    @BeforeAll
    static void start() throws Exception {
        first = serve(HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0));
        second = serve(HttpServer.create(new InetSocketAddress("127.0.0.2", 0), 0));
        SSLContext context = selfSignedFor("localhost");
        trusting = context.getSocketFactory();
        tls = HttpsServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        tls.setHttpsConfigurator(new HttpsConfigurator(context) {
            @Override
            public void configure(HttpsParameters params) {
                SSLParameters p = context.getDefaultSSLParameters();
                p.setSNIMatchers(List.of(new SNIMatcher(0) {
                    @Override
                    public boolean matches(SNIServerName name) {
                        SNI.add(((SNIHostName) name).getAsciiName());
                        return true;
                    }
                }));
                params.setSSLParameters(p);
            }
        });
        serve(tls);
    }

    private static <S extends HttpServer> S serve(S server) {
        server.setExecutor(Executors.newCachedThreadPool());
        server.createContext("/ok", x -> answer(x, 200, "{\"keys\":[]}"));
        server.createContext("/host", x -> answer(x, 200, x.getRequestHeaders().getFirst("Host")));
        server.createContext("/echo", x -> answer(x, 200, x.getRequestMethod() + " "
                + x.getRequestHeaders().getFirst("Content-Type") + " "
                + new String(x.getRequestBody().readAllBytes(), StandardCharsets.US_ASCII)));
        server.createContext("/chunked", x -> {
            x.sendResponseHeaders(200, 0); // length 0: the JDK's server sends chunks
            try (OutputStream out = x.getResponseBody()) {
                for (int i = 0; i < 4; i++) {
                    out.write(("part" + i).getBytes(StandardCharsets.US_ASCII));
                    out.flush();
                }
            }
        });
        server.createContext("/limit", x -> answer(x, 200, "x".repeat(1_024)));
        server.createContext("/declared-too-large", x -> answer(x, 200, "x".repeat(1_025)));
        server.createContext("/chunked-too-large", x -> {
            x.sendResponseHeaders(200, 0);
            try (OutputStream out = x.getResponseBody()) {
                for (int i = 0; i < 3; i++) {
                    out.write("y".repeat(400).getBytes(StandardCharsets.US_ASCII));
                    out.flush();
                }
            }
        });
        server.createContext("/moved", x -> {
            x.getResponseHeaders().add("Location", "/ok");
            answer(x, 302, "");
        });
        server.start();
        return server;
    }

    @AfterAll
    static void stop() {
        first.stop(0);
        second.stop(0);
        tls.stop(0);
    }

    private static void answer(HttpExchange x, int status, String body) throws IOException {
        HOSTS.add(x.getLocalAddress().getAddress().getHostAddress());
        byte[] bytes = body.getBytes(StandardCharsets.US_ASCII);
        x.sendResponseHeaders(status, bytes.length == 0 ? -1 : bytes.length);
        try (OutputStream out = x.getResponseBody()) {
            out.write(bytes);
        }
    }

    /** A key pair and certificate for {@code host} alone, made by the JDK's keytool, and a context trusting it. */
    private static SSLContext selfSignedFor(String host) throws Exception {
        Path dir = Files.createTempDirectory("outbound-tls");
        Path store = dir.resolve("server.p12");
        Process keytool = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "keytool").toString(),
                "-genkeypair", "-alias", "server", "-keyalg", "EC", "-groupname", "secp256r1", "-dname", "CN=" + host,
                "-ext", "SAN=dns:" + host, "-validity", "2", "-keystore", store.toString(), "-storetype", "PKCS12",
                "-storepass", "changeit").redirectErrorStream(true).start();
        byte[] out = keytool.getInputStream().readAllBytes();
        assertTrue(keytool.waitFor(60, TimeUnit.SECONDS) && keytool.exitValue() == 0, new String(out));
        KeyStore ks = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(store)) {
            ks.load(in, "changeit".toCharArray());
        }
        KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        kmf.init(ks, "changeit".toCharArray());
        TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        tmf.init(ks);
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(kmf.getKeyManagers(), tmf.getTrustManagers(), null);
        return context;
    }

    private static OutboundHttp admitting(String... networks) {
        return admitting(InetAddress::getAllByName, networks);
    }

    private static OutboundHttp admitting(OutboundHttp.Resolver resolver, String... networks) {
        return new OutboundHttp(new OutboundAddressPolicy(Arrays.stream(networks).map(AddressRange::parse).toList()),
                trusting, resolver);
    }

    private static String at(HttpServer server, String path) {
        InetSocketAddress a = server.getAddress();
        return "http://" + a.getAddress().getHostAddress() + ":" + a.getPort() + path;
    }

    private static OutboundFailure fails(OutboundFailure.Kind kind, OutboundHttp http, String url) {
        OutboundFailure e = assertThrows(OutboundFailure.class, () -> http.get(url, "*/*", LIMITS), url);
        assertEquals(kind, e.kind(), e::getMessage);
        return e;
    }

    private static String body(OutboundHttp.Answer a) {
        return new String(a.body(), StandardCharsets.US_ASCII);
    }

    // --- which addresses are reached

    /** Every class of address that is never a relying party's, in the spellings parsers disagree on. */
    @ParameterizedTest
    @ValueSource(strings = {"http://127.0.0.1:{port}/ok", "http://127.0.0.2:{port}/ok", "http://[::1]:{port}/ok",
        "http://localhost:{port}/ok", "http://[::ffff:127.0.0.1]:{port}/ok", "http://[::127.0.0.1]:{port}/ok",
        "http://0.0.0.0:{port}/ok", "http://[::]:{port}/ok", "http://169.254.169.254/latest/meta-data/",
        "http://[fe80::1]/ok", "http://224.0.0.1/ok", "http://[ff02::1]/ok", "http://255.255.255.255/ok",
        "http://[64:ff9b::a9fe:a9fe]/ok", "http://[2002:a9fe:a9fe::1]/ok", "http://100.100.100.200/ok",
        "http://[fd00:ec2::254]/ok", "http://2130706433:{port}/ok", "http://0x7f000001:{port}/ok",
        "http://0177.0.0.1:{port}/ok", "http://127.1:{port}/ok", "http://0x7f.1:{port}/ok",
        "http://[fe80::1%25lo]/ok", "http://[fe80::1%lo]/ok", "http://user:pw@127.0.0.1:{port}/ok",
        "http://example.com@127.0.0.1:{port}/ok", "file:///etc/passwd", "ftp://127.0.0.1/x", "gopher://127.0.0.1/"})
    void byDefaultARefusedAddressOrSpellingIsRefusedWithoutAConnection(String template) {
        String url = template.replace("{port}", String.valueOf(first.getAddress().getPort()));
        int before = HOSTS.size();
        OutboundHttp byDefault = admitting(host -> {
            if (!host.equals("localhost")) {
                fail("looked up " + host);
            }
            return InetAddress.getAllByName(host);
        });
        OutboundFailure e = fails(OutboundFailure.Kind.REFUSED, byDefault, url);
        assertTrue(e.getMessage().startsWith(url + ": "), e::getMessage);
        assertEquals(before, HOSTS.size(), "no request reached a server");
    }

    @Test
    void byDefaultPrivateRangesArePublicAddressesAreReachable() throws Exception {
        OutboundAddressPolicy byDefault = new OutboundAddressPolicy(List.of());
        for (String a : List.of("10.1.2.3", "172.16.0.9", "192.168.1.20", "100.64.0.1", "fd12:3456::1", "fec0::1",
                "192.0.2.10", "2001:db8::10", "::ffff:10.0.0.1", "64:ff9b::a00:1")) {
            assertEquals(java.util.Optional.empty(), byDefault.refusal(InetAddress.getByName(a)), a);
        }
    }

    @Test
    void withAllowedNetworksExactlyThoseAreReached() throws Exception {
        OutboundHttp onlySecond = admitting("127.0.0.2/32");
        assertEquals(200, onlySecond.get(at(second, "/ok"), "*/*", LIMITS).status());
        OutboundFailure e = fails(OutboundFailure.Kind.REFUSED, onlySecond, at(first, "/ok"));
        assertTrue(e.getMessage().endsWith("names an address outside portcullis.outbound.allowed-networks "
                + "(127.0.0.1)"), e::getMessage);
        fails(OutboundFailure.Kind.REFUSED, onlySecond, "http://10.1.2.3/ok");
        fails(OutboundFailure.Kind.REFUSED, onlySecond, "http://2130706433/ok");
        fails(OutboundFailure.Kind.REFUSED, admitting("fe80::/10"), "http://[fe80::1%25lo]/ok");
        assertEquals(200, admitting("127.0.0.0/8").get(at(first, "/ok"), "*/*", LIMITS).status());
    }

    /**
     * DNS rebinding: the name resolves to an admitted address when checked and to another at any later look-up; the
     * request is made to the checked address, after one look-up, with the name in {@code Host}.
     */
    @Test
    void aNameIsResolvedOnceAndTheCheckedAddressIsTheOneConnectedTo() throws Exception {
        AtomicInteger lookups = new AtomicInteger();
        OutboundHttp.Resolver rebinding = host -> new InetAddress[]{InetAddress.getByAddress(host,
                lookups.getAndIncrement() == 0 ? new byte[]{127, 0, 0, 2} : new byte[]{127, 0, 0, 1})};
        OutboundHttp http = admitting(rebinding, "127.0.0.2/32");
        String url = "http://rp.test:" + second.getAddress().getPort() + "/host";
        OutboundHttp.Answer a = http.get(url, "*/*", LIMITS);
        assertEquals("rp.test:" + second.getAddress().getPort(), body(a));
        assertEquals(1, lookups.get());

        // the other way round: checked first, refused, never connected
        lookups.set(1);
        int before = HOSTS.size();
        OutboundFailure e = fails(OutboundFailure.Kind.REFUSED, http, "http://rp.test:" + first.getAddress().getPort()
                + "/ok");
        assertTrue(e.getMessage().contains("has a host that resolves to an address outside"), e::getMessage);
        assertEquals(before, HOSTS.size());
    }

    @Test
    void aNameWithOneRefusedAddressAmongItsAddressesIsRefusedWhole() {
        OutboundHttp http = admitting(host -> new InetAddress[]{InetAddress.getByName("10.1.2.3"),
            InetAddress.getByName("169.254.169.254")});
        OutboundFailure e = fails(OutboundFailure.Kind.REFUSED, http, "http://rp.test/ok");
        assertTrue(e.getMessage().contains("a link-local address (169.254.169.254)"), e::getMessage);
    }

    @Test
    void checkDestinationAcceptsANameWithoutAddressAndRefusesOneResolvingToLoopback() throws Exception {
        OutboundHttp byDefault = admitting(host -> {
            throw new UnknownHostException(host);
        });
        byDefault.checkDestination("https://rp.invalid/bc");
        OutboundFailure e = assertThrows(OutboundFailure.class, () -> admitting().checkDestination(
                "http://localhost/bc"));
        assertTrue(e.getMessage().startsWith("has a host that resolves to a loopback address"), e::getMessage);
        assertThrows(OutboundFailure.class, () -> byDefault.checkDestination("https://169.254.169.254/"));
    }

    // --- what is sent and read

    @Test
    void aGetReadsTheBodyWhetherSizedChunkedOrEndedByClose() throws Exception {
        OutboundHttp http = admitting("127.0.0.0/8");
        assertEquals("{\"keys\":[]}", body(http.get(at(first, "/ok"), "*/*", LIMITS)));
        assertEquals("part0part1part2part3", body(http.get(at(first, "/chunked"), "*/*", LIMITS)));
        assertEquals(1_024, http.get(at(first, "/limit"), "*/*", LIMITS).body().length);
        assertEquals("until close", body(http.get(raw(out -> out.write(("HTTP/1.0 200 OK\r\nX: y\r\n\r\n"
                + "until close").getBytes(StandardCharsets.US_ASCII))), "*/*", LIMITS)));
        assertEquals("after interim", body(http.get(raw(out -> out.write(("HTTP/1.1 100 Continue\r\n\r\n"
                + "HTTP/1.1 200 OK\r\nContent-Length: 13\r\n\r\nafter interim").getBytes(StandardCharsets.US_ASCII))),
                "*/*", LIMITS)));
    }

    @Test
    void aPostSendsTheFormAndAStatusOnlyRequestReadsNoBody() throws Exception {
        OutboundHttp http = admitting("127.0.0.0/8");
        OutboundHttp.Answer a = http.postForm(at(first, "/echo"), "logout_token=a.b.c",
                new OutboundHttp.Limits(Duration.ofSeconds(1), Duration.ofSeconds(2), 1_024));
        assertEquals("POST application/x-www-form-urlencoded logout_token=a.b.c", body(a));
        OutboundHttp.Answer statusOnly = http.postForm(at(first, "/declared-too-large"), "x=1",
                new OutboundHttp.Limits(Duration.ofSeconds(1), Duration.ofSeconds(2), 0));
        assertEquals(200, statusOnly.status());
        assertArrayEquals(new byte[0], statusOnly.body());
    }

    @Test
    void aRedirectIsAnAnswerAndItsLocationIsNotRequested() throws Exception {
        int before = HOSTS.size();
        OutboundHttp.Answer a = admitting("127.0.0.0/8").get(at(first, "/moved"), "*/*", LIMITS);
        assertEquals(302, a.status());
        assertEquals(before + 1, HOSTS.size(), "one request: /moved, not /ok");
    }

    @Test
    void aBodyLargerThanTheCapIsRefusedWhetherDeclaredChunkedOrEndedByClose() throws Exception {
        OutboundHttp http = admitting("127.0.0.0/8");
        fails(OutboundFailure.Kind.TOO_LARGE, http, at(first, "/declared-too-large"));
        fails(OutboundFailure.Kind.TOO_LARGE, http, at(first, "/chunked-too-large"));
        fails(OutboundFailure.Kind.TOO_LARGE, http, raw(out -> out.write(("HTTP/1.1 200 OK\r\n\r\n" + "z".repeat(2_000))
                .getBytes(StandardCharsets.US_ASCII))));
    }

    @Test
    void anAnswerThatIsNotHttpAsReadHereIsMalformed() throws Exception {
        OutboundHttp http = admitting("127.0.0.0/8");
        for (String answer : List.of("SSH-2.0-OpenSSH_9.2\r\n", "HTTP/2 200\r\n\r\n",
                "HTTP/1.1 200 OK\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\nhello!",
                "HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip, chunked\r\n\r\n",
                "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nContent-Length: 3\r\n\r\n3\r\nabc\r\n0\r\n\r\n",
                "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
                "HTTP/1.1 200 OK\r\n folded: header\r\n\r\n",
                "HTTP/1.1 200 OK\r\nX: " + "a".repeat(9_000) + "\r\n\r\n")) {
            fails(OutboundFailure.Kind.MALFORMED, http, raw(out -> out.write(answer.getBytes(StandardCharsets.US_ASCII))));
        }
        fails(OutboundFailure.Kind.UNREACHABLE, http, raw(out -> out.write(
                "HTTP/1.1 200 OK\r\nContent-Length: 50\r\n\r\nshort".getBytes(StandardCharsets.US_ASCII))));
    }

    @Test
    void aServerThatAnswersByTheDripOrNeverEndsTheRequestAtItsDeadline() throws Exception {
        OutboundHttp http = admitting("127.0.0.0/8");
        for (Consumer<OutputStream> server : List.<Consumer<OutputStream>>of(out -> hold(), out -> {
            try {
                out.write("HTTP/1.1 200 OK\r\n".getBytes(StandardCharsets.US_ASCII));
                for (int i = 0; i < 100; i++) {
                    out.write('X');
                    out.flush();
                    Thread.sleep(100); // the drip: each byte well within any read time-out
                }
            } catch (IOException | InterruptedException e) {
                // the client hung up, as it should
            }
        })) {
            long start = System.nanoTime();
            OutboundFailure e = fails(OutboundFailure.Kind.TIMED_OUT, http, raw(server::accept));
            long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            assertTrue(ms >= LIMITS.total().toMillis() - 100 && ms < LIMITS.total().toMillis() + 1_000,
                    "gave up after " + ms + " ms: " + e.getMessage());
        }
    }

    // --- TLS

    @Test
    void tlsNamesTheUrlsHostInSniAndChecksTheCertificateAgainstIt() throws Exception {
        OutboundHttp http = admitting("127.0.0.0/8");
        int port = tls.getAddress().getPort();
        SNI.clear();
        OutboundHttp.Answer a = http.get("https://localhost:" + port + "/host", "*/*", LIMITS);
        assertEquals("localhost:" + port, body(a));
        assertEquals(List.of("localhost"), SNI);
        OutboundFailure wrongName = fails(OutboundFailure.Kind.UNREACHABLE, http, "https://127.0.0.1:" + port + "/ok");
        assertTrue(wrongName.getMessage().contains("TLS failed"), wrongName::getMessage);
        OutboundFailure untrusted = fails(OutboundFailure.Kind.UNREACHABLE, new OutboundHttp(new OutboundAddressPolicy(
                List.of(AddressRange.parse("127.0.0.0/8"))), null), "https://localhost:" + port + "/ok");
        assertTrue(untrusted.getMessage().contains("TLS failed"), untrusted::getMessage);
    }

    /** A server that never answers: holds the connection longer than any request here waits. */
    private static void hold() {
        try {
            Thread.sleep(5_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** A one-connection server on 127.0.0.1 that reads the request head and writes what {@code answer} writes. */
    private interface Answering {
        void accept(OutputStream out) throws IOException;
    }

    private static String raw(Answering answer) throws IOException {
        ServerSocket server = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"));
        Thread t = new Thread(() -> {
            try (server; Socket s = server.accept()) {
                InputStream in = s.getInputStream();
                int last4 = 0;
                while (last4 != 0x0d0a0d0a) {
                    int b = in.read();
                    if (b == -1) {
                        return;
                    }
                    last4 = (last4 << 8) | b;
                }
                OutputStream out = s.getOutputStream();
                answer.accept(out);
                out.flush();
            } catch (IOException e) {
                // the client went away
            }
        });
        t.setDaemon(true);
        t.start();
        return "http://127.0.0.1:" + server.getLocalPort() + "/raw";
    }
}
