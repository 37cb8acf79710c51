package dev.portcullis.client;

import dev.portcullis.admin.Refusal;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;
import java.util.Objects;

/**
 * Which redirect URIs a client may register (RFC 9700 2.1 and 2.6, RFC 8252): absolute, no fragment, no wildcard,
 * no user info; https, or http on a loopback host; private-use schemes ({@code com.example.app:/cb}) for public
 * (native) clients only. {@code portcullis.redirect.allow-http} lets intranet deployments register plain http
 * for other hosts, a documented risk. And how a presented redirect URI is matched: against the registered ones at
 * the authorization endpoint, against the authorization request's at the token endpoint.
 */
public final class RedirectUriPolicy {

    public static final int MAX_LENGTH = 2000;

    private RedirectUriPolicy() {
    }

    public static boolean isLoopbackHost(String host) {
        return host != null && (host.equals("127.0.0.1") || host.equals("[::1]") || host.equals("localhost"));
    }

    /** Throws invalid_request describing why {@code uri} may not be registered by such a client. */
    public static void check(String field, String uri, boolean confidential, boolean allowHttp) {
        if (uri == null || uri.isEmpty()) {
            throw invalid(field, "must not be empty");
        }
        if (uri.length() > MAX_LENGTH) {
            throw invalid(field, "must be at most " + MAX_LENGTH + " characters");
        }
        if (uri.chars().anyMatch(c -> c <= 0x20 || c == 0x7f)) {
            throw invalid(field, "must not contain spaces or control characters");
        }
        if (uri.contains("*")) {
            throw invalid(field, "must not contain wildcards");
        }
        URI u;
        try {
            u = new URI(uri);
        } catch (URISyntaxException e) {
            throw invalid(field, "is not a valid URI");
        }
        if (!u.isAbsolute()) {
            throw invalid(field, "must be an absolute URI");
        }
        if (u.getRawFragment() != null || uri.contains("#")) {
            throw invalid(field, "must not have a fragment");
        }
        String scheme = u.getScheme().toLowerCase(Locale.ROOT);
        if (scheme.equals("https") || scheme.equals("http")) {
            if (u.getHost() == null || u.getRawUserInfo() != null) {
                throw invalid(field, "must name a host and no user info");
            }
            if (scheme.equals("http") && !isLoopbackHost(u.getHost()) && !allowHttp) {
                throw invalid(field, "must use https (http is allowed only for 127.0.0.1, [::1] and localhost)");
            }
            return;
        }
        if (confidential) {
            throw invalid(field, "must use https (custom schemes are for public native clients only)");
        }
        if (!scheme.contains(".")) {
            throw invalid(field, "custom schemes must be private-use reverse domain names, e.g. com.example.app:/cb");
        }
        if (scheme.equals("javascript") || scheme.equals("data") || scheme.equals("file")) {
            throw invalid(field, "uses a forbidden scheme");
        }
    }

    private static Refusal invalid(String field, String problem) {
        return Refusal.invalid(field, problem);
    }

    /**
     * Whether {@code presented} is one of the client's redirect URIs: exact string comparison (RFC 9700 2.1), except
     * that for a public client's http loopback URI any port is accepted (RFC 8252 7.3: native apps bind an ephemeral
     * port).
     */
    public static boolean isRegistered(Client client, String presented) {
        if (client.redirectUris().contains(presented)) {
            return true;
        }
        return !client.confidential() && client.redirectUris().stream()
                .anyMatch(registered -> loopbackMatchIgnoringPort(registered, presented));
    }

    /** Whether the token request's redirect_uri is the authorization request's, identical (RFC 6749 4.1.3). */
    public static boolean isTheAuthorizedOne(String authorized, String presented) {
        return presented.equals(authorized);
    }

    static boolean loopbackMatchIgnoringPort(String registered, String presented) {
        try {
            URI r = new URI(registered);
            URI p = new URI(presented);
            return "http".equals(r.getScheme()) && "http".equals(p.getScheme())
                    && isLoopbackHost(r.getHost()) && r.getHost().equals(p.getHost())
                    && p.getRawUserInfo() == null && p.getRawFragment() == null
                    && Objects.equals(r.getRawPath(), p.getRawPath())
                    && Objects.equals(r.getRawQuery(), p.getRawQuery());
        } catch (Exception e) {
            return false;
        }
    }
}
