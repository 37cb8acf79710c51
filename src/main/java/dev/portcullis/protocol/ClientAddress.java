package dev.portcullis.protocol;

import dev.portcullis.config.AddressRange;
import dev.portcullis.config.HttpSettings;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.servlet.http.HttpServletRequest;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;

/**
 * The address of the client behind a request, for the audit trail, sign-in throttling and where Kerberos is offered:
 * the direct peer, or, when that peer is one of {@code portcullis.http.trusted-proxies}, the right-most address in
 * {@code Forwarded} (RFC 7239) or {@code X-Forwarded-For} that is not a trusted proxy. Each proxy appends the address
 * it received the request from, so everything left of the first untrusted hop was written by the client and proves
 * nothing.
 *
 * <p>A request from a trusted proxy is never the proxy's own: that address is shared by everyone behind it (one
 * throttling counter for all, and inside the networks Kerberos is offered to). When its headers name no client —
 * neither header, one that cannot be read as a chain of addresses (malformed, an obfuscated identifier such as
 * {@code _hidden} or {@code unknown}), or both headers present and naming different clients, which means the client
 * wrote one of them and nothing says which — the client is {@value #UNKNOWN}: recorded as such, counted in a
 * throttling counter of its own, and in no network.
 */
@ApplicationScoped
public class ClientAddress {

    /** The client of a request from a trusted proxy whose headers name none. */
    public static final String UNKNOWN = "unknown";

    /** More hops than any real chain of proxies; a longer header is read as malformed. */
    static final int MAX_HOPS = 32;

    @Inject
    HttpSettings httpSettings;

    /** The client address of {@code request}, as text (IPv6 in Java's full form). */
    public String of(HttpServletRequest request) {
        List<AddressRange> trusted = httpSettings.trustedProxies();
        if (trusted.isEmpty()) {
            return peer(request.getRemoteAddr());
        }
        return resolve(request.getRemoteAddr(), Collections.list(request.getHeaders("Forwarded")),
                Collections.list(request.getHeaders("X-Forwarded-For")), trusted);
    }

    /** The rule of this class as a pure function of the peer, the header lines and the trusted ranges. */
    static String resolve(String peer, List<String> forwarded, List<String> xForwardedFor,
                          List<AddressRange> trusted) {
        Optional<InetAddress> direct = AddressRange.literal(strip(peer));
        if (direct.isEmpty() || !isTrusted(direct.get(), trusted)) {
            return peer(peer);
        }
        Optional<InetAddress> byForwarded = forwarded.isEmpty() ? null
                : chain(forwardedFor(String.join(",", forwarded)), trusted);
        Optional<InetAddress> byXff = xForwardedFor.isEmpty() ? null
                : chain(xForwardedFor(String.join(",", xForwardedFor)), trusted);
        Optional<InetAddress> client;
        if (byForwarded == null && byXff == null) {
            client = Optional.empty();
        } else if (byForwarded == null || byXff == null) {
            client = byForwarded == null ? byXff : byForwarded;
        } else {
            client = byForwarded.equals(byXff) ? byForwarded : Optional.empty();
        }
        return client.map(InetAddress::getHostAddress).orElse(UNKNOWN);
    }

    /**
     * The key a per-address counter should use: an IPv4 address as is, an IPv6 address by its /64 network, since one
     * host or household is usually given a whole /64 and could otherwise take a fresh address per attempt.
     */
    public static String counterKey(String address) {
        Optional<InetAddress> a = AddressRange.literal(address);
        if (a.isEmpty() || a.get().getAddress().length == 4) {
            return address;
        }
        return new AddressRange(AddressRange.mask(a.get().getAddress(), 64), 64).toString();
    }

    /** The right-most untrusted hop of a chain (left to right, as the headers list it); empty when unreadable. */
    private static Optional<InetAddress> chain(List<String> hops, List<AddressRange> trusted) {
        if (hops == null || hops.isEmpty() || hops.size() > MAX_HOPS) {
            return Optional.empty();
        }
        InetAddress leftMost = null;
        for (int i = hops.size() - 1; i >= 0; i--) {
            Optional<InetAddress> hop = hostOf(hops.get(i));
            if (hop.isEmpty()) {
                return Optional.empty();
            }
            if (!isTrusted(hop.get(), trusted)) {
                return hop;
            }
            leftMost = hop.get();
        }
        return Optional.of(leftMost); // every hop a trusted proxy: the farthest one is the closest to the client
    }

