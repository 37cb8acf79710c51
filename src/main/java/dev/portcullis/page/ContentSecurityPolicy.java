package dev.portcullis.page;

import java.util.Collection;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * The Content-Security-Policy of Portcullis's responses. Pages load nothing but their own stylesheet and scripts
 * and may never be framed; the only page that frames anything is the signed-out page of a front-channel logout,
 * which allows exactly the origins of the relying parties' logout URIs it loads.
 */
public final class ContentSecurityPolicy {

    /** Every response's policy; {@code default-src 'none'} also forbids frames. */
    public static final String PAGES = "default-src 'none'; style-src 'self'; img-src 'self' data:; "
            + "script-src 'self'; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'";

    /** A serialised origin as CSP accepts it: scheme, host and optional port; nothing that could end the source. */
    private static final Pattern ORIGIN = Pattern.compile("https?://[a-z0-9.\\-\\[\\]:]+");

    private ContentSecurityPolicy() {
    }

    /**
     * {@link #PAGES} that also lets the page frame {@code origins} (as {@link #origin} makes them), in a stable
     * order; with no origins, {@link #PAGES} itself.
     */
    public static String framing(Collection<String> origins) {
        if (origins.isEmpty()) {
            return PAGES;
        }
        TreeSet<String> sorted = new TreeSet<>();
        for (String o : origins) {
            if (!ORIGIN.matcher(o).matches()) {
                // a value that is no plain origin could widen the policy: refuse rather than write it
                throw new IllegalArgumentException("not an origin: " + o);
            }
            sorted.add(o);
        }
        return PAGES + "; frame-src " + String.join(" ", sorted);
    }

    /** The origin of an absolute http(s) URI: lower-case scheme and host, the port only when it is given. */
    public static String origin(java.net.URI uri) {
        String scheme = uri.getScheme().toLowerCase(java.util.Locale.ROOT);
        String host = uri.getHost().toLowerCase(java.util.Locale.ROOT);
        return scheme + "://" + host + (uri.getPort() < 0 ? "" : ":" + uri.getPort());
    }
}
