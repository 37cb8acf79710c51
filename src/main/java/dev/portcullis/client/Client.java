package dev.portcullis.client;

import dev.portcullis.crypto.Secrets;
import jakarta.persistence.Column;
import jakarta.persistence.Convert;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.NamedQuery;
import jakarta.persistence.Table;
import java.time.Instant;
import java.util.List;
import java.util.Set;

/**
 * A registered client application. Confidential clients (seed variant A) authenticate with a secret that is stored
 * only as its hash; public clients ({@code confidential = false}, variant B) have no secret and must use PKCE.
 */
@Entity
@Table(name = "clients")
@NamedQuery(name = Client.BY_ID, query = "SELECT c FROM Client c WHERE c.clientId = :id")
public class Client {

    /** The primary-key read of {@link ClientRepository#find}, parsed once at deployment. */
    static final String BY_ID = "Client.byId";

    @Id
    @Column(name = "client_id")
    private String clientId;

    @Column(name = "client_name")
    private String name;

    private boolean confidential;

    @Column(name = "secret_hash")
    private String secretHash;

    @Column(name = "redirect_uris")
    @Convert(converter = UriListConverter.class)
    private List<String> redirectUris;

    @Column(name = "post_logout_redirect_uris")
    @Convert(converter = UriListConverter.class)
    private List<String> postLogoutRedirectUris;

    private String scopes;

    @Column(name = "skip_consent")
    private boolean skipConsent;

    /** Every sign-in for this client needs a second factor (whatever {@code portcullis.mfa.required} says). */
    @Column(name = "require_mfa")
    private boolean requireMfa;

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

    public boolean requireMfa() {
        return requireMfa;
    }

    void requireMfa(boolean required, Instant now) {
        this.requireMfa = required;
        this.updatedAt = now.getEpochSecond();
    }

    public Instant createdAt() {
        return Instant.ofEpochSecond(createdAt);
    }

    /** Constant-time check of a presented client secret against the stored hash (one SHA-256, no slow hash). */
    public boolean secretMatches(String presented) {
        return confidential && secretHash != null && Secrets.matchesHash(presented, secretHash);
    }

    void replaceSecretHash(String hash, Instant now) {
        this.secretHash = hash;
        this.updatedAt = now.getEpochSecond();
    }

    /** Whether {@code uri} is a registered post-logout redirect URI (exact match). */
    public boolean allowsPostLogoutRedirectUri(String uri) {
        return postLogoutRedirectUris.contains(uri);
    }
}
