package dev.portcullis.client;

import static java.lang.Boolean.TRUE;
import static java.util.Objects.requireNonNullElse;

import dev.portcullis.admin.Refusal;
import dev.portcullis.audit.Actor;
import dev.portcullis.audit.AuditEvent;
import dev.portcullis.audit.AuditLog;
import dev.portcullis.config.ClientSettings;
import dev.portcullis.crypto.Secrets;
import dev.portcullis.outbound.OutboundFailure;
import dev.portcullis.outbound.OutboundHttp;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Event;
import jakarta.inject.Inject;
import jakarta.transaction.Transactional;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/** Registration and administration of client applications. */
@ApplicationScoped
@Transactional
public class ClientService {

    public static final int MAX_NAME = 200;
    public static final int MAX_REDIRECT_URIS = 20;

    @Inject
    ClientRepository clients;

    @Inject
    ClientSettings clientSettings;

    @Inject
    OutboundHttp outbound;

    @Inject
    Clock clock;

    @Inject
    Event<ClientAccessEnded> accessEnded;

    @Inject
    AuditLog audit;

    @Inject
    RegisteredApiScopes apiScopes;

    /** The fields a {@link Registration} and a {@link ClientPatch} name alike, set by either's builder {@code B}. */
    public abstract static class ClientFieldsBuilder<B extends ClientFieldsBuilder<B>> {
        String name;
        List<String> redirectUris;
        List<String> postLogoutRedirectUris;
        String scopes;
        List<String> grantTypes;
        String authMethod;
        String jwks;
        String jwksUri;
        LogoutNotifications.Change logout = LogoutNotifications.Change.NONE;
        Boolean confidential;
        Boolean skipConsent;
        Boolean requireMfa;
        Boolean requirePushedRequests;
        Boolean requireSignedRequests;
        Boolean dpopBoundAccessTokens;
        Boolean idTokenClaims;

        ClientFieldsBuilder() {
        }

        /** At registration, null: not named (a named method then decides the type, else confidential). */
        public B confidential(Boolean confidential) {
            this.confidential = confidential;
            return self();
        }

        public B skipConsent(Boolean skipConsent) {
            this.skipConsent = skipConsent;
            return self();
        }

        public B requireMfa(Boolean requireMfa) {
            this.requireMfa = requireMfa;
            return self();
        }

        public B requirePushedRequests(Boolean requirePushedRequests) {
            this.requirePushedRequests = requirePushedRequests;
            return self();
        }

        /** Its authorization requests must come as signed request objects (RFC 9101 10.5). */
        public B requireSignedRequests(Boolean requireSignedRequests) {
            this.requireSignedRequests = requireSignedRequests;
            return self();
        }

        /** Every token request must carry a DPoP proof (at registration, by default not: DPoP when one is sent). */
        public B dpopBoundAccessTokens(Boolean dpopBoundAccessTokens) {
            this.dpopBoundAccessTokens = dpopBoundAccessTokens;
            return self();
        }

        /** Its ID tokens carry the scopes' claims too (at registration, by default not: userinfo only). */
        public B idTokenClaims(Boolean idTokenClaims) {
            this.idTokenClaims = idTokenClaims;
            return self();
        }

        abstract B self();

        public B name(String name) {
            this.name = name;
            return self();
        }

        public B redirectUris(List<String> redirectUris) {
            this.redirectUris = redirectUris;
            return self();
        }

        /** In a patch, an empty list removes them. */
        public B postLogoutRedirectUris(List<String> postLogoutRedirectUris) {
            this.postLogoutRedirectUris = postLogoutRedirectUris;
            return self();
        }

        public B scopes(String scopes) {
            this.scopes = scopes;
            return self();
        }

        /** The logout notification fields named; at registration, those not named are not registered. */
        public B logout(LogoutNotifications.Change logout) {
            this.logout = logout;
            return self();
        }

        /** At registration, none named means {@link GrantTypes#DEFAULT}. */
        public B grantTypes(List<String> grantTypes) {
            this.grantTypes = grantTypes;
            return self();
        }

        /** {@code token_endpoint_auth_method}; at registration, none named means not chosen. */
        public B authMethod(String authMethod) {
            this.authMethod = authMethod;
            return self();
        }

        /** A private_key_jwt client's inline JWK set; in a patch, an empty string removes it. */
        public B jwks(String jwks) {
            this.jwks = jwks;
            return self();
        }

