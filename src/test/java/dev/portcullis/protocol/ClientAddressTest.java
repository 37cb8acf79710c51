package dev.portcullis.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.portcullis.config.AddressRange;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@link ClientAddress}: which address a request comes from, behind zero, one or several proxies. */
class ClientAddressTest {

    private static final List<AddressRange> PROXIES = List.of(AddressRange.parse("10.0.0.0/8"),
            AddressRange.parse("2001:db8:ffff::/48"));

    private static String resolve(String peer, List<String> forwarded, List<String> xff) {
        return ClientAddress.resolve(peer, forwarded, xff, PROXIES);
    }

    @Test
    void headersFromAnUntrustedPeerAreIgnored() {
        assertEquals("203.0.113.9", resolve("203.0.113.9", List.of("for=198.51.100.1"), List.of("198.51.100.2")));
        assertEquals("203.0.113.9", ClientAddress.resolve("203.0.113.9", List.of(), List.of("198.51.100.2"),
                List.of()), "no trusted proxies configured");
    }

    @Test
    void rightMostUntrustedAddressOfAChainOfProxies() {
        assertEquals("198.51.100.7", resolve("10.0.0.1", List.of(), List.of("198.51.100.7")));
        // the client claims 1.2.3.4; the outer proxy 10.1.1.1 saw 198.51.100.7 and the inner one saw 10.1.1.1
        assertEquals("198.51.100.7", resolve("10.0.0.1", List.of(), List.of("1.2.3.4, 198.51.100.7, 10.1.1.1")));
        assertEquals("198.51.100.7", resolve("10.0.0.1", List.of(), List.of("1.2.3.4", "198.51.100.7,10.1.1.1")),
                "several header lines are one list");
        assertEquals("10.9.9.9", resolve("10.0.0.1", List.of(), List.of("10.9.9.9, 10.1.1.1")),
                "only proxies: the farthest");
        assertEquals("unknown", resolve("10.0.0.1", List.of(), List.of()),
                "no header: never the proxy's own address, which everyone behind it shares");
        assertEquals("198.51.100.7", resolve("10.0.0.1", List.of(), List.of("198.51.100.7:5123")));
    }

    @Test
    void forwardedHeaderSyntax() {
        assertEquals("2001:db8:0:0:0:0:0:1", resolve("10.0.0.1", List.of("for=\"[2001:db8::1]:4711\""), List.of()));
        assertEquals("198.51.100.7", resolve("10.0.0.1",
                List.of("for=192.0.2.60;proto=http;by=203.0.113.43, For=\"198.51.100.7\" ; host=x"), List.of()));
        assertEquals("198.51.100.7", resolve("10.0.0.1",
                List.of("for=192.0.2.60", "for=198.51.100.7;proto=https, for=\"[2001:db8:ffff::5]\""), List.of()));
        assertEquals("192.0.2.60", resolve("10.0.0.1", List.of("for=\"192.0.2.60:80\""), List.of()));
    }

    @Test
    void obfuscatedOrMalformedHeadersAreAnUnknownClientNeverTheProxy() {
        for (String bad : List.of("for=_hidden", "for=unknown", "for=192.0.2.60, for=_hidden", "for=\"192.0.2.60",
                "proto=https", "for=", "for=192.0.2.60;for=192.0.2.61", "for=\"[2001:db8::1\"", "for=host.example",
                "for=\"192.0.2.60\"x", "for=999.1.1.1", "for=[2001:db8::1]x", "garbage", ",,")) {
            assertEquals("unknown", resolve("10.0.0.1", List.of(bad), List.of()), bad);
        }
        for (String bad : List.of("", "198.51.100.7,", "unknown", "example.com", "1.2.3.4 5.6.7.8", "::ffff:zz")) {
            assertEquals("unknown", resolve("10.0.0.1", List.of(), List.of(bad)), bad);
        }
        assertEquals("unknown", resolve("10.0.0.1", List.of(), List.of("1.1.1.1,".repeat(40) + "1.1.1.1")),
                "more hops than any real chain");
    }

    @Test
    void bothHeadersMustNameTheSameClient() {
        assertEquals("198.51.100.7", resolve("10.0.0.1", List.of("for=198.51.100.7"), List.of("198.51.100.7")));
        assertEquals("198.51.100.7", resolve("10.0.0.1", List.of("for=\"198.51.100.7:4711\""),
                List.of("198.51.100.7")), "the same address, one with a port");
        assertEquals("2001:db8:1:0:0:0:0:5", resolve("10.0.0.1", List.of("for=\"[2001:db8:1::5]\""),
                List.of("2001:db8:1:0:0:0:0:5")), "the same IPv6 address, spelled two ways");
        assertEquals("198.51.100.7", resolve("10.0.0.1", List.of("for=1.2.3.4, for=198.51.100.7, for=10.1.1.1"),
                List.of("5.6.7.8, 198.51.100.7, 10.1.1.1")), "they differ only where the client wrote them");
    }

    @Test
    void bothHeadersNamingDifferentClientsAreAnUnknownClientNeverTheProxy() {
        // the proxy wrote one of them and the client the other; nothing says which, so neither is believed
        for (List<String> contradiction : List.of(
                List.of("for=192.0.2.1", "198.51.100.7"),
                List.of("for=198.51.100.7", "192.0.2.1"),
                List.of("for=\"[2001:db8:1::5]\"", "198.51.100.7"),
                List.of("for=198.51.100.7, for=203.0.113.9", "198.51.100.7"),
                List.of("for=198.51.100.7", "198.51.100.7, 203.0.113.9"),
                List.of("for=198.51.100.7", "10.1.1.1"),
                List.of("for=10.1.1.1", "10.9.9.9"),
                List.of("for=_hidden", "198.51.100.7"),
                List.of("for=198.51.100.7", "garbage"))) {
            assertEquals("unknown", resolve("10.0.0.1", List.of(contradiction.get(0)), List.of(contradiction.get(1))),
                    contradiction::toString);
        }
        assertEquals("unknown", resolve("2001:db8:ffff::1", List.of("for=192.0.2.1"), List.of("198.51.100.7")),
                "an IPv6 proxy too");
        assertEquals("203.0.113.9", resolve("203.0.113.9", List.of("for=192.0.2.1"), List.of("198.51.100.7")),
                "not from a trusted proxy: the headers are not read at all");
    }

    @Test
    void ipv6PeersAndRanges() {
        assertEquals("2001:db8:1:0:0:0:0:5", resolve("2001:db8:ffff:1::2", List.of(), List.of("2001:db8:1::5")));
        assertEquals("2001:db8:5::2", resolve("2001:db8:5::2%eth0", List.of(), List.of()), "the zone is dropped");
        assertEquals("198.51.100.7", resolve("2001:db8:ffff:1::2%eth0", List.of(), List.of("198.51.100.7")),
                "a trusted proxy with a zone");
        assertEquals("::1", resolve("[::1]", List.of(), List.of("198.51.100.7")));
    }

    @Test
    void ipv6IsCountedPerSlash64() {
        assertEquals("2001:db8:1:2:0:0:0:0/64", ClientAddress.counterKey("2001:db8:1:2:aaaa:bbbb:cccc:dddd"));
        assertEquals(ClientAddress.counterKey("2001:db8:1:2::1"), ClientAddress.counterKey("2001:db8:1:2:ffff::9"));
        assertEquals("198.51.100.7", ClientAddress.counterKey("198.51.100.7"));
        assertEquals("unknown", ClientAddress.counterKey("unknown"));
    }
}
