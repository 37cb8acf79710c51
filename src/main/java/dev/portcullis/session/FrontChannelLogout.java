package dev.portcullis.session;

import dev.portcullis.client.LogoutNotifications;
import dev.portcullis.page.ContentSecurityPolicy;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * OpenID Connect Front-Channel Logout 1.0: the URIs the signed-out page loads in invisible iframes, one for each
 * client of the ended session that registered a {@code frontchannel_logout_uri}, and the CSP that lets exactly their
 * origins be framed.
 */
final class FrontChannelLogout {

    private FrontChannelLogout() {
    }

    /**
     * The URIs to load for the {@code clients} (their registrations) of the session with this {@code sid}, in the order given; a client
     * without a front-channel URI gets none, and so does one that requires the session when the session has no
     * {@code sid} (started before sids existed: its ID tokens carried none the client could match).
     */
    static List<String> uris(Collection<LogoutNotifications> clients, String issuer, String sid) {
        List<String> uris = new ArrayList<>();
        for (LogoutNotifications n : clients) {
            if (n.frontchannelUri() != null && (sid != null || !n.frontchannelSessionRequired())) {
                uris.add(uri(n.frontchannelUri(), n.frontchannelSessionRequired(), issuer, sid));
            }
        }
        return uris;
    }

    /**
     * The registered URI, with {@code iss} and {@code sid} as query parameters when the client requires the session
     * (sec. 2), added to a query it may already have (sec. 3 allows one).
     */
    static String uri(String registered, boolean sessionRequired, String issuer, String sid) {
        if (!sessionRequired) {
            return registered;
        }
        String separator = !registered.contains("?") ? "?" : registered.endsWith("?") || registered.endsWith("&")
                ? "" : "&";
        return registered + separator + "iss=" + URLEncoder.encode(issuer, StandardCharsets.UTF_8) + "&sid="
                + URLEncoder.encode(sid, StandardCharsets.UTF_8);
    }

    /** The page's CSP: {@code frame-src} with exactly the origins of {@code uris}. */
    static String contentSecurityPolicy(Collection<String> uris) {
        Set<String> origins = new TreeSet<>();
        uris.forEach(u -> origins.add(ContentSecurityPolicy.origin(URI.create(u))));
        return ContentSecurityPolicy.framing(origins);
    }
}
