package dev.portcullis.token;

import dev.portcullis.client.Client;
import dev.portcullis.protocol.ProtocolParameters;

/**
 * One {@code grant_type} of the token endpoint (RFC 6749 4.1.3, 6). {@link TokenEndpoint} finds every handler
 * bean once at startup and calls the one the request names, after it has authenticated the client. A handler runs
 * its checks in the order its RFCs give them and throws {@link dev.portcullis.protocol.OAuthException} at the first
 * that fails.
 */
public interface GrantHandler {

    /** The {@code grant_type} value this handler serves. */
    String grantType();

    /**
     * Validates the request of an authenticated client and issues its tokens; {@code dpopJkt} is the thumbprint of
     * the key of the request's verified DPoP proof (RFC 9449), to which the access token is bound, null without one.
     */
    TokenResponse handle(Client client, ProtocolParameters params, String ip, String dpopJkt);
}
