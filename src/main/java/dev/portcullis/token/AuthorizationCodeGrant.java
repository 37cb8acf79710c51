package dev.portcullis.token;

import dev.portcullis.audit.AuditEvent;
import dev.portcullis.audit.AuditLog;
import dev.portcullis.authorize.AuthorizationCode;
import dev.portcullis.authorize.AuthorizationCodes;
import dev.portcullis.protocol.OAuthException;
import dev.portcullis.protocol.ProtocolParameters;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Clock;
import java.util.Optional;

/**
 * {@code grant_type=authorization_code} (RFC 6749 4.1.3, RFC 7636 4.6, RFC 9700 2.1.1). Checks, in order: the code
 * exists; it was not used before (a second use revokes every token issued from it); it belongs to the authenticated
 * client; it has not expired; redirect_uri repeats the authorization request's; PKCE — the verifier is required when
 * the code carries a challenge, must match it, and is refused when the code has none (downgrade). Then one
 * transaction redeems it ({@link TokenIssuer#redeem}).
 */
@ApplicationScoped
public class AuthorizationCodeGrant {

    public static final String GRANT_TYPE = "authorization_code";

    @Inject
    AuthorizationCodes codes;

    @Inject
    TokenIssuer issuer;

    @Inject
    TokenGrants grants;

    @Inject
    AuditLog audit;

    @Inject
    Clock clock;

    public TokenResponse exchange(ClientAuthenticator.AuthenticatedClient client, ProtocolParameters p, String ip) {
        String value = p.require("code");
        Optional<String> redirectUri = p.get("redirect_uri");
        Optional<String> verifier = p.get("code_verifier");
        if (verifier.isPresent() && !Pkce.isWellFormedVerifier(verifier.get())) {
            throw OAuthException.invalidRequest("code_verifier must be 43 to 128 characters of A-Z a-z 0-9 - . _ ~");
        }
        AuthorizationCode code = codes.find(value)
                .orElseThrow(() -> OAuthException.invalidGrant("Unknown authorization code"));
        if (code.isRedeemed()) {
            throw replayed(code, client, ip);
        }
        if (!code.clientId().equals(client.clientId())) {
            throw OAuthException.invalidGrant("The authorization code was issued to another client");
        }
        if (code.isExpired(clock.instant())) {
            throw OAuthException.invalidGrant("The authorization code has expired");
        }
        if (code.redirectUriGiven() && redirectUri.isEmpty()) {
            throw OAuthException.invalidGrant("redirect_uri is required: the authorization request carried one");
        }
        if (redirectUri.isPresent() && !redirectUri.get().equals(code.redirectUri())) {
            throw OAuthException.invalidGrant("redirect_uri does not match the authorization request");
        }
        checkPkce(code, client, verifier);

        TokenIssuer.Issued issued;
        try {
            issued = issuer.redeem(code, ip);
        } catch (TokenIssuer.LostRace e) {
            // a concurrent request redeemed it first (or it expired this instant): the same as a replay
            AuthorizationCode now = codes.find(value).orElse(code);
            if (now.isRedeemed()) {
                throw replayed(now, client, ip);
            }
            throw OAuthException.invalidGrant("The authorization code has expired");
        }
        return issued.response();
    }

    private static void checkPkce(AuthorizationCode code, ClientAuthenticator.AuthenticatedClient client,
                                  Optional<String> verifier) {
        Optional<String> challenge = code.codeChallenge();
        if (challenge.isPresent()) {
            if (verifier.isEmpty()) {
                throw OAuthException.invalidGrant("code_verifier is required: the authorization request carried a "
                        + "code_challenge");
            }
            if (!Pkce.matches(verifier.get(), challenge.get(), code.codeChallengeMethod().orElse(Pkce.S256))) {
                throw OAuthException.invalidGrant("code_verifier does not match the code_challenge");
            }
        } else {
            if (verifier.isPresent()) {
                throw OAuthException.invalidGrant("code_verifier sent, but the authorization request had no "
                        + "code_challenge");
            }
            if (!client.client().confidential()) {
                throw OAuthException.invalidGrant("Public clients must use PKCE");
            }
        }
    }

    /** RFC 6749 4.1.2: deny, and revoke every token already issued from the code. */
    private OAuthException replayed(AuthorizationCode code, ClientAuthenticator.AuthenticatedClient client, String ip) {
        code.grantId().ifPresent(grants::revokeGrant);
        audit.failure(AuditEvent.Type.CODE_REPLAYED, client.clientId(), code.userId(), ip,
                code.grantId().map(g -> "grant " + g + " revoked").orElse("no grant"));
        return OAuthException.invalidGrant("The authorization code was already used; the tokens issued for it "
                + "are revoked");
    }
}
