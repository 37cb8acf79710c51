package dev.portcullis.authorize;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.time.Instant;
import java.util.Optional;

/**
 * An issued authorization code, stored by its id and the hash of its secret ({@link dev.portcullis.crypto.SplitToken})
 * and bound to everything the token endpoint must check: client, redirect URI, user, granted scope, nonce, PKCE
 * challenge, auth_time. It is redeemed once by
 * {@link AuthorizationCodes#markRedeemed}, a single conditional UPDATE.
 */
@Entity
@Table(name = "authorization_codes")
public class AuthorizationCode {

    @Id
    @Column(name = "code_id")
    private String codeId;

    @Column(name = "secret_hash")
    private String secretHash;

    @Column(name = "client_id")
    private String clientId;

    @Column(name = "user_id")
    private String userId;

    @Column(name = "redirect_uri")
    private String redirectUri;

    @Column(name = "redirect_uri_given")
    private boolean redirectUriGiven;

    private String scope;

    private String nonce;

    @Column(name = "code_challenge")
    private String codeChallenge;

    @Column(name = "code_challenge_method")
    private String codeChallengeMethod;

    @Column(name = "auth_time")
    private long authTime;

    @Column(name = "session_hash")
    private String sessionHash;

    @Column(name = "created_at")
    private long createdAt;

    @Column(name = "expires_at")
    private long expiresAt;

    @Column(name = "redeemed_at")
    private Long redeemedAt;

    @Column(name = "grant_id")
    private String grantId;

    protected AuthorizationCode() {
    }

    /** A row read back by {@link AuthorizationCodes} (plain JDBC on the token path). */
    AuthorizationCode(String codeId, String secretHash, String clientId, String userId, String redirectUri,
                      boolean redirectUriGiven, String scope, String nonce, String codeChallenge,
                      String codeChallengeMethod, long authTime, String sessionHash, long createdAt, long expiresAt,
                      Long redeemedAt, String grantId) {
        this.codeId = codeId;
        this.secretHash = secretHash;
        this.clientId = clientId;
        this.userId = userId;
        this.redirectUri = redirectUri;
        this.redirectUriGiven = redirectUriGiven;
        this.scope = scope;
        this.nonce = nonce;
        this.codeChallenge = codeChallenge;
        this.codeChallengeMethod = codeChallengeMethod;
        this.authTime = authTime;
        this.sessionHash = sessionHash;
        this.createdAt = createdAt;
        this.expiresAt = expiresAt;
        this.redeemedAt = redeemedAt;
        this.grantId = grantId;
    }

    /** What a code is bound to; built by the authorization endpoint after sign-in and consent. */
    public record CodeRequest(String clientId, String userId, String redirectUri, boolean redirectUriGiven,
                              String scope, String nonce, String codeChallenge, String codeChallengeMethod,
                              Instant authTime, String sessionHash) {
    }

    /** The row's key: the id part of the code (the hash of the whole value for codes issued before V3). */
    public String codeId() {
        return codeId;
    }

    /** The hash of the code's secret part; null for codes issued before V3. */
    String secretHash() {
        return secretHash;
    }

    public String clientId() {
        return clientId;
    }

    public String userId() {
        return userId;
    }

    public String redirectUri() {
        return redirectUri;
    }

    /** Whether the authorization request carried redirect_uri (then the token request must repeat it, RFC 6749 4.1.3). */
    public boolean redirectUriGiven() {
        return redirectUriGiven;
    }

    public String scope() {
        return scope;
    }

    public Optional<String> nonce() {
        return Optional.ofNullable(nonce);
    }

    public Optional<String> codeChallenge() {
        return Optional.ofNullable(codeChallenge);
    }

    public Optional<String> codeChallengeMethod() {
        return Optional.ofNullable(codeChallengeMethod);
    }

    public Instant authTime() {
        return Instant.ofEpochSecond(authTime);
    }

    public Optional<String> sessionHash() {
        return Optional.ofNullable(sessionHash);
    }

    public Instant expiresAt() {
        return Instant.ofEpochSecond(expiresAt);
    }

    public boolean isExpired(Instant now) {
        return now.getEpochSecond() >= expiresAt;
    }

    public boolean isRedeemed() {
        return redeemedAt != null;
    }

    /** The grant created when this code was redeemed; revoked if the code is presented again. */
    public Optional<String> grantId() {
        return Optional.ofNullable(grantId);
    }
}
