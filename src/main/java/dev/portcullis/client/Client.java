package dev.portcullis.client;

import dev.portcullis.crypto.Secrets;
import dev.portcullis.persistence.Jpa;
import jakarta.persistence.Cacheable;
import jakarta.persistence.Column;
import jakarta.persistence.Convert;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.NamedQuery;
import jakarta.persistence.QueryHint;
import jakarta.persistence.Table;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import org.eclipse.persistence.annotations.Cache;

/**
 * A registered client application. Confidential clients authenticate with a secret that is stored only as its
 * hash; public clients ({@code confidential = false}) have no secret and must use PKCE.
 */
@Entity
@Table(name = "clients")
@Cacheable
@Cache(expiry = Jpa.CACHED_READ_MILLIS)
@NamedQuery(name = Client.READ_BY_ID, query = "SELECT c FROM Client c WHERE c.clientId = :id", hints = {
    @QueryHint(name = Jpa.READ_ONLY, value = "true"),
    @QueryHint(name = Jpa.CACHE_USAGE, value = Jpa.DO_NOT_CHECK_CACHE),
    @QueryHint(name = Jpa.REFRESH, value = "true")})
@NamedQuery(name = Client.CACHED_BY_ID, query = "SELECT c FROM Client c WHERE c.clientId = :id", hints = {
    @QueryHint(name = Jpa.READ_ONLY, value = "true"),
    @QueryHint(name = Jpa.CACHE_USAGE, value = Jpa.CHECK_CACHE_BY_PRIMARY_KEY)})
public class Client {

    /** The primary-key reads of {@link ClientRepository#find} and {@link ClientRepository#findCached}. */
    static final String READ_BY_ID = "Client.readById";
    static final String CACHED_BY_ID = "Client.cachedById";

    @Id
    @Column(name = "client_id")
    private String clientId;

    @Column(name = "client_name")
    private String name;

    private boolean confidential;

    @Column(name = "secret_hash")
    private String secretHash;

    /** Null: not chosen (a confidential client may then use either secret method, a public one is none). */
    @Column(name = "token_endpoint_auth_method")
    private String authMethod;

    /** A private_key_jwt client's inline public JWK set, or null. */
    private String jwks;

    @Column(name = "jwks_uri")
    private String jwksUri;

    /** A rotated-out secret's hash, accepted until {@link #previousSecretExpiresAt}; null when there is none. */
    @Column(name = "previous_secret_hash")
    private String previousSecretHash;

    @Column(name = "previous_secret_expires_at")
    private Long previousSecretExpiresAt;

    @Column(name = "redirect_uris")
    @Convert(converter = UriListConverter.class)
    private List<String> redirectUris;

    @Column(name = "post_logout_redirect_uris")
    @Convert(converter = UriListConverter.class)
    private List<String> postLogoutRedirectUris;

    private String scopes;

    @Column(name = "skip_consent")
    private boolean skipConsent;

    /** Space-separated, in {@link GrantTypes#ALL} order: what the client may use at the token endpoint. */
    @Column(name = "grant_types")
    private String grantTypes = GrantTypes.format(GrantTypes.DEFAULT);

    private boolean enabled = true;
    /** Every sign-in for this client needs a second factor (whatever {@code portcullis.mfa.required} says). */
    @Column(name = "require_mfa")
    private boolean requireMfa;
    /** The client's authorization requests must be pushed (RFC 9126 6), whatever {@code portcullis.par.required} says. */
    @Column(name = "require_pushed_authorization_requests")
    private boolean requirePushedAuthorizationRequests;
    /** The client's authorization requests must be signed request objects (RFC 9101 10.5). */
    @Column(name = "require_signed_request_object")
    private boolean requireSignedRequestObject;
    /** Its access tokens must be sender-constrained: every token request carries a DPoP proof (RFC 9449 5.2). */
    @Column(name = "dpop_bound_access_tokens")
    private boolean dpopBoundAccessTokens;

    /**
     * Its ID tokens carry the claims of the granted scopes as well (for relying parties that read only the ID
     * token); otherwise those claims are at userinfo only.
     */
    @Column(name = "id_token_claims")
    private boolean idTokenClaims;

    @Column(name = "backchannel_logout_uri")
    private String backchannelLogoutUri;

