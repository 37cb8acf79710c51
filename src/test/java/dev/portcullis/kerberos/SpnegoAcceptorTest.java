package dev.portcullis.kerberos;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import dev.portcullis.config.KerberosSettings;
import dev.portcullis.testing.TestKdc;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The acceptor against tokens made by real clients: a real MIT KDC ({@link TestKdc}) and Debian's curl with
 * {@code --negotiate}, whose {@code Authorization} header a small HTTP server here captures after answering
 * {@code 401 Negotiate}.
 */
class SpnegoAcceptorTest {

    private static TestKdc kdc;
    private static HttpServer challenger;
    private static final List<String> AUTHORIZATIONS = new ArrayList<>();
    private static SpnegoAcceptor acceptor;
    private static Path carol;
    private static Path eve;

    @BeforeAll
    static void start() throws Exception {
        kdc = TestKdc.start();
        kdc.addUser("carol", "carol's kerberos password");
        kdc.addService("HTTP/elsewhere.test@" + TestKdc.REALM);
        carol = kdc.kinit("carol", "carol's kerberos password");
        kdc.addUser(TestKdc.OTHER_REALM, "eve", "eve's kerberos password");
        eve = kdc.kinit(TestKdc.OTHER_REALM, "eve", "eve's kerberos password");
        System.setProperty("java.security.krb5.conf", kdc.krb5Conf.toString());
        acceptor = new SpnegoAcceptor(new KerberosSettings(kdc.keytab, TestKdc.SERVICE, Optional.of(kdc.krb5Conf),
                List.of(TestKdc.REALM), KerberosSettings.DEFAULT_USER_FILTER, Map.of(), List.of()));
        challenger = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        challenger.createContext("/", exchange -> {
            String authorization = exchange.getRequestHeaders().getFirst("Authorization");
            if (authorization == null) {
                exchange.getResponseHeaders().add("WWW-Authenticate", "Negotiate");
                exchange.sendResponseHeaders(401, -1);
            } else {
                synchronized (AUTHORIZATIONS) {
                    AUTHORIZATIONS.add(authorization);
                }
                exchange.sendResponseHeaders(204, -1);
            }
            exchange.close();
        });
        challenger.start();
    }

    @AfterAll
    static void stop() {
        if (challenger != null) {
            challenger.stop(0);
        }
        if (kdc != null) {
            kdc.close();
        }
    }

    /** The header curl sends to {@code host} (resolved to this server) with carol's ticket cache. */
    private static String curlsHeader(String host) throws Exception {
        return curlsHeader(carol, host);
    }

    private static String curlsHeader(Path cache, String host) throws Exception {
        int port = challenger.getAddress().getPort();
        ProcessBuilder pb = new ProcessBuilder("curl", "-s", "-o", "/dev/null", "-w", "%{http_code}", "--negotiate",
                "-u", ":", "--resolve", host + ":" + port + ":127.0.0.1", "http://" + host + ":" + port + "/login")
                .redirectErrorStream(true);
        pb.environment().putAll(kdc.clientEnvironment(cache));
        int before;
        synchronized (AUTHORIZATIONS) {
            before = AUTHORIZATIONS.size();
        }
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(30, TimeUnit.SECONDS), out);
        assertEquals("204", out, () -> "curl: " + out + "\nKDC: " + kdc.log());
        synchronized (AUTHORIZATIONS) {
            assertEquals(before + 1, AUTHORIZATIONS.size());
            return AUTHORIZATIONS.get(before);
        }
    }

    @Test
    void acceptWhenCurlsTicketForTheServiceThenTheClientPrincipalAndAMutualToken() throws Exception {
        NegotiateHeader header = NegotiateHeader.parse(curlsHeader("localhost"));
        assertEquals(NegotiateHeader.Kind.TOKEN, header.kind());
        SpnegoAcceptor.Accepted accepted = acceptor.accept(header.token());
        assertEquals("carol@" + TestKdc.REALM, accepted.clientPrincipal());
        assertNotNull(accepted.responseToken().orElse(null));
    }

    @Test
    void acceptWhenACrossRealmTicketThenItsPrincipalWithItsRealm() throws Exception {
        // the acceptor names the principal; KerberosSignIn refuses realms not in portcullis.kerberos.realms
        NegotiateHeader header = NegotiateHeader.parse(curlsHeader(eve, "localhost"));
        assertEquals("eve@" + TestKdc.OTHER_REALM, acceptor.accept(header.token()).clientPrincipal());
    }

    @Test
    void acceptWhenTicketForAnotherServiceThenRefused() throws Exception {
        NegotiateHeader header = NegotiateHeader.parse(curlsHeader("elsewhere.test"));
        assertEquals(NegotiateHeader.Kind.TOKEN, header.kind());
        assertThrows(SpnegoAcceptor.Refused.class, () -> acceptor.accept(header.token()));
    }

    @Test
    void acceptWhenGarbageThenRefusedNotAnException() {
        for (byte[] token : new byte[][] {{0x60}, {0x60, 0x05, 0x06, 0x03, 0x2b, 0x06, 0x01}, {1, 2, 3, 4},
            "NTLMSSP\0".getBytes(StandardCharsets.ISO_8859_1), new byte[40_000]}) {
            assertThrows(SpnegoAcceptor.Refused.class, () -> acceptor.accept(token));
        }
    }
}
