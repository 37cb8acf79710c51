package dev.portcullis.session;

import dev.portcullis.protocol.ProtocolParameters;

/**
 * The end-session endpoint's server-to-server form: a client that authenticates as at the token endpoint presents
 * one of its refresh tokens ({@code refresh_token}), and that token's SSO session ends (the convention of Keycloak,
 * which WildFly's {@code elytron-oidc-client} follows). Declared here and implemented by the token side, which knows
 * clients' credentials and refresh tokens; the session store stays below it.
 */
public interface RefreshTokenLogout {

    /**
     * Authenticates the client of {@code params} ({@code authorizationHeader} for HTTP Basic), checks that
     * {@code refresh_token} is a live refresh token of that client, and ends its family and its SSO session.
     *
     * @throws dev.portcullis.protocol.OAuthException invalid_client, invalid_request or invalid_grant; nothing ended
     */
    void end(ProtocolParameters params, String authorizationHeader, String ip);
}