    @Column(name = "backchannel_logout_session_required")
    private boolean backchannelLogoutSessionRequired = true;

    @Column(name = "frontchannel_logout_uri")
    private String frontchannelLogoutUri;

    @Column(name = "frontchannel_logout_session_required")
    private boolean frontchannelLogoutSessionRequired = true;

    @Column(name = "created_at")
    private long createdAt;

    @Column(name = "updated_at")
    private long updatedAt;

    protected Client() {
    }

    Client(String clientId, String name, boolean confidential, List<String> redirectUris,
           List<String> postLogoutRedirectUris, String scopes, boolean skipConsent, Instant now) {
        this.clientId = clientId;
        this.name = name;
        this.confidential = confidential;
        this.redirectUris = List.copyOf(redirectUris);
        this.postLogoutRedirectUris = List.copyOf(postLogoutRedirectUris);
        this.scopes = scopes;
        this.skipConsent = skipConsent;
        this.createdAt = now.getEpochSecond();
        this.updatedAt = createdAt;
    }

    public String clientId() {
        return clientId;
    }

    public String name() {
        return name;
    }

    public boolean confidential() {
        return confidential;
    }

    public List<String> redirectUris() {
        return redirectUris;
    }

    public List<String> postLogoutRedirectUris() {
        return postLogoutRedirectUris;
    }

    /** The scopes this client may request, space-separated. */
    public String scopes() {
        return scopes;
    }

    public Set<String> scopeSet() {
        return Scopes.parse(scopes);
    }

    public boolean skipConsent() {
        return skipConsent;
    }

    /** The grant types this client may use, in catalogue order. */
    public Set<String> grantTypes() {
        return GrantTypes.parse(grantTypes);
    }

    /** Whether the client may use {@code grantType} (at the token endpoint, or authorization_code at /authorize). */
    public boolean mayUse(String grantType) {
        return grantTypes().contains(grantType);
    }

    /** {@code grantTypes} as {@link GrantTypes#check} returns it. */
    void changeGrantTypes(String grantTypes, Instant now) {
        this.grantTypes = grantTypes;
        this.updatedAt = now.getEpochSecond();
    }

    /** A disabled client is refused at the authorization and token endpoints. */
    public boolean enabled() {
        return enabled;
    }

    public boolean requireMfa() {
        return requireMfa;
    }

    void requireMfa(boolean required, Instant now) {
        this.requireMfa = required;
        this.updatedAt = now.getEpochSecond();
    }

    public boolean requirePushedAuthorizationRequests() {
        return requirePushedAuthorizationRequests;
    }

    void requirePushedAuthorizationRequests(boolean required, Instant now) {
        this.requirePushedAuthorizationRequests = required;
        this.updatedAt = now.getEpochSecond();
    }

    public boolean requireSignedRequestObject() {
        return requireSignedRequestObject;
    }

    void requireSignedRequestObject(boolean required, Instant now) {
        this.requireSignedRequestObject = required;
        this.updatedAt = now.getEpochSecond();
    }

    public boolean dpopBoundAccessTokens() {
        return dpopBoundAccessTokens;
    }

    void dpopBoundAccessTokens(boolean required, Instant now) {
        this.dpopBoundAccessTokens = required;
        this.updatedAt = now.getEpochSecond();
    }

    /** Whether its ID tokens carry the scopes' claims too, not only identity and session claims. */
    public boolean idTokenClaims() {
        return idTokenClaims;
    }

    void idTokenClaims(boolean wanted, Instant now) {
        this.idTokenClaims = wanted;
        this.updatedAt = now.getEpochSecond();
    }

    /** Where the client is told that a session it served has ended. */
    public LogoutNotifications logoutNotifications() {
        return new LogoutNotifications(backchannelLogoutUri, backchannelLogoutSessionRequired, frontchannelLogoutUri,
                frontchannelLogoutSessionRequired);
    }

    /** {@code n} as {@link LogoutNotifications#check} accepted it. */
    void changeLogoutNotifications(LogoutNotifications n, Instant now) {
        this.backchannelLogoutUri = n.backchannelUri();
        this.backchannelLogoutSessionRequired = n.backchannelSessionRequired();
        this.frontchannelLogoutUri = n.frontchannelUri();
        this.frontchannelLogoutSessionRequired = n.frontchannelSessionRequired();
        this.updatedAt = now.getEpochSecond();
    }

