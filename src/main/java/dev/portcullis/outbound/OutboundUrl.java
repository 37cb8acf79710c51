package dev.portcullis.outbound;

import dev.portcullis.config.AddressRange;
import java.net.InetAddress;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * A URL Portcullis may request, read strictly so that it means one thing to every parser: http or https, a host, no
 * user info, no fragment; an IPv4 address only as four decimal numbers (never {@code 2130706433}, {@code 0x7f.1},
 * {@code 0177.0.0.1} or {@code 127.1}, which parsers read differently); an IPv6 address without a zone id.
 * {@code literal} is the address when the host is one, else empty (a name, resolved at each request).
 */
public record OutboundUrl(URI uri, boolean https, String host, int port, Optional<InetAddress> literal) {

    private static final Pattern DOTTED_QUAD = Pattern.compile(
            "(25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])(\\.(25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])){3}");
    /** A last label that WHATWG URL hosts read as a number: a host ending in it is an IPv4 address or nothing. */
    private static final Pattern NUMERIC_LABEL = Pattern.compile("(0[xX][0-9a-fA-F]*|[0-9]+)");

    /** Parses {@code url}; {@link OutboundFailure.Kind#REFUSED} saying why when it is not such a URL. */
    public static OutboundUrl parse(String url) throws OutboundFailure {
        if (url == null || url.isEmpty() || url.chars().anyMatch(c -> c <= 0x20 || c >= 0x7f)) {
            throw refused("must be an ASCII URL without spaces or control characters");
        }
        URI uri;
        try {
            uri = new URI(url);
        } catch (URISyntaxException e) {
            throw refused("is not a valid URI");
        }
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        if (!scheme.equals("https") && !scheme.equals("http")) {
            throw refused("must be an http or https URL");
        }
        if (uri.getRawUserInfo() != null || uri.getRawAuthority() != null && uri.getRawAuthority().contains("@")) {
            throw refused("must not carry user info");
        }
        if (uri.getRawFragment() != null) {
            throw refused("must not have a fragment");
        }
        String host = uri.getHost();
        if (host == null || host.isEmpty()) {
            throw refused("must name a host");
        }
        int port = uri.getPort() == -1 ? (scheme.equals("https") ? 443 : 80) : uri.getPort();
        if (port < 1 || port > 65_535) {
            throw refused("has no valid port");
        }
        Optional<InetAddress> literal;
        if (host.startsWith("[")) {
            String bare = host.substring(1, host.length() - 1);
            if (bare.contains("%")) {
                throw refused("must not name an IPv6 zone id");
            }
            literal = Optional.of(AddressRange.literal(bare).orElseThrow(() -> refused("has no valid IPv6 address")));
            host = bare;
        } else {
            String last = host.endsWith(".") ? host.substring(0, host.length() - 1) : host;
            last = last.substring(last.lastIndexOf('.') + 1);
            if (NUMERIC_LABEL.matcher(last).matches() && !DOTTED_QUAD.matcher(host).matches()) {
                throw refused("must write an IPv4 address as four decimal numbers (no octal, hexadecimal, "
                        + "single-number or shortened forms)");
            }
            literal = DOTTED_QUAD.matcher(host).matches() ? AddressRange.literal(host) : Optional.empty();
            host = host.toLowerCase(Locale.ROOT);
        }
        return new OutboundUrl(uri, scheme.equals("https"), host, port, literal);
    }

    /** The {@code Host} header: the host as the URL names it, with the port when it is not the scheme's. */
    String hostHeader() {
        String h = host.contains(":") ? "[" + host + "]" : host;
        return port == (https ? 443 : 80) ? h : h + ":" + port;
    }

    /** The request target: the path (at least {@code /}) and the query, as the URL encodes them. */
    String target() {
        String path = uri.getRawPath() == null || uri.getRawPath().isEmpty() ? "/" : uri.getRawPath();
        return uri.getRawQuery() == null ? path : path + "?" + uri.getRawQuery();
    }

    private static OutboundFailure refused(String why) {
        return new OutboundFailure(OutboundFailure.Kind.REFUSED, why);
    }
}
