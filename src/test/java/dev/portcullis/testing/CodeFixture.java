package dev.portcullis.testing;

import dev.portcullis.crypto.Secrets;
import dev.portcullis.crypto.SplitToken;
import java.time.Instant;

/**
 * Authorization codes for token-endpoint tests, stored exactly as {@code AuthorizationCodeRepository.issue} stores them
 * (the id and the secret's hash, bound to client, user, redirect URI, scope, nonce, PKCE challenge), without the
 * browser flow.
 */
public final class CodeFixture {

    private CodeFixture() {
    }

    /** A fresh code (60 s) whose authorization request carried redirect_uri. Returns the code value. */
    public static String issue(String clientId, String userId, String redirectUri, String scope, String nonce,
                               String codeChallenge) {
        return issue(clientId, userId, redirectUri, true, scope, nonce, codeChallenge, 60);
    }

    public static String issue(String clientId, String userId, String redirectUri, boolean redirectUriGiven,
                               String scope, String nonce, String codeChallenge, long ttlSeconds) {
        SplitToken code = SplitToken.issue();
        insert(code.id(), code.secretHash(), clientId, userId, redirectUri, redirectUriGiven, scope, nonce,
                codeChallenge, ttlSeconds);
        return code.value();
    }

    /** A code as issued before V3: one random value, its row keyed by the value's hash, no secret hash. */
    public static String issueBeforeV3(String clientId, String userId, String redirectUri, String scope) {
        String code = Secrets.newSecret();
        insert(Secrets.hash(code), null, clientId, userId, redirectUri, true, scope, null, null, 60);
        return code;
    }

    private static void insert(String codeId, String secretHash, String clientId, String userId, String redirectUri,
                               boolean redirectUriGiven, String scope, String nonce, String codeChallenge,
                               long ttlSeconds) {
        long now = Instant.now().getEpochSecond();
        Db.update("INSERT INTO authorization_codes (code_id, secret_hash, client_id, user_id, redirect_uri, "
                        + "redirect_uri_given, scope, nonce, code_challenge, code_challenge_method, auth_time, "
                        + "session_hash, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, NULL, ?, ?)",
                codeId, secretHash, clientId, userId, redirectUri, redirectUriGiven, scope, nonce, codeChallenge,
                codeChallenge == null ? null : "S256", now - 5, now, now + ttlSeconds);
    }
}
