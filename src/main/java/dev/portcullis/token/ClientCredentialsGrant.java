package dev.portcullis.token;

import dev.portcullis.api.ResourceIndicatorService;
import dev.portcullis.client.Client;
import dev.portcullis.client.GrantTypes;
import dev.portcullis.client.Scopes;
import dev.portcullis.protocol.OAuthError;
import dev.portcullis.protocol.OAuthException;
import dev.portcullis.protocol.ProtocolParameters;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * {@code grant_type=client_credentials} (RFC 6749 4.4): a confidential client asks for an access token on its own
 * behalf. The checks of {@link #handle}, in order, then one transaction records and mints the token
 * ({@link TokenIssuer#issueToClient}): an RFC 9068 access token whose {@code sub} is the client id, without
 * {@code auth_time}, and neither a refresh token (RFC 6749 4.4.3) nor an ID token. The scope is a subset of the
 * client's scopes without the OpenID Connect user scopes ({@link #USER_SCOPES}), which describe a user this token
 * does not have; without {@code scope} the client gets all of its other scopes (RFC 6749 3.3's default), narrowed
 * to those of the requested {@code resource}s when it names any (RFC 8707).
 */
@ApplicationScoped
public class ClientCredentialsGrant implements GrantHandler {

    /** Scopes about a signed-in user (and offline_access, which asks for refresh tokens): never for a client alone. */
    static final Set<String> USER_SCOPES = Set.of(Scopes.OPENID, Scopes.PROFILE, Scopes.EMAIL, Scopes.GROUPS,
            "offline_access");

    @Inject
    TokenIssuer issuer;

    @Inject
    ResourceIndicatorService resourceIndicators;

    @Override
    public String grantType() {
        return GrantTypes.CLIENT_CREDENTIALS;
    }

    @Override
    public TokenResponse handle(Client client, ProtocolParameters p, String ip, String dpopJkt) {
        clientIsConfidential(client);
        String scope = scopeIsAllowed(client, p.get("scope"));
        ResourceIndicatorService.Selection resources = resourcesAreAllowed(client, scope, p.all("resource"));
        return issuer.issueToClient(client, resources.token(), resources.resources(), ip, dpopJkt);
    }

    /**
     * RFC 8707 2: each resource registered and one the client may use; the token is for them, its scope narrowed to
     * theirs. Without {@code resource}: the one API all the scopes belong to; scopes of more than one API (also the
     * client's, when it asks for no scope) are {@code invalid_scope}.
     */
    private ResourceIndicatorService.Selection resourcesAreAllowed(Client client, String scope, List<String> requested) {
        return resourceIndicators.forNewAuthorization(requested, Scopes.parse(scope), client.scopeSet());
    }

    /** RFC 6749 4.4.2: the client must authenticate; a public client cannot, whatever its registration says. */
    static void clientIsConfidential(Client client) {
        if (!client.confidential()) {
            throw new OAuthException(OAuthError.UNAUTHORIZED_CLIENT,
                    "The client credentials grant is for confidential clients only");
        }
    }

    /**
     * RFC 6749 3.3: the requested scopes, each one the client's and none a user scope; none requested: every scope
     * of the client that is not a user scope, and invalid_scope when that leaves nothing.
     */
    static String scopeIsAllowed(Client client, Optional<String> requested) {
        Set<String> allowed = new LinkedHashSet<>(client.scopeSet());
        allowed.removeAll(USER_SCOPES);
        if (requested.isEmpty()) {
            if (allowed.isEmpty()) {
                throw OAuthException.invalidScope("The client has no scope that can be granted without a user");
            }
            return Scopes.format(allowed);
        }
        Set<String> scopes = Scopes.parse(requested.get());
        if (scopes.isEmpty()) {
            throw OAuthException.invalidScope("scope is empty");
        }
        for (String s : scopes) {
            if (USER_SCOPES.contains(s)) {
                throw OAuthException.invalidScope("Scope " + s + " is about a user; a client credentials token has "
                        + "none");
            }
            if (!allowed.contains(s)) {
                throw OAuthException.invalidScope("The client may not request scope "
                        + (Scopes.isWellFormed(s) && s.length() <= 40 ? s : "?"));
            }
        }
        return Scopes.format(scopes);
    }
}