        /** A private_key_jwt client's key set URL; in a patch, an empty string removes it. */
        public B jwksUri(String jwksUri) {
            this.jwksUri = jwksUri;
            return self();
        }
    }

    /**
     * A merge patch of a client (RFC 7396) as the services read it: a null field is left as it is (JSON null for
     * {@code postLogoutRedirectUris} arrives as an empty list, removing them). Built by {@link #patch()}, naming only
     * the fields that change.
     */
    public record ClientPatch(String name, List<String> redirectUris, List<String> postLogoutRedirectUris,
                              String scopes, Boolean skipConsent, Boolean confidential, Boolean enabled,
                              Boolean requireMfa, Boolean requirePushedRequests, List<String> grantTypes,
                              String authMethod, String jwks, String jwksUri, LogoutNotifications.Change logout,
                              Boolean idTokenClaims, Boolean requireSignedRequests,
                              Boolean dpopBoundAccessTokens) {

        /** A patch that changes nothing until a field is named. */
        public static Builder patch() {
            return new Builder();
        }

        /** Names the fields of a {@link ClientPatch}; a field not named (or named null) is left as it is. */
        public static final class Builder extends ClientFieldsBuilder<Builder> {
            private Boolean enabled;

            private Builder() {
            }

            @Override
            Builder self() {
                return this;
            }

            public Builder enabled(Boolean enabled) {
                this.enabled = enabled;
                return this;
            }

            public ClientPatch build() {
                return new ClientPatch(name, redirectUris, postLogoutRedirectUris, scopes, skipConsent, confidential,
                        enabled, requireMfa, requirePushedRequests, grantTypes, authMethod, jwks, jwksUri, logout,
                        idTokenClaims, requireSignedRequests, dpopBoundAccessTokens);
            }
        }
    }

    /** A changed client and, when it was just made confidential, its first secret in clear: shown once. */
    public record Updated(Client client, Optional<String> secret) {
    }

    private static Refusal builtIn(String clientId, Refusal.BuiltInChange change) {
        return new Refusal(new Refusal.BuiltInClient(clientId, change));
    }

    /** What the admin asked for; validated by {@link #register}. Built by {@link #builder()}, naming each field. */
    public record Registration(String name, List<String> redirectUris, List<String> postLogoutRedirectUris,
                               boolean confidential, String scopes, boolean skipConsent, boolean requireMfa,
                               boolean requirePushedRequests, List<String> grantTypes, String authMethod, String jwks,
                               String jwksUri, LogoutNotifications.Change logout, boolean idTokenClaims,
                               boolean requireSignedRequests, boolean dpopBoundAccessTokens) {

        /**
         * A confidential client without URIs, consent or a required second factor until a field is named; a
         * {@code token_endpoint_auth_method} named without {@code confidential} decides the type.
         */
        public static Builder builder() {
            return new Builder();
        }

        /** Names the fields of a {@link Registration}. */
        public static final class Builder extends ClientFieldsBuilder<Builder> {

            private Builder() {
                redirectUris = List.of();
                postLogoutRedirectUris = List.of();
            }

            @Override
            Builder self() {
                return this;
            }

            public Registration build() {
                boolean isConfidential = confidential != null ? confidential
                        : !ClientAuthMethods.NONE.equals(authMethod);
                return new Registration(name, redirectUris, postLogoutRedirectUris, isConfidential, scopes,
                        TRUE.equals(skipConsent), TRUE.equals(requireMfa), TRUE.equals(requirePushedRequests),
                        grantTypes == null ? GrantTypes.DEFAULT : grantTypes, authMethod, jwks, jwksUri, logout,
                        TRUE.equals(idTokenClaims), TRUE.equals(requireSignedRequests),
                        TRUE.equals(dpopBoundAccessTokens));
            }
        }
    }

    /** A new client and, for a confidential one, its secret in clear: shown once, never stored. */
    public record Registered(Client client, Optional<String> secret) {
    }

    /**
     * Registers a client as {@code actor}'s change, audited as {@code CLIENT_CREATED}.
     *
     * @throws Refusal when a value is not valid (nothing registered)
     */
    public Registered register(Registration r, Actor actor) {
        Registered registered = register(Secrets.newId(), r);
        audit.change(AuditEvent.Type.CLIENT_CREATED, actor, registered.client().clientId(), null,
                (registered.client().confidential() ? "confidential" : "public") + ", "
                        + registered.client().authMethod() + (actor.where() == null ? "" : ", " + actor.where()));
        return registered;
    }

