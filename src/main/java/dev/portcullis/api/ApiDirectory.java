package dev.portcullis.api;

import dev.portcullis.client.Scopes;
import dev.portcullis.protocol.OAuthException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The APIs as one request sees them (Portcullis's own and the registered ones, read once per request), and the
 * RFC 8707 decisions made on them: which requested resources a client may have, which of them a token request or a
 * refresh may narrow to, and a token's audience, scope and signing algorithm. Pure: every refusal is
 * {@code invalid_target} with a description that names the problem.
 */
public final class ApiDirectory {

    /** Most resources one request may name; a token's {@code aud} is not a list of everything. */
    public static final int MAX_RESOURCES = 10;

    /** Scopes that describe no API's permission: they never decide a token's audience. */
    private static final Set<String> NOT_AN_API_PERMISSION = Set.of(Scopes.OPENID, Scopes.OFFLINE_ACCESS);

    private final RegisteredApi own;
    private final Map<String, RegisteredApi> byIdentifier = new LinkedHashMap<>();
    private final Map<String, RegisteredApi> byScope = new LinkedHashMap<>();

    /** {@code ownIdentifier} is {@code portcullis.access-token.audience}, the API of the built-in scopes. */
    public ApiDirectory(String ownIdentifier, Collection<RegisteredApi> registered) {
        this.own = new RegisteredApi(ownIdentifier, Set.copyOf(Scopes.ALL), null);
        byIdentifier.put(own.identifier(), own);
        own.scopes().forEach(s -> byScope.put(s, own));
        for (RegisteredApi api : registered) {
            byIdentifier.putIfAbsent(api.identifier(), api);
            api.scopes().forEach(s -> byScope.putIfAbsent(s, api));
        }
    }

    public RegisteredApi own() {
        return own;
    }

    public Optional<RegisteredApi> byIdentifier(String identifier) {
        return Optional.ofNullable(byIdentifier.get(identifier));
    }

    /** Every scope of every API, Portcullis's own first. */
    public Set<String> allScopes() {
        return byScope.keySet();
    }

    /**
     * RFC 8707 2: the resources a request names, each an absolute URI without fragment, registered, and one the
     * client may use (it holds at least one of the API's scopes). Distinct, in the order named.
     */
    public List<RegisteredApi> requested(List<String> resources, Set<String> clientScopes) {
        Set<String> distinct = new LinkedHashSet<>(resources);
        if (distinct.size() > MAX_RESOURCES) {
            throw OAuthException.invalidTarget("At most " + MAX_RESOURCES + " resources per request");
        }
        List<RegisteredApi> apis = new ArrayList<>();
        for (String resource : distinct) {
            if (!ApiRules.isResourceUri(resource)) {
                throw OAuthException.invalidTarget("resource must be an absolute URI without fragment");
            }
            RegisteredApi api = byIdentifier(resource).orElseThrow(() -> OAuthException.invalidTarget(
                    "Unknown resource " + resource));
            if (!api.usableWith(clientScopes)) {
                throw OAuthException.invalidTarget("The client may not use resource " + resource
                        + ": it holds none of its scopes");
            }
            apis.add(api);
        }
        return apis;
    }

    /**
     * The resources of a token request on an existing authorization (code redemption or refresh): those requested,
     * each one the authorization covers, or, when none is requested, all it covers. An authorization that named
     * resources covers exactly them; one that named none covers every API its granted scope reaches. A resource the
     * authorization named that is no longer registered, or no longer usable by the client, is refused.
     */
    public List<RegisteredApi> within(List<String> requested, List<String> authorized, Set<String> grantedScopes,
                                      Set<String> clientScopes) {
        if (requested.isEmpty()) {
            return requested(authorized, clientScopes);
        }
        List<RegisteredApi> apis = requested(requested, clientScopes);
        for (RegisteredApi api : apis) {
            boolean covered = authorized.isEmpty() ? api.usableWith(grantedScopes)
                    : authorized.contains(api.identifier());
            if (!covered) {
                throw OAuthException.invalidTarget("resource " + api.identifier() + " is not among the resources "
                        + "this grant was authorized for");
            }
        }
        return apis;
    }

    /**
     * An access token's audience, scope and algorithm. With {@code resources}: their identifiers, {@code scopes}
     * narrowed to their scopes (each must keep at least one, or the resource would be granted nothing), and their
     * common algorithm ({@code defaultAlg} stands for those without one of their own; two different ones are
     * refused, since one token has one signature). Without: the one API every scope but {@code openid} and
     * {@code offline_access} belongs to (Portcullis's own when there is none such), and {@code scopes} as they are;
     * scopes of several APIs, or one of no API, are refused ({@link #oneApiOf}).
     */
    public AccessTokenAudience accessToken(List<RegisteredApi> resources, Set<String> scopes, String defaultAlg) {
        if (resources.isEmpty()) {
            RegisteredApi only = oneApiOf(scopes);
            return only == own
                    ? new AccessTokenAudience(List.of(own.identifier()), Scopes.format(scopes), null)
                    : new AccessTokenAudience(List.of(only.identifier()), Scopes.format(scopes), only.signingAlg(),
                            only.accessTokenTyp());
        }
        Set<String> narrowed = new LinkedHashSet<>();
        Set<String> effectiveAlgs = new LinkedHashSet<>();
        Set<String> typs = new LinkedHashSet<>();
        String explicitAlg = null;
        List<String> audience = new ArrayList<>();
        for (RegisteredApi api : resources) {
            boolean any = false;
            for (String s : scopes) {
                if (api.scopes().contains(s)) {
                    narrowed.add(s);
                    any = true;
                }
            }
            if (!any) {
                throw OAuthException.invalidTarget("The requested scope includes none of the scopes of resource "
                        + api.identifier());
            }
            effectiveAlgs.add(api.signingAlg() == null ? defaultAlg : api.signingAlg());
            if (api.signingAlg() != null) {
                explicitAlg = api.signingAlg();
            }
            typs.add(api.accessTokenTyp());
            audience.add(api.identifier());
        }
        if (effectiveAlgs.size() > 1) {
            throw OAuthException.invalidTarget("The requested resources have their tokens signed with different "
                    + "algorithms (" + String.join(", ", effectiveAlgs) + "); request them in separate tokens");
        }
        if (typs.size() > 1) {
            // one header for all: an at+jwt API would get a token its backend should refuse, or the reverse
            throw OAuthException.invalidTarget("The requested resources have their tokens typed differently ("
                    + String.join(", ", typs) + "); request them in separate tokens");
        }
        Set<String> ordered = new LinkedHashSet<>();
        for (String s : scopes) {
            if (narrowed.contains(s)) {
                ordered.add(s);
            }
        }
        return new AccessTokenAudience(audience, Scopes.format(ordered), explicitAlg, typs.iterator().next());
    }

    /**
     * The default audience of a token requested without resources: the API that owns every scope that is an API
     * permission, Portcullis's own when only {@code openid} and {@code offline_access} are asked for. Scopes of two
     * APIs (two registered ones, or one and Portcullis's own) are {@code invalid_scope}: one API's {@code aud} with
     * another API's scopes would be a token its audience cannot honour and another API would refuse, so the client
     * names the API(s) with {@code resource} or asks for one API's scopes. A scope no API has (removed meanwhile) is
     * refused too rather than guessed.
     */
    private RegisteredApi oneApiOf(Set<String> scopes) {
        RegisteredApi only = null;
        for (String s : scopes) {
            if (NOT_AN_API_PERMISSION.contains(s)) {
                continue;
            }
            RegisteredApi owner = byScope.get(s);
            if (owner == null) {
                throw OAuthException.invalidScope("Scope " + printable(s) + " belongs to no API");
            }
            if (only != null && owner != only) {
                throw OAuthException.invalidScope("The scopes belong to more than one API (" + only.identifier()
                        + ", " + owner.identifier() + "); name the API the token is for with resource, or ask for "
                        + "the scopes of one API");
            }
            only = owner;
        }
        return only == null ? own : only;
    }

    /** Whether {@code scopes} are Portcullis's own alone, decided without the registered APIs. */
    public static boolean builtInOnly(Set<String> scopes) {
        for (String s : scopes) {
            if (!Scopes.isKnown(s) && !s.equals(Scopes.OFFLINE_ACCESS)) {
                return false;
            }
        }
        return true;
    }

    /** A scope as an error description may quote it: well-formed and short, else "?". */
    static String printable(String scope) {
        return Scopes.isWellFormed(scope) && scope.length() <= 64 ? scope : "?";
    }

    /**
     * RFC 8693's audience rule and the administrator's decision on it: when {@code audience} (a subject token's
     * {@code aud}) names registered APIs whose backend is {@code clientId} (so that the client received the token as
     * that API), the scopes of other APIs their {@code exchange_scopes} let it obtain (empty: nothing); empty when
     * it names none such.
     */
    public Optional<Set<String>> exchangeScopesOf(List<String> audience, String clientId) {
        Set<String> exchangeable = null;
        for (String identifier : audience) {
            RegisteredApi api = byIdentifier.get(identifier);
            if (api != null && api != own && api.isServedBy(clientId)) {
                if (exchangeable == null) {
                    exchangeable = new LinkedHashSet<>();
                }
                exchangeable.addAll(api.exchangeScopes());
            }
        }
        return Optional.ofNullable(exchangeable);
    }

    /** Identifiers of {@code apis}, in order, as the resources columns store them. */
    public static List<String> identifiers(List<RegisteredApi> apis) {
        List<String> ids = new ArrayList<>();
        apis.forEach(a -> ids.add(a.identifier()));
        return ids;
    }
}
