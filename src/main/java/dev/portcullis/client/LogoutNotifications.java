package dev.portcullis.client;

import java.util.Optional;

/**
 * Where a client wants to be told that an SSO session it served has ended (OpenID Connect Back-Channel Logout 1.0
 * and Front-Channel Logout 1.0 client metadata): {@code backchannelUri} receives a logout token by POST,
 * {@code frontchannelUri} is loaded by the browser; each null when not registered. The {@code *SessionRequired}
 * flags ask for {@code sid} (and {@code iss}) with the notification; they default to true.
 */
public record LogoutNotifications(String backchannelUri, boolean backchannelSessionRequired, String frontchannelUri,
                                  boolean frontchannelSessionRequired) {

    /** A client that registered neither URI. */
    public static final LogoutNotifications NONE = new LogoutNotifications(null, true, null, true);

    /**
     * The fields a registration or a merge patch names: an absent field is null (left as it is); a URI that is
     * {@code Optional.empty()} is removed (JSON null).
     */
    public record Change(Optional<String> backchannelUri, Boolean backchannelSessionRequired,
                         Optional<String> frontchannelUri, Boolean frontchannelSessionRequired) {

        /** Names no field. */
        public static final Change NONE = new Change(null, null, null, null);
    }

    /** This value with {@code change} applied; the URIs are checked by {@link #check} afterwards. */
    LogoutNotifications with(Change change) {
        return new LogoutNotifications(
                change.backchannelUri() == null ? backchannelUri : change.backchannelUri().orElse(null),
                change.backchannelSessionRequired() == null ? backchannelSessionRequired
                        : change.backchannelSessionRequired(),
                change.frontchannelUri() == null ? frontchannelUri : change.frontchannelUri().orElse(null),
                change.frontchannelSessionRequired() == null ? frontchannelSessionRequired
                        : change.frontchannelSessionRequired());
    }

    /**
     * Refuses a URI that a redirect URI of a confidential client could not be (https, or http on a loopback host or
     * with {@code portcullis.redirect.allow-http}; absolute, no fragment): Portcullis itself or the browser calls it.
     */
    void check(boolean allowHttp) {
        if (backchannelUri != null) {
            RedirectUriPolicy.check("backchannel_logout_uri", backchannelUri, true, allowHttp);
        }
        if (frontchannelUri != null) {
            RedirectUriPolicy.check("frontchannel_logout_uri", frontchannelUri, true, allowHttp);
        }
    }
}