    /**
     * Registers a client under a fixed, well-known id at start-up (the own pages' and demo mode's clients), not
     * audited; otherwise exactly as {@link #register(Registration, Actor)}. A duplicate id fails at commit.
     */
    public Registered registerWithId(String clientId, Registration r) {
        return register(clientId, r);
    }

    /**
     * Registers a client under the id a configuration document names, with the secret it references (null: a new
     * random one), audited as {@code CLIENT_CREATED}; otherwise exactly as {@link #register(Registration, Actor)}.
     */
    public Registered registerDeclared(String clientId, Registration r, String secret, Actor actor) {
        Registered registered = register(clientId, r);
        if (secret != null && registered.secret().isPresent()) {
            registered.client().replaceSecretHash(Secrets.hash(secret), clock.instant());
            registered = new Registered(registered.client(), Optional.empty());
        }
        audit.change(AuditEvent.Type.CLIENT_CREATED, actor, clientId, null,
                (registered.client().confidential() ? "confidential" : "public") + ", "
                        + registered.client().authMethod() + ", declared");
        return registered;
    }

    /**
     * Replaces a confidential client's secret with one a configuration document references (the old one stops at
     * once), audited as {@code CLIENT_SECRET_ROTATED}. False when there is no such client.
     *
     * @throws Refusal for a client without a secret (public, private_key_jwt)
     */
    public boolean replaceSecret(String clientId, String secret, Actor actor) {
        Client client = clients.findForChange(clientId).orElse(null);
        if (client == null) {
            return false;
        }
        if (!client.confidential() || ClientAuthMethods.PRIVATE_KEY_JWT.equals(client.authMethod())) {
            throw new Refusal(new Refusal.NoSecret(clientId));
        }
        client.replaceSecretHash(Secrets.hash(secret), clock.instant());
        audit.change(AuditEvent.Type.CLIENT_SECRET_ROTATED, actor, clientId, null,
                "declared secret, previous secret ended at once");
        return true;
    }

    private Registered register(String clientId, Registration r) {
        String name = checkName(r.name());
        List<String> redirectUris = checkUris("redirect_uris", r.redirectUris(), r.confidential(), true);
        List<String> logoutUris = checkUris("post_logout_redirect_uris", r.postLogoutRedirectUris(), r.confidential(), false);
        String scopes = checkScopes(r.scopes());
        String grantTypes = GrantTypes.check(r.grantTypes(), r.confidential());
        String method = r.authMethod() == null ? null : ClientAuthMethods.check(r.authMethod(), r.confidential());
        String jwks = checkedJwks(method, r.jwks());
        String jwksUri = checkedJwksUri(method, r.jwksUri());
        checkKeysPresent(method, jwks, jwksUri);
        LogoutNotifications notifications = LogoutNotifications.NONE.with(r.logout());
        notifications.check(clientSettings.redirectAllowHttp());
        checkOutbound("jwks_uri", jwksUri, null);
        checkOutbound("backchannel_logout_uri", notifications.backchannelUri(), null);
        Client client = new Client(clientId, name, r.confidential(), redirectUris, logoutUris, scopes,
                r.skipConsent(), clock.instant());
        client.changeLogoutNotifications(notifications, clock.instant());
        client.requireMfa(r.requireMfa(), clock.instant());
        client.requirePushedAuthorizationRequests(r.requirePushedRequests(), clock.instant());
        client.requireSignedRequestObject(r.requireSignedRequests(), clock.instant());
        client.dpopBoundAccessTokens(r.dpopBoundAccessTokens(), clock.instant());
        client.idTokenClaims(r.idTokenClaims(), clock.instant());
        client.changeGrantTypes(grantTypes, clock.instant());
        client.changeAuthentication(method, jwks, jwksUri, clock.instant());
        Optional<String> secret = Optional.empty();
        if (r.confidential() && !ClientAuthMethods.PRIVATE_KEY_JWT.equals(method)) {
            String s = Secrets.newSecret();
            client.replaceSecretHash(Secrets.hash(s), clock.instant());
            secret = Optional.of(s);
        }
        clients.add(client);
        return new Registered(client, secret);
    }

