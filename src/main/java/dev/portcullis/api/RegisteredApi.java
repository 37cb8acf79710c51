package dev.portcullis.api;

import java.util.Set;

/**
 * An audience a token can be issued for, as the token path sees it: a registered {@link Api}, or Portcullis's own
 * API (the built-in scopes, identified by {@code portcullis.access-token.audience}). {@code signingAlg} null means
 * {@code portcullis.access-token.signing-alg}; {@code backendClientId} is the client that may exchange the API's
 * tokens (RFC 8693), null for none; {@code exchangeScopes} the scopes of other APIs that client may obtain by
 * exchanging them, empty for none; {@code accessTokenTyp} the header typ of its tokens ({@code at+jwt} or
 * {@code JWT}).
 */
public record RegisteredApi(String identifier, Set<String> scopes, String signingAlg, String backendClientId,
                            Set<String> exchangeScopes, String accessTokenTyp) {

    public RegisteredApi {
        scopes = Set.copyOf(scopes);
        exchangeScopes = Set.copyOf(exchangeScopes);
        accessTokenTyp = accessTokenTyp == null ? ApiRules.AT_JWT : accessTokenTyp;
    }

    /** An API whose tokens are typed {@code at+jwt}. */
    public RegisteredApi(String identifier, Set<String> scopes, String signingAlg, String backendClientId,
                         Set<String> exchangeScopes) {
        this(identifier, scopes, signingAlg, backendClientId, exchangeScopes, null);
    }

    /** An API whose backend may exchange its tokens for nothing. */
    public RegisteredApi(String identifier, Set<String> scopes, String signingAlg, String backendClientId) {
        this(identifier, scopes, signingAlg, backendClientId, Set.of());
    }

    /** An API whose tokens nobody may exchange. */
    public RegisteredApi(String identifier, Set<String> scopes, String signingAlg) {
        this(identifier, scopes, signingAlg, null);
    }

    static RegisteredApi of(Api api) {
        return new RegisteredApi(api.identifier(), api.scopes(), api.accessTokenSigningAlg().orElse(null),
                api.backendClientId().orElse(null), api.exchangeScopes(), api.accessTokenTyp());
    }

    /** Whether {@code clientId} is the client this API's backend authenticates as. */
    public boolean isServedBy(String clientId) {
        return backendClientId != null && backendClientId.equals(clientId);
    }

    /** Whether a client holding {@code clientScopes} may ask for this API: it holds at least one of its scopes. */
    public boolean usableWith(Set<String> clientScopes) {
        for (String s : scopes) {
            if (clientScopes.contains(s)) {
                return true;
            }
        }
        return false;
    }
}
