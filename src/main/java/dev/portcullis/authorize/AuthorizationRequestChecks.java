package dev.portcullis.authorize;

import dev.portcullis.api.ApiDirectory;
import dev.portcullis.api.RegisteredApi;
import dev.portcullis.client.Client;
import dev.portcullis.client.GrantTypes;
import dev.portcullis.client.RedirectUriPolicy;
import dev.portcullis.client.Scopes;
import dev.portcullis.protocol.OAuthError;
import dev.portcullis.protocol.OAuthException;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;

/**
 * One small named check per validation rule of the authorization endpoint, in the order they are applied.
 * Step 1 checks throw {@link UnverifiedRequestException} (error page, never a redirect); the later ones throw
 * {@link OAuthException}, which {@link AuthorizationRequestValidator} sends back to the verified redirect URI.
 * Pure functions of their inputs, so each has its own unit test. The PKCE checks (2c to 2e) are
 * {@link dev.portcullis.protocol.Pkce}'s, shared with the token endpoint.
 */
public final class AuthorizationRequestChecks {

    /** Matches the authorization_codes.nonce column. */
    static final int MAX_NONCE = 512;
    static final long MAX_MAX_AGE = 31_536_000L;

    private AuthorizationRequestChecks() {
    }

    // ---- Step 1: where may errors go? ----

    /** 1a. client_id present and registered. */
    public static Client clientIsKnown(Optional<String> clientId, Optional<Client> client) {
        if (clientId.isEmpty()) {
            throw new UnverifiedRequestException("error.clientMissing", "The request has no client_id");
        }
        return client.orElseThrow(() -> new UnverifiedRequestException("error.clientUnknown",
                "No application is registered with this client_id"));
    }

    /** A disabled client is told so at its own redirect URI (RFC 6749 4.1.2.1), which was checked first. */
    public static void clientIsEnabled(Client client) {
        if (!client.enabled()) {
            throw new OAuthException(OAuthError.UNAUTHORIZED_CLIENT, "The client is disabled");
        }
    }

    /** RFC 6749 4.1.2.1: a client registered without authorization_code may not ask for a code. */
    public static void clientMayUseCodes(Client client) {
        if (!client.mayUse(GrantTypes.AUTHORIZATION_CODE)) {
            throw new OAuthException(OAuthError.UNAUTHORIZED_CLIENT,
                    "The client is not registered for the authorization code grant");
        }
    }

    /**
     * 1b. redirect_uri exactly one of the client's registered URIs (loopback any-port for public clients); it may be
     * omitted only when the client has exactly one. Returns the URI to redirect to.
     */
    public static String redirectUriIsRegistered(Client client, Optional<String> redirectUri) {
        if (redirectUri.isEmpty()) {
            if (client.redirectUris().size() == 1) {
                return client.redirectUris().get(0);
            }
            throw new UnverifiedRequestException("error.redirectMissing",
                    "The request has no redirect_uri and the application has several registered");
        }
        if (!RedirectUriPolicy.isRegistered(client, redirectUri.get())) {
            throw new UnverifiedRequestException("error.redirectUnregistered",
                    "The redirect_uri is not registered for this application");
        }
        return redirectUri.get();
    }

    /** 1c. OpenID requests always name their redirect_uri (OIDC Core 3.1.2.1), even with one registered. */
    public static void openIdRequestNamesRedirectUri(Optional<String> scope, Optional<String> redirectUri) {
        if (redirectUri.isEmpty() && Scopes.parse(scope.orElse("")).contains("openid")) {
            throw new UnverifiedRequestException("error.redirectMissing",
                    "OpenID requests must name their redirect_uri");
        }
    }

    // ---- Step 2: errors go back to the client ----

    /**
     * A request_uri other than a pushed request's (redeemed before validation) is not fetched (RFC 9101 5.2 leaves
     * it to the server): say so rather than ignore what it asks for.
     */
    public static void requestUrisAreNotSupported(Optional<String> requestUri) {
        if (requestUri.isPresent()) {
            throw new OAuthException(OAuthError.REQUEST_URI_NOT_SUPPORTED, "The request_uri parameter is not supported");
        }
    }

    /**
     * RFC 9101 10.5: a client that must sign its requests ({@code require_signed_request_object}, or
     * {@code portcullis.request-object.required} for all) sends them only as a request object, by value or pushed.
     */
    public static void requestWasSignedWhenRequired(boolean signedOrNotRequired) {
        if (!signedOrNotRequired) {
            throw OAuthException.invalidRequest("This client must send its authorization requests as signed request "
                    + "objects (RFC 9101)");
        }
    }