    /**
     * Applies a merge patch and audits it as {@code actor}'s change. Every value is validated as at registration,
     * the redirect URIs against the client's type after the patch. A type change happens only when the patch names
     * {@code confidential} with the other value: made confidential, the client gets a secret, returned once; made
     * public, its secret is deleted and every token family issued to it is revoked, as is done when it is disabled
     * ({@link ClientAccessEnded}). Empty when there is no such client.
     */
    public Optional<Updated> update(String clientId, ClientPatch p, Actor actor) {
        Client c = clients.findForChange(clientId).orElse(null);
        if (c == null) {
            return Optional.empty();
        }
        boolean confidential = p.confidential() != null ? p.confidential()
                : p.authMethod() != null ? !ClientAuthMethods.NONE.equals(p.authMethod()) : c.confidential();
        if (BuiltInClients.isBuiltIn(clientId)
                && (Boolean.FALSE.equals(p.enabled()) || confidential)) {
            throw builtIn(clientId, Boolean.FALSE.equals(p.enabled()) ? Refusal.BuiltInChange.DISABLE
                    : Refusal.BuiltInChange.MAKE_CONFIDENTIAL);
        }
        // the own pages sign in with authorization codes: other grant types could lock administrators out
        if (BuiltInClients.isBuiltIn(clientId) && p.grantTypes() != null
                && !GrantTypes.format(p.grantTypes()).equals(GrantTypes.format(GrantTypes.DEFAULT))) {
            throw builtIn(clientId, Refusal.BuiltInChange.CHANGE_GRANT_TYPES);
        }
        Instant now = clock.instant();
        Map<String, Object> before = ClientSchema.SCHEMA.audited(c);
        List<String> lifecycle = new ArrayList<>();
        String name = p.name() == null ? c.name() : checkName(p.name());
        List<String> redirectUris = checkUris("redirect_uris",
                p.redirectUris() == null ? c.redirectUris() : p.redirectUris(), confidential, true);
        List<String> logoutUris = checkUris("post_logout_redirect_uris",
                p.postLogoutRedirectUris() == null ? c.postLogoutRedirectUris() : p.postLogoutRedirectUris(),
                confidential, false);
        String scopes = p.scopes() == null ? c.scopes() : checkScopes(p.scopes());
        boolean skipConsent = p.skipConsent() == null ? c.skipConsent() : p.skipConsent();
        // checked against the type after the patch, so making a client_credentials client public is refused too
        String grantTypes = GrantTypes.check(p.grantTypes() == null ? List.copyOf(c.grantTypes()) : p.grantTypes(),
                confidential);
        // a type change without a method named leaves the method unchosen, as for a client registered without one
        String storedMethod = c.authMethodChosen() ? c.authMethod() : null;
        String method = p.authMethod() != null ? ClientAuthMethods.check(p.authMethod(), confidential)
                : confidential == c.confidential() ? storedMethod : null;
        boolean keys = ClientAuthMethods.PRIVATE_KEY_JWT.equals(method);
        String jwks = checkedJwks(method, p.jwks() == null ? (keys ? c.jwks() : null) : emptyAsNull(p.jwks()));
        String jwksUri = checkedJwksUri(method,
                p.jwksUri() == null ? (keys ? c.jwksUri() : null) : emptyAsNull(p.jwksUri()));
        checkKeysPresent(method, jwks, jwksUri);
        boolean hadSecret = c.confidential() && !ClientAuthMethods.PRIVATE_KEY_JWT.equals(c.authMethod());
        boolean needsSecret = confidential && !keys;
        LogoutNotifications notifications = c.logoutNotifications().with(p.logout());
        notifications.check(clientSettings.redirectAllowHttp());
        checkOutbound("jwks_uri", jwksUri, c.jwksUri());
        checkOutbound("backchannel_logout_uri", notifications.backchannelUri(),
                c.logoutNotifications().backchannelUri());
        c.changeSettings(name, redirectUris, logoutUris, scopes, skipConsent, now);
        c.changeGrantTypes(grantTypes, now);
        c.changeLogoutNotifications(notifications, now);
        c.requireMfa(requireNonNullElse(p.requireMfa(), c.requireMfa()), now);
        c.requirePushedAuthorizationRequests(
                requireNonNullElse(p.requirePushedRequests(), c.requirePushedAuthorizationRequests()), now);
        c.requireSignedRequestObject(
                requireNonNullElse(p.requireSignedRequests(), c.requireSignedRequestObject()), now);
        c.dpopBoundAccessTokens(requireNonNullElse(p.dpopBoundAccessTokens(), c.dpopBoundAccessTokens()), now);
        c.idTokenClaims(requireNonNullElse(p.idTokenClaims(), c.idTokenClaims()), now);
        boolean tokensEnd = false;
        Optional<String> secret = Optional.empty();
        if (needsSecret && !hadSecret) {
            secret = Optional.of(Secrets.newSecret());
        }
        if (confidential != c.confidential()) {
            c.changeConfidential(confidential, secret.map(Secrets::hash).orElse(null), now);
            lifecycle.add(confidential ? "made confidential" : "made public (secret deleted)");
            tokensEnd = !confidential;
        }
        c.changeAuthentication(method, jwks, jwksUri, now);
        if (secret.isPresent()) {
            c.replaceSecretHash(Secrets.hash(secret.get()), now);
            lifecycle.add("new secret");
        } else if (hadSecret && keys) {
            lifecycle.add("secret deleted");
        }
        if (p.enabled() != null && p.enabled() != c.enabled()) {
            c.changeEnabled(p.enabled(), now);
            lifecycle.add("enabled=" + p.enabled());
            tokensEnd |= !p.enabled();
        }
        if (tokensEnd) {
            ClientAccessEnded ended = new ClientAccessEnded(clientId);
            accessEnded.fire(ended);
            lifecycle.add(ended.consequences());
        }
        List<String> changed = ClientSchema.SCHEMA.changes(before, c);
        changed.addAll(lifecycle);
        audit.change(AuditEvent.Type.CLIENT_UPDATED, actor, clientId, null,
                changed.isEmpty() ? "no change" : String.join(", ", changed));
        return Optional.of(new Updated(c, secret));
    }