    public Instant createdAt() {
        return Instant.ofEpochSecond(createdAt);
    }

    /**
     * Constant-time check of a presented client secret against the stored hash and, until it expires at
     * {@code now}, the previous secret's (one SHA-256, no slow hash; both compared whichever matches).
     */
    public boolean secretMatches(String presented, Instant now) {
        if (!confidential || presented == null) {
            return false;
        }
        String hash = Secrets.hash(presented);
        boolean current = Secrets.constantTimeEquals(hash, secretHash);
        boolean previous = Secrets.constantTimeEquals(hash, previousSecretHash);
        return current | (previous && previousSecretExpiresAt != null && now.getEpochSecond() < previousSecretExpiresAt);
    }

    /**
     * How the client authenticates: the method it registered, or when it chose none, {@code none} for a public client
     * and {@code client_secret_basic} (RFC 7591's default) for a confidential one, which may then also use
     * {@code client_secret_post} ({@link #authMethodChosen()}).
     */
    public String authMethod() {
        if (authMethod != null) {
            return authMethod;
        }
        return confidential ? ClientAuthMethods.CLIENT_SECRET_BASIC : ClientAuthMethods.NONE;
    }

    /** Whether the method was named at registration or in a change; if not, either secret method is accepted. */
    public boolean authMethodChosen() {
        return authMethod != null;
    }

    /** The inline JWK set of a private_key_jwt client, or null. */
    public String jwks() {
        return jwks;
    }

    /** Where a private_key_jwt client publishes its keys, or null. */
    public String jwksUri() {
        return jwksUri;
    }

    /** Until when the previous secret is accepted; empty when there is none. */
    public java.util.Optional<Instant> previousSecretExpiresAt() {
        return previousSecretExpiresAt == null ? java.util.Optional.empty()
                : java.util.Optional.of(Instant.ofEpochSecond(previousSecretExpiresAt));
    }

    /** Sets the method (null: not chosen) and the keys; a method without a secret drops the secrets. */
    void changeAuthentication(String authMethod, String jwks, String jwksUri, Instant now) {
        this.authMethod = authMethod;
        this.jwks = jwks;
        this.jwksUri = jwksUri;
        if (ClientAuthMethods.PRIVATE_KEY_JWT.equals(authMethod)) {
            this.secretHash = null;
            dropPreviousSecret();
        }
        this.updatedAt = now.getEpochSecond();
    }

    private void dropPreviousSecret() {
        this.previousSecretHash = null;
        this.previousSecretExpiresAt = null;
    }

    void changeSettings(String name, List<String> redirectUris, List<String> postLogoutRedirectUris, String scopes,
                        boolean skipConsent, Instant now) {
        this.name = name;
        this.redirectUris = List.copyOf(redirectUris);
        this.postLogoutRedirectUris = List.copyOf(postLogoutRedirectUris);
        this.scopes = scopes;
        this.skipConsent = skipConsent;
        this.updatedAt = now.getEpochSecond();
    }

    void changeEnabled(boolean enabled, Instant now) {
        this.enabled = enabled;
        this.updatedAt = now.getEpochSecond();
    }

    /** Switches between confidential and public; a public client keeps no secret hash. */
    void changeConfidential(boolean confidential, String secretHash, Instant now) {
        this.confidential = confidential;
        this.secretHash = confidential ? secretHash : null;
        dropPreviousSecret();
        this.updatedAt = now.getEpochSecond();
    }

    void replaceSecretHash(String hash, Instant now) {
        this.secretHash = hash;
        dropPreviousSecret();
        this.updatedAt = now.getEpochSecond();
    }

    /** A new secret's hash; the one it replaces is accepted until {@code previousValidUntil}. */
    void replaceSecretHash(String hash, Instant previousValidUntil, Instant now) {
        this.previousSecretHash = secretHash;
        this.previousSecretExpiresAt = previousValidUntil.getEpochSecond();
        this.secretHash = hash;
        this.updatedAt = now.getEpochSecond();
    }

    /** Whether {@code uri} is a registered post-logout redirect URI (exact match). */
    public boolean allowsPostLogoutRedirectUri(String uri) {
        return postLogoutRedirectUris.contains(uri);
    }
}
