package dev.portcullis.authorize;

import static dev.portcullis.authorize.AuthorizationRequestChecks.clientIsEnabled;
import static dev.portcullis.authorize.AuthorizationRequestChecks.acrValuesAreWellFormed;
import static dev.portcullis.authorize.AuthorizationRequestChecks.clientIsKnown;
import static dev.portcullis.authorize.AuthorizationRequestChecks.clientMayUseCodes;
import static dev.portcullis.authorize.AuthorizationRequestChecks.maxAgeIsValid;
import static dev.portcullis.authorize.AuthorizationRequestChecks.nonceFits;
import static dev.portcullis.authorize.AuthorizationRequestChecks.openIdRequestNamesRedirectUri;
import static dev.portcullis.authorize.AuthorizationRequestChecks.promptIsValid;
import static dev.portcullis.authorize.AuthorizationRequestChecks.redirectUriIsRegistered;
import static dev.portcullis.authorize.AuthorizationRequestChecks.requestObjectsAreNotSupported;
import static dev.portcullis.authorize.AuthorizationRequestChecks.resourcesAreAllowed;
import static dev.portcullis.authorize.AuthorizationRequestChecks.responseTypeIsCode;
import static dev.portcullis.authorize.AuthorizationRequestChecks.scopeIsAllowed;

import dev.portcullis.api.ApiDirectory;
import dev.portcullis.api.ResourceIndicatorService;
import dev.portcullis.client.Client;
import dev.portcullis.client.ClientRepository;
import dev.portcullis.protocol.ClaimsRequest;
import dev.portcullis.protocol.OAuthException;
import dev.portcullis.protocol.Pkce;
import dev.portcullis.protocol.ProtocolParameters;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The one place an authorization request is validated, by the endpoint and again by the sign-in and consent pages
 * when they are POSTed (the pending request travels with the page and is never trusted without this).
 */
@ApplicationScoped
public class AuthorizationRequestValidator {

    @Inject
    ClientRepository clients;

    @Inject
    ResourceIndicatorService resourceIndicators;

    /**
     * @throws UnverifiedRequestException step 1 failed: show an error page
     * @throws RejectedAuthorizationRequest a later check failed: redirect the error to the client
     */
    public AuthorizationRequest validate(ProtocolParameters params) {
        try {
            return validate(params, clients::findCached, resourceIndicators::directory,
                    resourceIndicators.defaultSigningAlg());
        } catch (UnverifiedRequestException | RejectedAuthorizationRequest refused) {
            // a refusal is decided on the row as it is now: the cached copy may predate a change made on another
            // instance, such as a redirect URI registered a moment ago
            return validate(params, clients::find, resourceIndicators::directory,
                    resourceIndicators.defaultSigningAlg());
        }
    }

    static AuthorizationRequest validate(ProtocolParameters p, Function<String, Optional<Client>> lookup,
                                         Supplier<ApiDirectory> apis, String defaultSigningAlg) {
        Optional<String> clientId = p.get("client_id");
        Client client = clientIsKnown(clientId, clientId.flatMap(lookup));
        openIdRequestNamesRedirectUri(p.get("scope"), p.get("redirect_uri"));
        String redirectUri = redirectUriIsRegistered(client, p.get("redirect_uri"));
        String state = p.get("state").orElse(null);
        try {
            clientIsEnabled(client);
            clientMayUseCodes(client);
            requestObjectsAreNotSupported(p.get("request"), p.get("request_uri"));
            responseTypeIsCode(p.get("response_type"));
            Set<String> scopes = scopeIsAllowed(client, p.get("scope"));
            List<String> resources = resourcesAreAllowed(client, p.all("resource"), scopes, apis, defaultSigningAlg);
            Pkce.publicClientSendsChallenge(client.confidential(), p.get("code_challenge"));
            Pkce.challengeMethodIsS256(p.get("code_challenge"), p.get("code_challenge_method"));
            Pkce.challengeIsWellFormed(p.get("code_challenge"));
            Set<String> prompt = promptIsValid(p.get("prompt"));
            Long maxAge = maxAgeIsValid(p.get("max_age"));
            nonceFits(p.get("nonce"));
            List<String> acrValues = acrValuesAreWellFormed(p.get("acr_values"));
            ClaimsRequest claims = ClaimsRequest.parse(p.get("claims"));
            return new AuthorizationRequest(client, redirectUri, p.has("redirect_uri"), scopes, state,
                    p.get("nonce").orElse(null), p.get("code_challenge").orElse(null),
                    p.get("code_challenge_method").orElse(null), prompt, maxAge, p.get("login_hint").orElse(null),
                    p.get("ui_locales").orElse(null), acrValues, resources, claims,
                    AuthorizationRequest.known(p.asMap()));
        } catch (OAuthException e) {
            throw new RejectedAuthorizationRequest(redirectUri, state, e);
        }
    }
}