    /** The longest a rotated-out secret may keep working: 30 days. */
    public static final Duration MAX_PREVIOUS_SECRET_VALIDITY = Duration.ofDays(30);

    /**
     * Issues a new secret for a confidential client as {@code actor}'s change, audited as
     * {@code CLIENT_SECRET_ROTATED} with the overlap. Without {@code previousValidFor} the old secret stops working
     * at once; with it, the old one keeps working that long (1 s to 30 days), so the client's deployments can move to
     * the new one one by one. Only one previous secret is kept: a rotation during an overlap ends the older one.
     * Empty when there is no such client.
     *
     * @throws Refusal for a public client or a private_key_jwt client (neither has a secret), or an overlap
     *                       out of range
     */
    public Optional<String> rotateSecret(String clientId, Duration previousValidFor, Actor actor) {
        if (previousValidFor != null && (previousValidFor.compareTo(Duration.ofSeconds(1)) < 0
                || previousValidFor.compareTo(MAX_PREVIOUS_SECRET_VALIDITY) > 0)) {
            throw Refusal.invalid("previous_secret_valid_for", "must be 1 to "
                    + MAX_PREVIOUS_SECRET_VALIDITY.toSeconds() + " seconds");
        }
        Client client = clients.findForChange(clientId).orElse(null);
        if (client == null) {
            return Optional.empty();
        }
        if (!client.confidential()) {
            throw new Refusal(new Refusal.NoSecret(clientId));
        }
        if (ClientAuthMethods.PRIVATE_KEY_JWT.equals(client.authMethod())) {
            throw Refusal.invalid("token_endpoint_auth_method", "a private_key_jwt client authenticates with "
                    + "its keys and has no secret to rotate");
        }
        String s = Secrets.newSecret();
        Instant now = clock.instant();
        String overlap;
        if (previousValidFor == null) {
            client.replaceSecretHash(Secrets.hash(s), now);
            overlap = "previous secret ended at once";
        } else {
            Instant until = now.plus(previousValidFor);
            client.replaceSecretHash(Secrets.hash(s), until, now);
            overlap = "previous secret valid for " + previousValidFor.toSeconds() + " s, until " + until;
        }
        audit.change(AuditEvent.Type.CLIENT_SECRET_ROTATED, actor, clientId, null,
                overlap + (actor.where() == null ? "" : ", " + actor.where()));
        return Optional.of(s);
    }

    /**
     * Deletes the client as {@code actor}'s change, audited as {@code CLIENT_DELETED}; its codes, grants and tokens go
     * with it (ON DELETE CASCADE), so they stop working. False when there is no such client.
     *
     * @throws Refusal for a built-in client
     */
    public boolean delete(String clientId, Actor actor) {
        boolean deleted = deleteSeeded(clientId);
        if (deleted) {
            audit.change(AuditEvent.Type.CLIENT_DELETED, actor, clientId, null, actor.where());
        }
        return deleted;
    }

    /**
     * Deletes a client that start-up code registered (demo mode's, once demo mode is off), not audited, as its
     * registration was not; a built-in client is refused.
     */
    public boolean deleteSeeded(String clientId) {
        if (BuiltInClients.isBuiltIn(clientId)) {
            throw builtIn(clientId, Refusal.BuiltInChange.DELETE);
        }
        return remove(clientId);
    }

