package dev.portcullis.token;

import dev.portcullis.protocol.JsonSupport;
import dev.portcullis.protocol.NoStoreJson;
import dev.portcullis.protocol.OAuthException;
import jakarta.json.JsonObjectBuilder;
import jakarta.ws.rs.core.Response;
import java.util.Optional;

/**
 * A successful token response, exactly these fields (access_token, token_type "Bearer", or "DPoP" for a
 * DPoP-bound access token, expires_in,
 * refresh_token, scope, created_at) plus id_token when the scope has openid; a client-credentials answer has no
 * refresh_token (RFC 6749 4.4.3); a token exchange answer has issued_token_type (RFC 8693 2.2.1) and no refresh
 * token. Never cached by anyone.
 */
public record TokenResponse(String accessToken, long expiresIn, Optional<String> refreshToken, String scope,
                            long createdAt, Optional<String> idToken, Optional<String> issuedTokenType,
                            boolean dpopBound) {

    /** A bearer token's answer. */
    public TokenResponse(String accessToken, long expiresIn, Optional<String> refreshToken, String scope,
                         long createdAt, Optional<String> idToken, Optional<String> issuedTokenType) {
        this(accessToken, expiresIn, refreshToken, scope, createdAt, idToken, issuedTokenType, false);
    }

    /** This answer with {@code token_type} DPoP when {@code dpopJkt} is a key (RFC 9449 5), as it is without. */
    TokenResponse boundTo(String dpopJkt) {
        return dpopJkt == null ? this : new TokenResponse(accessToken, expiresIn, refreshToken, scope, createdAt,
                idToken, issuedTokenType, true);
    }

    /** The answer of every grant but token exchange. */
    public TokenResponse(String accessToken, long expiresIn, Optional<String> refreshToken, String scope,
                         long createdAt, Optional<String> idToken) {
        this(accessToken, expiresIn, refreshToken, scope, createdAt, idToken, Optional.empty());
    }

    public String toJson() {
        JsonObjectBuilder b = JsonSupport.JSON.createObjectBuilder()
                .add("access_token", accessToken);
        issuedTokenType.ifPresent(t -> b.add("issued_token_type", t));
        b.add("token_type", dpopBound ? "DPoP" : "Bearer").add("expires_in", expiresIn);
        refreshToken.ifPresent(t -> b.add("refresh_token", t));
        b.add("scope", scope).add("created_at", createdAt);
        idToken.ifPresent(t -> b.add("id_token", t));
        return b.build().toString();
    }

    public Response toResponse() {
        return toResponse(null);
    }

    /** The answer, with the server's current DPoP nonce (RFC 9449 8.2) when {@code dpopNonce} is not null. */
    public Response toResponse(String dpopNonce) {
        Response.ResponseBuilder r = NoStoreJson.of(200, toJson());
        if (dpopNonce != null) {
            r.header(OAuthException.DPOP_NONCE, dpopNonce);
        }
        return r.build();
    }
}
