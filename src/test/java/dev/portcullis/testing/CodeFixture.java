package dev.portcullis.testing;

import dev.portcullis.crypto.Secrets;
import java.time.Instant;

/**
 * Authorization codes for token-endpoint tests, stored exactly as {@code AuthorizationCodes.issue} stores them
 * (the value's hash, bound to client, user, redirect URI, scope, nonce, PKCE challenge), without the browser flow.
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
        String code = Secrets.newSecret();
        long now = Instant.now().getEpochSecond();
        Db.update("INSERT INTO authorization_codes (code_hash, client_id, user_id, redirect_uri, redirect_uri_given, "
                        + "scope, nonce, code_challenge, code_challenge_method, auth_time, session_hash, created_at, "
                        + "expires_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, NULL, ?, ?)",
                Secrets.hash(code), clientId, userId, redirectUri, redirectUriGiven, scope, nonce, codeChallenge,
                codeChallenge == null ? null : "S256", now - 5, now, now + ttlSeconds);
        return code;
    }
}