    /** Deletes a built-in client so that the start-up can register it again with the issuer's current URIs. */
    public boolean deleteBuiltInForReRegistration(String clientId) {
        return BuiltInClients.isBuiltIn(clientId) && remove(clientId);
    }

    private boolean remove(String clientId) {
        Optional<Client> client = clients.findForChange(clientId);
        client.ifPresent(clients::remove);
        return client.isPresent();
    }

    public Optional<Client> find(String clientId) {
        return clients.find(clientId);
    }

    /** How many clients there are. */
    public long count() {
        return clients.count();
    }

    public List<Client> list(int offset, int limit) {
        return clients.list(offset, limit);
    }

    private static String emptyAsNull(String s) {
        return s.isEmpty() ? null : s;
    }

    private static String checkedJwks(String method, String jwks) {
        if (jwks == null) {
            return null;
        }
        if (!ClientAuthMethods.PRIVATE_KEY_JWT.equals(method)) {
            throw Refusal.invalid("jwks", "only for a private_key_jwt client");
        }
        return ClientJwksRules.checkJwks(jwks);
    }

    private static String checkedJwksUri(String method, String jwksUri) {
        if (jwksUri == null) {
            return null;
        }
        if (!ClientAuthMethods.PRIVATE_KEY_JWT.equals(method)) {
            throw Refusal.invalid("jwks_uri", "only for a private_key_jwt client");
        }
        return ClientJwksRules.checkJwksUri(jwksUri);
    }

    /**
     * A URL Portcullis itself will request, as registered or changed: refused when no request would be made to it
     * ({@link OutboundHttp#checkDestination}). A stored value is not checked again, so a client whose URL the
     * policy refuses since a change of {@code portcullis.outbound.allowed-networks} can still be changed otherwise,
     * or disabled; each request to that URL is refused.
     */
    private void checkOutbound(String field, String uri, String stored) {
        if (uri == null || uri.equals(stored)) {
            return;
        }
        try {
            outbound.checkDestination(uri);
        } catch (OutboundFailure e) {
            throw Refusal.invalid(field, e.getMessage());
        }
    }

    /** A private_key_jwt client has its keys in exactly one place. */
    private static void checkKeysPresent(String method, String jwks, String jwksUri) {
        if (ClientAuthMethods.PRIVATE_KEY_JWT.equals(method) && (jwks == null) == (jwksUri == null)) {
            throw Refusal.invalid(jwks == null ? "jwks" : "jwks_uri",
                    "a private_key_jwt client registers either jwks or jwks_uri, exactly one");
        }
    }

    private static String checkName(String raw) {
        String name = raw.strip();
        if (name.isEmpty() || name.length() > MAX_NAME) {
            throw Refusal.invalid("client_name", "must be 1 to " + MAX_NAME + " characters");
        }
        return name;
    }

    private List<String> checkUris(String field, List<String> uris, boolean confidential, boolean required) {
        if (uris == null || uris.isEmpty()) {
            if (required) {
                throw Refusal.invalid(field, "at least one URI is required");
            }
            return List.of();
        }
        if (uris.size() > MAX_REDIRECT_URIS) {
            throw Refusal.invalid(field, "at most " + MAX_REDIRECT_URIS + " URIs");
        }
        Set<String> distinct = new LinkedHashSet<>();
        for (String uri : uris) {
            RedirectUriPolicy.check(field, uri, confidential, clientSettings.redirectAllowHttp());
            if (!distinct.add(uri)) {
                throw Refusal.invalid(field, "lists the same URI twice");
            }
        }
        return List.copyOf(distinct);
    }

    private String checkScopes(String raw) {
        if (raw == null || raw.isBlank()) {
            throw Refusal.invalid("scopes", "at least one scope is required");
        }
        Set<String> scopes = Scopes.parse(raw);
        Set<String> ofApis = null;
        for (String s : scopes) {
            if (Scopes.isKnown(s)) {
                continue;
            }
            if (ofApis == null) {
                ofApis = apiScopes.all();
            }
            if (!ofApis.contains(s)) {
                throw Refusal.invalid("scopes", "unknown scope '" + (Scopes.isWellFormed(s) && s.length() <= 40
                        ? s : "?") + "'; known scopes are " + String.join(" ", Scopes.ALL)
                        + " and those of the registered APIs (GET /admin/apis)");
            }
        }
        return Scopes.format(scopes);
    }
}
