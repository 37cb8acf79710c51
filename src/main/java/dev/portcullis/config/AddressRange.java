package dev.portcullis.config;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * An IPv4 or IPv6 network in CIDR notation ({@code 10.0.0.0/8}, {@code 2001:db8::/32}; a bare address is a single
 * host), as {@code portcullis.http.trusted-proxies} and {@code portcullis.outbound.allowed-networks} list them. Literal addresses only: a name is never resolved,
 * since what DNS says may change after startup and a lookup per request would be slow.
 */
public record AddressRange(byte[] network, int prefixBits) {

    private static final Pattern IPV4 = Pattern.compile("\\d{1,3}(\\.\\d{1,3}){3}");
    private static final Pattern IPV6 = Pattern.compile("[0-9a-fA-F:]*:[0-9a-fA-F:.]*");

    /** Parses one range; IllegalArgumentException when it is not one. */
    public static AddressRange parse(String spec) {
        String s = spec.trim();
        int slash = s.indexOf('/');
        InetAddress address = literal(slash < 0 ? s : s.substring(0, slash))
                .orElseThrow(() -> new IllegalArgumentException("'" + spec + "' is not an IP address or CIDR range"));
        int max = address.getAddress().length * 8;
        int bits = max;
        if (slash >= 0) {
            String prefix = s.substring(slash + 1);
            if (!prefix.matches("\\d{1,3}") || Integer.parseInt(prefix) > max) {
                throw new IllegalArgumentException("'" + spec + "' has no valid prefix length (0 to " + max + ")");
            }
            bits = Integer.parseInt(prefix);
        }
        return new AddressRange(mask(address.getAddress(), bits), bits);
    }

    /**
     * A comma-separated list of ranges, as a setting holds them (blanks between commas ignored); the setting's
     * ConfigurationException naming {@code key} when one is not a range.
     */
    static List<AddressRange> parseList(String key, String raw) {
        List<AddressRange> ranges = new ArrayList<>();
        for (String v : raw.split(",")) {
            if (!v.isBlank()) {
                try {
                    ranges.add(parse(v));
                } catch (IllegalArgumentException e) {
                    throw new ConfigurationException(key, "must be a comma-separated list of IP addresses or CIDR "
                            + "ranges (10.0.0.0/8, 2001:db8::/32): " + e.getMessage());
                }
            }
        }
        return List.copyOf(ranges);
    }

    /** The address a literal IPv4 or IPv6 text denotes (IPv4-mapped IPv6 as IPv4); empty for anything else. */
    public static Optional<InetAddress> literal(String text) {
        if (text == null || text.length() > 45 || !(IPV4.matcher(text).matches() || IPV6.matcher(text).matches())) {
            return Optional.empty();
        }
        try {
            return Optional.of(InetAddress.getByName(text)); // a literal: parsed, never looked up
        } catch (UnknownHostException | SecurityException e) {
            return Optional.empty();
        }
    }

    public boolean contains(InetAddress address) {
        byte[] a = address.getAddress();
        return a.length == network.length && java.util.Arrays.equals(mask(a, prefixBits), network);
    }

    /** {@code address} with every bit after the first {@code bits} cleared. */
    public static byte[] mask(byte[] address, int bits) {
        byte[] out = address.clone();
        for (int i = 0; i < out.length; i++) {
            int keep = Math.max(0, Math.min(8, bits - i * 8));
            out[i] &= (byte) (0xff << (8 - keep));
        }
        return out;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof AddressRange r && r.prefixBits == prefixBits && java.util.Arrays.equals(r.network, network);
    }

    @Override
    public int hashCode() {
        return java.util.Arrays.hashCode(network) * 31 + prefixBits;
    }

    @Override
    public String toString() {
        try {
            return InetAddress.getByAddress(network).getHostAddress() + "/" + prefixBits;
        } catch (UnknownHostException e) {
            throw new IllegalStateException(e);
        }
    }
}
