package dev.portcullis.api;

import dev.portcullis.client.Scopes;
import dev.portcullis.config.TokenSettings;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The authorization and token endpoints' view of the APIs (RFC 8707): a fresh {@link ApiDirectory} per request, read
 * from the database, so that an API registered or changed on one instance counts on every other at once.
 */
@ApplicationScoped
public class ResourceIndicatorService {

    @Inject
    ApiRepository apis;

    @Inject
    TokenSettings tokenSettings;

    /** The APIs as they are now. */
    public ApiDirectory directory() {
        List<RegisteredApi> registered = new ArrayList<>();
        apis.all().forEach(a -> registered.add(RegisteredApi.of(a)));
        return new ApiDirectory(ownIdentifier(), registered);
    }

    /** The resources a new authorization is for (API identifiers), and its first access token's audience. */
    public record Selection(List<String> resources, AccessTokenAudience token) {
    }

    /**
     * A new authorization without a user (client credentials): the requested resources checked against the client's
     * scopes, and the token for them with {@code scopes} narrowed to theirs; without any, the token for the one API
     * of {@code scopes} ({@link ApiDirectory#accessToken}: scopes of several APIs are {@code invalid_scope}).
     */
    public Selection forNewAuthorization(List<String> requested, Set<String> scopes, Set<String> clientScopes) {
        if (requested.isEmpty() && ApiDirectory.builtInOnly(scopes)) {
            return new Selection(List.of(), ownApi(scopes));
        }
        ApiDirectory apis = directory();
        List<RegisteredApi> resources = apis.requested(requested, clientScopes);
        return new Selection(ApiDirectory.identifiers(resources),
                apis.accessToken(resources, scopes, defaultSigningAlg()));
    }

    /**
     * A token request on an existing authorization (code redemption, refresh): the requested resources within those
     * {@code authorized} ({@link ApiDirectory#within}), and the token for them carrying {@code tokenScopes}; without
     * any, the token for the one API of {@code tokenScopes} (scopes of several APIs are {@code invalid_scope}).
     */
    public AccessTokenAudience forToken(List<String> requested, List<String> authorized, Set<String> grantedScopes,
                                        Set<String> tokenScopes, Set<String> clientScopes) {
        if (requested.isEmpty() && authorized.isEmpty() && ApiDirectory.builtInOnly(tokenScopes)) {
            return ownApi(tokenScopes);
        }
        ApiDirectory apis = directory();
        return apis.accessToken(apis.within(requested, authorized, grantedScopes, clientScopes), tokenScopes,
                defaultSigningAlg());
    }

    private AccessTokenAudience ownApi(Set<String> scopes) {
        return new AccessTokenAudience(List.of(ownIdentifier()), Scopes.format(scopes), null);
    }

    /** Portcullis's own API: {@code portcullis.access-token.audience}. */
    public String ownIdentifier() {
        return tokenSettings.accessTokenAudience();
    }

    /** The algorithm of an API without one of its own: {@code portcullis.access-token.signing-alg}. */
    public String defaultSigningAlg() {
        return tokenSettings.accessTokenSigningAlg();
    }
}