    /** The address of one node: IPv4, IPv6 in brackets, either with an optional port, or a bare IPv6 address. */
    private static Optional<InetAddress> hostOf(String node) {
        String n = node.trim();
        if (n.startsWith("[")) {
            int close = n.indexOf(']');
            if (close < 0 || !(close == n.length() - 1 || n.substring(close + 1).matches(":\\d{1,5}"))) {
                return Optional.empty();
            }
            return AddressRange.literal(n.substring(1, close)).filter(a -> a.getAddress().length == 16);
        }
        int colon = n.indexOf(':');
        if (colon > 0 && colon == n.lastIndexOf(':')) { // IPv4 with a port
            return n.substring(colon + 1).matches("\\d{1,5}") ? AddressRange.literal(n.substring(0, colon))
                    .filter(a -> a.getAddress().length == 4) : Optional.empty();
        }
        return AddressRange.literal(n);
    }

    /** The nodes of X-Forwarded-For, left to right; null when malformed. */
    private static List<String> xForwardedFor(String header) {
        List<String> out = new ArrayList<>();
        for (String part : header.split(",", -1)) {
            if (part.isBlank()) {
                return null;
            }
            out.add(part.trim());
        }
        return out;
    }

    /**
     * The {@code for} node of every element of a Forwarded header, left to right (RFC 7239 section 4: elements
     * separated by commas, pairs by semicolons, values a token or a quoted string); null when malformed or when an
     * element names no {@code for}.
     */
    private static List<String> forwardedFor(String header) {
        List<String> out = new ArrayList<>();
        String forValue = null;
        StringBuilder name = new StringBuilder();
        StringBuilder value = new StringBuilder();
        boolean inValue = false;
        boolean quoted = false;
        boolean wasQuoted = false;
        for (int i = 0; i <= header.length(); i++) {
            char ch = i < header.length() ? header.charAt(i) : ',';
            if (quoted) {
                if (ch == '\\' && i + 1 < header.length()) {
                    value.append(header.charAt(++i));
                } else if (ch == '"') {
                    quoted = false;
                    wasQuoted = true;
                } else if (i == header.length()) {
                    return null; // unterminated quoted string
                } else {
                    value.append(ch);
                }
            } else if (ch == ';' || ch == ',') {
                if (name.length() > 0 || inValue) {
                    if (!inValue || name.length() == 0 || value.length() == 0 && !wasQuoted) {
                        return null;
                    }
                    if (name.toString().trim().equalsIgnoreCase("for")) {
                        if (forValue != null) {
                            return null; // one for per element
                        }
                        forValue = value.toString();
                    }
                }
                if (ch == ',') {
                    if (forValue == null) {
                        return null;
                    }
                    out.add(forValue);
                    forValue = null;
                }
                name.setLength(0);
                value.setLength(0);
                inValue = false;
                wasQuoted = false;
            } else if (!inValue && ch == '=') {
                inValue = true;
            } else if (inValue && ch == '"' && value.length() == 0 && !wasQuoted) {
                quoted = true;
            } else if (ch == ' ' || ch == '\t') {
                if (inValue && value.length() > 0) {
                    wasQuoted = true; // the token ended: only a separator may follow
                }
            } else if (wasQuoted) {
                return null; // text after a closing quote
            } else {
                (inValue ? value : name).append(ch);
            }
        }
        return out;
    }

    private static boolean isTrusted(InetAddress address, List<AddressRange> trusted) {
        for (AddressRange r : trusted) {
            if (r.contains(address)) {
                return true;
            }
        }
        return false;
    }

    /** The peer address as the container gives it, without an IPv6 zone (scope) suffix. */
    private static String peer(String remoteAddr) {
        return remoteAddr == null ? UNKNOWN : strip(remoteAddr);
    }

    private static String strip(String remoteAddr) {
        if (remoteAddr == null) {
            return null;
        }
        String s = remoteAddr.startsWith("[") && remoteAddr.endsWith("]")
                ? remoteAddr.substring(1, remoteAddr.length() - 1) : remoteAddr;
        int zone = s.indexOf('%');
        return zone < 0 ? s : s.substring(0, zone);
    }
}
