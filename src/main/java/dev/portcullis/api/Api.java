package dev.portcullis.api;

import dev.portcullis.client.Scopes;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.time.Instant;
import java.util.Optional;
import java.util.Set;

/**
 * A registered API (resource server): the audience an access token can be issued for (RFC 8707). Its
 * {@code identifier} is the token's {@code aud}; its scopes are given to clients like the built-in ones, and a
 * client may ask for the API when it holds at least one of them.
 */
@Entity
@Table(name = "apis")
public class Api {

    @Id
    @Column(name = "api_id")
    private String apiId;

    private String identifier;

    @Column(name = "api_name")
    private String name;

    /** Space-separated, in the order they were given. */
    private String scopes;

    /** Null: {@code portcullis.access-token.signing-alg}. */
    @Column(name = "access_token_signing_alg")
    private String accessTokenSigningAlg;

    /** The header typ of its access tokens: {@code at+jwt} (RFC 9068) or {@code JWT} ({@link ApiRules#TOKEN_TYPS}). */
    @Column(name = "access_token_typ")
    private String accessTokenTyp = ApiRules.AT_JWT;

    /** The client the API's backend authenticates as, the one that may exchange its tokens (RFC 8693); or null. */
    @Column(name = "backend_client_id")
    private String backendClientId;

    /**
     * Space-separated scopes of other APIs that the backend may exchange this API's tokens for (RFC 8693); null:
     * none.
     */
    @Column(name = "exchange_scopes")
    private String exchangeScopes;

    @Column(name = "created_at")
    private long createdAt;

    @Column(name = "updated_at")
    private long updatedAt;

    protected Api() {
    }

    Api(String apiId, String identifier, String name, Set<String> scopes, String accessTokenSigningAlg, Instant now) {
        this.apiId = apiId;
        this.identifier = identifier;
        this.name = name;
        this.scopes = String.join(" ", scopes);
        this.accessTokenSigningAlg = accessTokenSigningAlg;
        this.createdAt = now.getEpochSecond();
        this.updatedAt = createdAt;
    }

    public String apiId() {
        return apiId;
    }

    public String identifier() {
        return identifier;
    }

    public String name() {
        return name;
    }

    public Set<String> scopes() {
        return Scopes.parse(scopes);
    }

    /** The algorithm its access tokens are signed with; empty: the global default. */
    public Optional<String> accessTokenSigningAlg() {
        return Optional.ofNullable(accessTokenSigningAlg);
    }

    /** The header typ of its access tokens: {@code at+jwt} or {@code JWT}. */
    public String accessTokenTyp() {
        return accessTokenTyp;
    }

    void changeAccessTokenTyp(String accessTokenTyp, Instant now) {
        this.accessTokenTyp = accessTokenTyp;
        this.updatedAt = now.getEpochSecond();
    }

    /** The client that may exchange tokens issued for this API (RFC 8693); empty: none may. */
    public Optional<String> backendClientId() {
        return Optional.ofNullable(backendClientId);
    }

    void changeBackendClient(String backendClientId, Instant now) {
        this.backendClientId = backendClientId;
        this.updatedAt = now.getEpochSecond();
    }

    /** The scopes of other APIs its backend may exchange its tokens for; empty: it may obtain nothing. */
    public Set<String> exchangeScopes() {
        return Scopes.parse(exchangeScopes);
    }

    void changeExchangeScopes(Set<String> exchangeScopes, Instant now) {
        this.exchangeScopes = exchangeScopes.isEmpty() ? null : String.join(" ", exchangeScopes);
        this.updatedAt = now.getEpochSecond();
    }

    public Instant createdAt() {
        return Instant.ofEpochSecond(createdAt);
    }

    void change(String identifier, String name, Set<String> scopes, String accessTokenSigningAlg, Instant now) {
        this.identifier = identifier;
        this.name = name;
        this.scopes = String.join(" ", scopes);
        this.accessTokenSigningAlg = accessTokenSigningAlg;
        this.updatedAt = now.getEpochSecond();
    }
}
