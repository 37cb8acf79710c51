package dev.portcullis.token;

import com.nimbusds.jwt.SignedJWT;
import dev.portcullis.account.User;
import dev.portcullis.account.UserRepository;
import dev.portcullis.api.AccessTokenAudience;
import dev.portcullis.api.ApiDirectory;
import dev.portcullis.api.RegisteredApi;
import dev.portcullis.api.ResourceIndicatorService;
import dev.portcullis.client.Client;
import dev.portcullis.client.GrantTypes;
import dev.portcullis.client.Scopes;
import dev.portcullis.protocol.OAuthError;
import dev.portcullis.protocol.OAuthException;
import dev.portcullis.protocol.ProtocolParameters;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.text.ParseException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * {@code grant_type=urn:ietf:params:oauth:grant-type:token-exchange} (RFC 8693): the backend of a registered API,
 * holding a user's access token for that API, asks for a token for another API on the user's behalf. The checks of
 * {@link #handle}, in order, then one transaction records and mints the token ({@link TokenIssuer#exchange}).
 * <ul>
 * <li>Only a confidential client; {@code actor_token} is not supported; the only token type in and out is the
 * access token ({@code subject_token_type}, {@code requested_token_type}).</li>
 * <li>The subject token is an active access token of this issuer (signature, expiry, its grant not revoked) of an
 * existing, enabled user, and was issued for an API whose {@code backend_client_id} is the requesting client: a
 * token reaches the backend of its audience and nobody else may exchange it. Any of these failing is
 * {@code invalid_request}, as RFC 8693 2.2.2 requires for a subject token that is invalid or unacceptable.</li>
 * <li>The target ({@code resource}, repeatable, and/or {@code audience}: registered API identifiers, at least one)
 * is an API the client may use (it holds one of its scopes) and never Portcullis's own, else
 * {@code invalid_target}.</li>
 * <li>The scope never widens on its own ({@code invalid_scope}): it is within the {@code exchange_scopes} of the
 * subject token's API (an administrator's decision on what that API's backend may obtain), within what the user
 * authorized for the original grant, within the requesting client's scopes, and never a built-in (OpenID) scope;
 * then it is narrowed to the target's scopes. Each link of a chain is bounded by its own API's decision.</li>
 * </ul>
 * The new token keeps the user as {@code sub}, names the requesting client in {@code client_id} and in RFC 8693's
 * {@code act} (with the subject token's own {@code act} nested inside), and expires at the latest with the subject
 * token. There is no refresh token: the backend exchanges again with a fresh subject token.
 */
@ApplicationScoped
public class TokenExchangeGrant implements GrantHandler {

    /**
     * Most exchanges in one chain: each nests one more actor in {@code act}, and ending a link walks the chain below
     * it one link at a time ({@link TokenGrantRepository}).
     */
    static final int MAX_CHAIN = 10;

    /** RFC 8693 3: the token type of an OAuth access token, the one type this grant takes and issues. */
    public static final String ACCESS_TOKEN_TYPE = "urn:ietf:params:oauth:token-type:access_token";

    @Inject
    TokenIssuer issuer;

    @Inject
    AccessTokenVerifier verifier;

    @Inject
    TokenGrantRepository grants;

    @Inject
    ResourceIndicatorService resourceIndicators;

    @Inject
    UserRepository users;

    @Override
    public String grantType() {
        return GrantTypes.TOKEN_EXCHANGE;
    }

    /** What the subject token stands for once it has been found active. */
    record Subject(AccessTokenVerifier.VerifiedAccessToken token, TokenGrant grant, Map<String, Object> act) {
    }

    @Override
    public TokenResponse handle(Client client, ProtocolParameters p, String ip, String dpopJkt) {
        clientIsConfidential(client);
        noActorToken(p);
        tokenTypesAreAccessTokens(p);
        Subject subject = subjectTokenIsActive(p.require("subject_token"));
        ApiDirectory apis = resourceIndicators.directory();
        Set<String> exchangeable = subjectTokenIsForClient(apis, subject, client);
        userIsEnabled(subject);
        chainIsNotTooLong(subject.act());
        List<RegisteredApi> targets = targetsAreAllowed(apis, client, p.all("resource"), p.get("audience"));
        TokenGrant authorization = originalAuthorization(subject);
        Set<String> scopes = scopeIsWithinDecisionAndConsent(exchangeable, authorization, client, targets,
                p.get("scope"));
        AccessTokenAudience audience = apis.accessToken(targets, scopes, resourceIndicators.defaultSigningAlg());
        return issuer.exchange(client, subject.grant(), subject.token().jti(), authorization.grantId(), audience,
                ApiDirectory.identifiers(targets), subject.token().expiresAt(), actor(client, subject.act()), ip,
                dpopJkt);
    }

    /** RFC 8693 2.1: the client authenticates; a public client cannot, whatever its registration says. */
    static void clientIsConfidential(Client client) {
        if (!client.confidential()) {
            throw new OAuthException(OAuthError.UNAUTHORIZED_CLIENT,
                    "Token exchange is for confidential clients only");
        }
    }

    /** RFC 8693 2.1 makes {@code actor_token} optional; Portcullis names the acting client itself, in {@code act}. */
    static void noActorToken(ProtocolParameters p) {
        if (p.has("actor_token") || p.has("actor_token_type")) {
            throw OAuthException.invalidRequest("actor_token is not supported: the authenticated client is the "
                    + "actor");
        }
    }

    /**
     * RFC 8693 2.1: {@code subject_token_type} is required; only access tokens are taken, and only access tokens
     * issued ({@code requested_token_type}, when given).
     */
    static void tokenTypesAreAccessTokens(ProtocolParameters p) {
        if (!ACCESS_TOKEN_TYPE.equals(p.require("subject_token_type"))) {
            throw OAuthException.invalidRequest("subject_token_type must be " + ACCESS_TOKEN_TYPE);
        }
        Optional<String> requested = p.get("requested_token_type");
        if (requested.isPresent() && !ACCESS_TOKEN_TYPE.equals(requested.get())) {
            throw OAuthException.invalidRequest("requested_token_type must be " + ACCESS_TOKEN_TYPE
                    + ": only access tokens are issued");
        }
    }

    /**
     * The subject token is an access token this issuer signed and still honours (whatever API it is for), of a
     * user; its grant (what the user authorized) and its {@code act} claim come with it.
     */
    Subject subjectTokenIsActive(String token) {
        AccessTokenVerifier.VerifiedAccessToken verified = verifier.checkAnyAudience(token)
                .orElseThrow(() -> OAuthException.invalidRequest("subject_token is invalid, expired or revoked"));
        if (!verified.hasUser()) {
            throw OAuthException.invalidRequest("subject_token names no user: a client's own token cannot be "
                    + "exchanged");
        }
        TokenGrant grant = grants.accessTokenStatus(verified.jti()).map(TokenGrantRepository.AccessTokenStatus::grant)
                .orElseThrow(() -> OAuthException.invalidRequest("subject_token is invalid, expired or revoked"));
        try {
            return new Subject(verified, grant, SignedJWT.parse(token).getJWTClaimsSet().getJSONObjectClaim("act"));
        } catch (ParseException e) {
            // verified above, so this does not happen; refused all the same rather than minted without its act
            throw OAuthException.invalidRequest("subject_token is invalid, expired or revoked");
        }
    }

    /**
     * The audience rule: the subject token's {@code aud} names a registered API whose backend is the requesting
     * client. A token is sent to the API it is for; only that API's backend received it legitimately. Returns what
     * that API's {@code exchange_scopes} let its backend obtain.
     */
    static Set<String> subjectTokenIsForClient(ApiDirectory apis, Subject subject, Client client) {
        return apis.exchangeScopesOf(subject.token().audience(), client.clientId())
                .orElseThrow(() -> OAuthException.invalidRequest("subject_token was not issued for an API whose "
                        + "backend is this client (backend_client_id)"));
    }

    /** The user the token names still exists and is enabled, read fresh (disabling also revokes their tokens). */
    void userIsEnabled(Subject subject) {
        users.findById(subject.token().userId()).filter(User::enabled)
                .orElseThrow(() -> OAuthException.invalidRequest("The user of subject_token no longer exists or is "
                        + "disabled"));
    }

    /**
     * RFC 8693 2.1 and RFC 8707: the APIs the new token is for, named by {@code resource} (repeatable) and/or
     * {@code audience} (an API's identifier as its logical name), at least one; each registered, one the client
     * holds a scope of, and never Portcullis's own API: an exchanged token never reaches userinfo or /api/v1.
     */
    static List<RegisteredApi> targetsAreAllowed(ApiDirectory apis, Client client, List<String> resources,
                                                 Optional<String> audience) {
        List<String> named = new ArrayList<>(resources);
        if (audience.isPresent()) {
            if (apis.byIdentifier(audience.get()).isEmpty()) {
                throw OAuthException.invalidTarget("Unknown audience: it must be the identifier of a registered API");
            }
            named.add(audience.get());
        }
        if (named.isEmpty()) {
            throw OAuthException.invalidRequest("resource or audience is required: the API the new token is for");
        }
        List<RegisteredApi> targets = apis.requested(named, client.scopeSet());
        if (targets.contains(apis.own())) {
            throw OAuthException.invalidTarget("Portcullis's own API is never the target of a token exchange");
        }
        return targets;
    }

    /** The user's original authorization the subject token descends from (itself, unless it was exchanged). */
    TokenGrant originalAuthorization(Subject subject) {
        return grants.originalAuthorizationOf(subject.grant().grantId())
                .orElseThrow(() -> OAuthException.invalidRequest("subject_token is invalid, expired or revoked"));
    }

    /**
     * The new token's scopes before narrowing to the targets: those requested, or else every allowed scope of a
     * target. Allowed is what three parties agreed to: the administrator ({@code exchangeable}, the
     * {@code exchange_scopes} of the subject token's API), the user (the scope of their original
     * {@code authorization}) and the requesting client's registration; never a built-in scope, whatever they say.
     */
    static Set<String> scopeIsWithinDecisionAndConsent(Set<String> exchangeable, TokenGrant authorization,
                                                       Client client, List<RegisteredApi> targets,
                                                       Optional<String> requested) {
        Set<String> allowed = new LinkedHashSet<>(exchangeable);
        allowed.retainAll(Scopes.parse(authorization.scope()));
        allowed.retainAll(client.scopeSet());
        allowed.removeIf(TokenExchangeGrant::isBuiltIn);
        if (requested.isEmpty()) {
            Set<String> scopes = new LinkedHashSet<>();
            for (String s : allowed) {
                if (targets.stream().anyMatch(t -> t.scopes().contains(s))) {
                    scopes.add(s);
                }
            }
            if (scopes.isEmpty()) {
                throw OAuthException.invalidScope("Nothing of the target may be obtained: no scope is within the "
                        + "exchange_scopes of the subject token's API, what the user authorized and the client's "
                        + "scopes");
            }
            return scopes;
        }
        Set<String> scopes = Scopes.parse(requested.get());
        if (scopes.isEmpty()) {
            throw OAuthException.invalidScope("scope is empty");
        }
        for (String s : scopes) {
            String shown = Scopes.isWellFormed(s) && s.length() <= 40 ? s : "?";
            if (isBuiltIn(s)) {
                throw OAuthException.invalidScope("Scope " + shown + " is Portcullis's own; a token exchange never "
                        + "issues it");
            }
            if (!allowed.contains(s)) {
                throw OAuthException.invalidScope("Scope " + shown + " is outside the exchange_scopes of the subject "
                        + "token's API, what the user authorized, or the client's scopes");
            }
        }
        return scopes;
    }

    /** OpenID Connect's and Portcullis's own API's scopes: never in an exchanged token. */
    private static boolean isBuiltIn(String scope) {
        return Scopes.isKnown(scope) || Scopes.OFFLINE_ACCESS.equals(scope);
    }

    /** The subject token was exchanged fewer than {@link #MAX_CHAIN} times ({@code act} nests one actor each). */
    static void chainIsNotTooLong(Map<String, Object> act) {
        int links = 0;
        for (Object a = act; a instanceof Map<?, ?> m; a = m.get("act")) {
            links++;
        }
        if (links >= MAX_CHAIN) {
            throw OAuthException.invalidRequest("subject_token ends a chain of " + MAX_CHAIN + " exchanges, the most "
                    + "one chain may have");
        }
    }

    /** RFC 8693 4.1: the requesting client acts; an actor already named by the subject token acted before it. */
    static Map<String, Object> actor(Client client, Map<String, Object> previous) {
        Map<String, Object> act = new LinkedHashMap<>();
        act.put("sub", client.clientId());
        if (previous != null) {
            act.put("act", previous);
        }
        return act;
    }
}
