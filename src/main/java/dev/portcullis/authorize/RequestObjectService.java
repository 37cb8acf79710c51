package dev.portcullis.authorize;

import dev.portcullis.protocol.OAuthError;
import dev.portcullis.protocol.OAuthException;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.Map;

/**
 * What happens to a request that came as a verified request object (RFC 9101), once it passed every check: an object
 * with a {@code jti} is used up (one INSERT, so a second use within its lifetime is refused on any instance; an object
 * without one may be sent again until it expires, as the authorization URL it replaces could be), and a request sent
 * by value to the authorization endpoint is stored for the sign-in pages, which carry it by hash.
 */
@ApplicationScoped
public class RequestObjectService {

    @Inject
    RequestObjectJtiRepository jtis;

    @Inject
    PushedRequestRepository pushedRequests;

    /**
     * Records the single use of {@code r}'s request object, if it came as one with a {@code jti}.
     *
     * @throws OAuthException {@code invalid_request_object} when that jti was used before
     */
    public void use(AuthorizationRequest r) {
        RequestObject object = r.requestObject();
        if (object != null && object.jti() != null
                && !jtis.use(r.client().clientId(), object.jti(), object.expiresAt())) {
            throw new OAuthException(OAuthError.INVALID_REQUEST_OBJECT,
                    "the request object was used before (its jti)");
        }
    }

    /**
     * At the authorization endpoint: {@code r} as the pages carry it. A request from an object is used up
     * ({@link #use}, a replay sent to the client's redirect URI) and stored, carried by its hash; any other as it is.
     */
    public AuthorizationRequest carry(AuthorizationRequest r) {
        if (r.requestObject() == null) {
            return r;
        }
        try {
            use(r);
        } catch (OAuthException e) {
            throw new RejectedAuthorizationRequest(r.redirectUri(), r.responseMode(), r.state(), e);
        }
        String hash = pushedRequests.carry(r.client().clientId(), r.query());
        return r.carriedAs(Map.of("client_id", r.client().clientId(),
                AuthorizationRequestValidator.PUSHED_REQUEST, hash));
    }
}
