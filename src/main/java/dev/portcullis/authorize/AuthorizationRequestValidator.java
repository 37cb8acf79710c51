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
import static dev.portcullis.authorize.AuthorizationRequestChecks.requestUrisAreNotSupported;
import static dev.portcullis.authorize.AuthorizationRequestChecks.requestWasPushedWhenRequired;
import static dev.portcullis.authorize.AuthorizationRequestChecks.requestWasSignedWhenRequired;
import static dev.portcullis.authorize.AuthorizationRequestChecks.resourcesAreAllowed;
import static dev.portcullis.authorize.AuthorizationRequestChecks.responseTypeIsCode;
import static dev.portcullis.authorize.AuthorizationRequestChecks.scopeIsAllowed;

import dev.portcullis.api.ApiDirectory;
import dev.portcullis.api.ResourceIndicatorService;
import dev.portcullis.client.Client;
import dev.portcullis.client.ClientRepository;
import dev.portcullis.config.PushedAuthorizationSettings;
import dev.portcullis.config.RequestObjectSettings;
import dev.portcullis.protocol.ClaimsRequest;
import dev.portcullis.protocol.OAuthError;
import dev.portcullis.protocol.OAuthException;
import dev.portcullis.protocol.Pkce;
import dev.portcullis.protocol.ProtocolParameters;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * The one place an authorization request is validated, by the endpoint and again by the sign-in and consent pages
 * when they are POSTed (the pending request travels with the page and is never trusted without this), and by the
 * pushed authorization request endpoint (RFC 9126) before it stores a request. A redeemed pushed request travels
 * with the pages as {@link #PUSHED_REQUEST} and is validated again from its stored parameters. A request object
 * (RFC 9101, the {@code request} parameter) is verified ({@link RequestObjectVerifier}) and its parameters are the
 * request, whatever else the query says (6.3).
 */
@ApplicationScoped
public class AuthorizationRequestValidator {

    /**
     * The parameter by which the sign-in pages (and the endpoint, when they send the browser back to it) carry a
     * redeemed pushed request: the hash its row is stored under, never the request_uri.
     */
    public static final String PUSHED_REQUEST = "pushed_request";

    /**
     * What the rules of pushed requests (RFC 9126) need: whether a request is being pushed (then the requirement to
     * push is met), whether a client must push, and the parameters of a redeemed request by its hash and client.
     */
    record PushRules(boolean pushing, Predicate<Client> mustPush,
                     BiFunction<String, String, Optional<PushedRequestRepository.Pending>> pending) {

        /** For callers that know no pushed requests: nothing must be pushed, no pushed request is found. */
        static final PushRules NONE = new PushRules(false, c -> false, (hash, clientId) -> Optional.empty());
    }

    /**
     * What the rules of request objects (RFC 9101) need: whether the parameters at hand came from a verified object
     * (then the requirement to sign is met), whether a client must sign, and the verification of an object.
     */
    record ObjectRules(boolean signed, Predicate<Client> mustSign, BiFunction<Client, String, RequestObject> verify) {

        /** For callers that know no request objects: nothing must be signed, every object is refused. */
        static final ObjectRules NONE = new ObjectRules(false, c -> false, (client, object) -> {
            throw new OAuthException(OAuthError.INVALID_REQUEST_OBJECT, "A request object is accepted only at the authorization endpoint and /oauth/par");
        });

        ObjectRules signed(boolean fromObject) {
            return new ObjectRules(fromObject, mustSign, verify);
        }
    }

    @Inject
    ClientRepository clients;

    @Inject
    ResourceIndicatorService resourceIndicators;

    @Inject
    PushedRequestRepository pushedRequests;

    @Inject
    PushedAuthorizationSettings pushSettings;

    @Inject
    RequestObjectSettings objectSettings;

    @Inject
    RequestObjectVerifier requestObjects;

    /**
     * Validates a request that reached the authorization endpoint from the browser.
     *
     * @throws UnverifiedRequestException step 1 failed: show an error page
     * @throws RejectedAuthorizationRequest a later check failed: redirect the error to the client
     */
    public AuthorizationRequest validate(ProtocolParameters params) {
        return validate(params, false, true);
    }

    /**
     * Validates the pending request a sign-in page carries: as at the endpoint, except that a request object is
     * refused, since only the endpoint uses one up; a signed request reaches the pages by its stored row's hash.
     */
    public AuthorizationRequest validatePending(ProtocolParameters params) {
        return validate(params, false, false);
    }

    /**
     * Validates a request a client pushes (RFC 9126 2.1): the same checks, except that it meets the requirement to
     * push. The caller answers the exceptions in JSON.
     */
    public AuthorizationRequest validatePushed(ProtocolParameters params) {
        return validate(params, true, true);
    }

    private AuthorizationRequest validate(ProtocolParameters params, boolean pushing, boolean objectsAccepted) {
        PushRules rules = new PushRules(pushing,
                c -> pushSettings.required() || c.requirePushedAuthorizationRequests(), pushedRequests::pending);
        ObjectRules objects = new ObjectRules(false,
                c -> objectSettings.required() || c.requireSignedRequestObject(),
                objectsAccepted ? requestObjects::verify : ObjectRules.NONE.verify());
        try {
            return validate(params, clients::findCached, resourceIndicators::directory,
                    resourceIndicators.defaultSigningAlg(), rules, objects);
        } catch (UnverifiedRequestException | RejectedAuthorizationRequest refused) {
            // a refusal is decided on the row as it is now: the cached copy may predate a change made on another
            // instance, such as a redirect URI registered a moment ago
            return validate(params, clients::find, resourceIndicators::directory,
                    resourceIndicators.defaultSigningAlg(), rules, objects);
        }
    }

    static AuthorizationRequest validate(ProtocolParameters p, Function<String, Optional<Client>> lookup,
                                         Supplier<ApiDirectory> apis, String defaultSigningAlg) {
        return validate(p, lookup, apis, defaultSigningAlg, PushRules.NONE, ObjectRules.NONE);
    }

    static AuthorizationRequest validate(ProtocolParameters p, Function<String, Optional<Client>> lookup,
                                         Supplier<ApiDirectory> apis, String defaultSigningAlg, PushRules push,
                                         ObjectRules objects) {
        Optional<String> clientId = p.get("client_id");
        Client client = clientIsKnown(clientId, clientId.flatMap(lookup));
        Optional<String> pushed = push.pushing() ? Optional.empty() : p.get(PUSHED_REQUEST);
        if (pushed.isPresent()) {
            // a redeemed pushed request: its own parameters, whatever else the page's URL says
            PushedRequestRepository.Pending stored = push.pending().apply(pushed.get(), client.clientId())
                    .orElseThrow(() -> new UnverifiedRequestException("error.requestUriInvalid",
                            "invalid_request_uri: the pushed request is unknown, of another client or expired"));
            AuthorizationRequest r = validate(ProtocolParameters.fromForm(stored.parameters()),
                    id -> Optional.of(client), apis, defaultSigningAlg,
                    new PushRules(true, push.mustPush(), push.pending()), objects.signed(stored.signed()));
            return r.carriedAs(Map.of("client_id", client.clientId(), PUSHED_REQUEST, pushed.get()));
        }
        Optional<String> request = objects.signed() ? Optional.empty() : p.get("request");
        if (request.isPresent()) {
            RequestObject object;
            try {
                object = objects.verify().apply(client, request.get());
            } catch (OAuthException e) {
                // a pushed request's refusal is answered in JSON: no redirect URI is needed
                throw push.pushing() ? new RejectedAuthorizationRequest(null, ResponseMode.QUERY, null, e)
                        : refusedObject(client, p, e);
            }
            // RFC 9101 6.3: the object's parameters alone, whatever else the query says
            return validate(object.parameters(), id -> Optional.of(client), apis, defaultSigningAlg, push,
                    objects.signed(true)).fromObject(object);
        }
        openIdRequestNamesRedirectUri(p.get("scope"), p.get("redirect_uri"));
        String redirectUri = redirectUriIsRegistered(client, p.get("redirect_uri"));
        String state = p.get("state").orElse(null);
        ResponseMode mode;
        try {
            mode = ResponseMode.of(p.get("response_mode"));
        } catch (OAuthException e) {
            throw new RejectedAuthorizationRequest(redirectUri, ResponseMode.QUERY, state, e);
        }
        try {
            clientIsEnabled(client);
            clientMayUseCodes(client);
            requestUrisAreNotSupported(p.get("request_uri"));
            requestWasPushedWhenRequired(push.pushing() || !push.mustPush().test(client));
            requestWasSignedWhenRequired(objects.signed() || !objects.mustSign().test(client));
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
            return new AuthorizationRequest(client, redirectUri, p.has("redirect_uri"), mode, scopes, state,
                    p.get("nonce").orElse(null), p.get("code_challenge").orElse(null),
                    p.get("code_challenge_method").orElse(null), prompt, maxAge, p.get("login_hint").orElse(null),
                    p.get("ui_locales").orElse(null), acrValues, resources, claims,
                    AuthorizationRequest.known(p.asMap()), null);
        } catch (OAuthException e) {
            throw new RejectedAuthorizationRequest(redirectUri, mode, state, e);
        }
    }

    /**
     * A request object that could not be verified: its parameters are not trusted, so the error goes to the query's
     * redirect URI when it is registered for the client (or to the client's only one), else to the error page, with
     * the query's state and response mode.
     */
    private static RejectedAuthorizationRequest refusedObject(Client client, ProtocolParameters p, OAuthException e) {
        String redirectUri = redirectUriIsRegistered(client, p.get("redirect_uri"));
        ResponseMode mode;
        try {
            mode = ResponseMode.of(p.get("response_mode"));
        } catch (OAuthException malformed) {
            mode = ResponseMode.QUERY;
        }
        return new RejectedAuthorizationRequest(redirectUri, mode, p.get("state").orElse(null), e);
    }
}