    /**
     * RFC 9126 5 and 6: a client that must push its requests ({@code require_pushed_authorization_requests}, or
     * {@code portcullis.par.required} for all) sends them to the authorization endpoint only by request_uri.
     */
    public static void requestWasPushedWhenRequired(boolean pushedOrNotRequired) {
        if (!pushedOrNotRequired) {
            throw OAuthException.invalidRequest("This client must push its authorization requests to the "
                    + "pushed_authorization_request_endpoint (RFC 9126)");
        }
    }

    /** 2a. response_type is exactly {@code code}. */
    public static void responseTypeIsCode(Optional<String> responseType) {
        if (responseType.isEmpty()) {
            throw OAuthException.invalidRequest("Missing parameter: response_type");
        }
        if (!responseType.get().equals("code")) {
            throw new OAuthException(OAuthError.UNSUPPORTED_RESPONSE_TYPE, "Only response_type=code is supported");
        }
    }

    /** 2b. scope present and every scope allowed for the client. Returns the distinct requested scopes. */
    public static Set<String> scopeIsAllowed(Client client, Optional<String> scope) {
        Set<String> requested = Scopes.parse(scope.orElse(""));
        if (requested.isEmpty()) {
            throw OAuthException.invalidScope("The scope parameter is missing or empty");
        }
        Set<String> allowed = client.scopeSet();
        for (String s : requested) {
            if (!allowed.contains(s)) {
                throw OAuthException.invalidScope("Scope not allowed for this client: "
                        + (Scopes.isWellFormed(s) && s.length() <= 40 ? s : "(malformed)"));
            }
        }
        return requested;
    }

    /**
     * 2c. RFC 8707 resources: each registered and one the client may use, each sharing a requested scope, all signed
     * alike; refused here with invalid_target rather than after sign-in at the token endpoint. Without a resource,
     * the scopes must be those of one API (invalid_scope otherwise, {@link ApiDirectory#accessToken}): the code's
     * tokens would otherwise have no audience that honours all of them. Returns the resources' identifiers,
     * distinct, in order. {@code apis} is only read when a resource or a scope of a registered API is named.
     */
    public static List<String> resourcesAreAllowed(Client client, List<String> resources, Set<String> scopes,
                                                   Supplier<ApiDirectory> apis, String defaultSigningAlg) {
        if (resources.isEmpty()) {
            if (!ApiDirectory.builtInOnly(scopes)) {
                apis.get().accessToken(List.of(), scopes, defaultSigningAlg);
            }
            return List.of();
        }
        ApiDirectory directory = apis.get();
        List<RegisteredApi> requested = directory.requested(resources, client.scopeSet());
        directory.accessToken(requested, scopes, defaultSigningAlg);
        return ApiDirectory.identifiers(requested);
    }

    // ---- Further parameters (OIDC Core 3.1.2.1) ----

    /** prompt: a space-separated subset of none, login, consent; none stands alone. */
    public static Set<String> promptIsValid(Optional<String> prompt) {
        Set<String> values = new LinkedHashSet<>(Scopes.parse(prompt.orElse("")));
        for (String v : values) {
            if (!v.equals("none") && !v.equals("login") && !v.equals("consent")) {
                throw OAuthException.invalidRequest("Unsupported prompt value");
            }
        }
        if (values.contains("none") && values.size() > 1) {
            throw OAuthException.invalidRequest("prompt=none cannot be combined with other values");
        }
        return values;
    }

    /** max_age: a non-negative whole number of seconds. */
    static final int MAX_ACR_VALUES = 512;

    public static Long maxAgeIsValid(Optional<String> maxAge) {
        if (maxAge.isEmpty()) {
            return null;
        }
        String v = maxAge.get();
        if (!v.matches("[0-9]{1,10}") || Long.parseLong(v) > MAX_MAX_AGE) {
            throw OAuthException.invalidRequest("max_age must be a non-negative number of seconds");
        }
        return Long.parseLong(v);
    }

    /** nonce: stored with the code, so bounded by its column. */
    public static void nonceFits(Optional<String> nonce) {
        if (nonce.isPresent() && nonce.get().length() > MAX_NONCE) {
            throw OAuthException.invalidRequest("nonce must be at most " + MAX_NONCE + " characters");
        }
    }

    /**
     * acr_values (OIDC Core 3.1.2.1): a space-separated preference list; values this server does not know are
     * ignored (the ID token's acr tells the client what it got), but the list is bounded like every parameter.
     */
    public static List<String> acrValuesAreWellFormed(Optional<String> acrValues) {
        if (acrValues.isEmpty()) {
            return List.of();
        }
        if (acrValues.get().length() > MAX_ACR_VALUES) {
            throw OAuthException.invalidRequest("acr_values must be at most " + MAX_ACR_VALUES + " characters");
        }
        return List.of(acrValues.get().trim().split(" +"));
    }
}
