package dev.portcullis.token;

import dev.portcullis.api.AccessTokenAudience;
import dev.portcullis.api.ResourceIndicatorService;
import dev.portcullis.audit.AuditEvent;
import dev.portcullis.audit.AuditLog;
import dev.portcullis.authorize.AuthorizationCode;
import dev.portcullis.authorize.AuthorizationCodeRepository;
import dev.portcullis.client.Client;
import dev.portcullis.client.RedirectUriPolicy;
import dev.portcullis.client.Scopes;
import dev.portcullis.protocol.OAuthException;
import dev.portcullis.protocol.Pkce;
import dev.portcullis.protocol.ProtocolParameters;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * {@code grant_type=authorization_code} (RFC 6749 4.1.3, RFC 7636 4.6, RFC 9700 2.1.1): the checks of
 * {@link #handle}, in order, then one transaction redeems the code ({@link TokenIssuer#redeem}).
 */
@ApplicationScoped
public class AuthorizationCodeGrant implements GrantHandler {

    @Inject
    AuthorizationCodeRepository codes;

    @Inject
    TokenIssuer issuer;

    @Inject
    TokenGrantRepository grants;

    @Inject
    AuditLog audit;

    @Inject
    Clock clock;

    @Inject
    ResourceIndicatorService resourceIndicators;

    @Override
    public String grantType() {
        return "authorization_code";
    }

    @Override
    public TokenResponse handle(Client client, ProtocolParameters p, String ip, String dpopJkt) {
        String value = p.require("code");
        Optional<String> redirectUri = p.get("redirect_uri");
        Optional<String> verifier = p.get("code_verifier");
        Pkce.verifierIsWellFormed(verifier);
        AuthorizationCode code = codeIsKnown(value);
        codeBelongsToClient(code, client); // first: only the code's own client may trigger the replay revocation
        codeIsUnused(code, client, ip);
        codeIsUnexpired(code, clock.instant());
        redirectUriRepeatsTheAuthorizationRequest(code, redirectUri);
        Pkce.verifierAnswersChallenge(code.codeChallenge(), code.codeChallengeMethod(), verifier,
                client.confidential());
        AccessTokenAudience audience = resourcesAreAuthorized(code, client, p.all("resource"));
        return redeem(value, code, audience, client, ip, dpopJkt);
    }

    /**
     * RFC 8707 2.2: the token's resources are those the authorization request named, or fewer of them; the scope
     * of the access token is narrowed to theirs. Refused (invalid_target) before the code is used.
     */
    private AccessTokenAudience resourcesAreAuthorized(AuthorizationCode code, Client client, List<String> requested) {
        Set<String> scopes = Scopes.parse(code.scope());
        return resourceIndicators.forToken(requested, code.resources(), scopes, scopes, client.scopeSet());
    }

    private AuthorizationCode codeIsKnown(String value) {
        return codes.find(value).orElseThrow(() -> OAuthException.invalidGrant("Unknown authorization code"));
    }

    /**
     * RFC 6749 4.1.2: a second use is denied and revokes every token already issued from the code. Runs after
     * {@link #codeBelongsToClient}, so another client holding a leaked code cannot revoke the owner's grant.
     */
    private void codeIsUnused(AuthorizationCode code, Client client, String ip) {
        if (code.isRedeemed()) {
            throw replayed(code, client, ip);
        }
    }

    static void codeBelongsToClient(AuthorizationCode code, Client client) {
        if (!code.clientId().equals(client.clientId())) {
            throw OAuthException.invalidGrant("The authorization code was issued to another client");
        }
    }

    static void codeIsUnexpired(AuthorizationCode code, Instant now) {
        if (code.isExpired(now)) {
            throw OAuthException.invalidGrant("The authorization code has expired");
        }
    }

    /** RFC 6749 4.1.3: required if the authorization request carried it, and then identical. */
    static void redirectUriRepeatsTheAuthorizationRequest(AuthorizationCode code, Optional<String> redirectUri) {
        if (code.redirectUriGiven() && redirectUri.isEmpty()) {
            throw OAuthException.invalidGrant("redirect_uri is required: the authorization request carried one");
        }
        if (redirectUri.isPresent() && !RedirectUriPolicy.isTheAuthorizedOne(code.redirectUri(), redirectUri.get())) {
            throw OAuthException.invalidGrant("redirect_uri does not match the authorization request");
        }
    }

    /**
     * One transaction redeems the code; with a DPoP proof the access token is bound to its key, and a public
     * client's refresh tokens too (RFC 9449 5: a confidential client's are bound to its authentication).
     */
    private TokenResponse redeem(String value, AuthorizationCode code, AccessTokenAudience audience, Client client,
                                 String ip, String dpopJkt) {
        try {
            return issuer.redeem(code, audience, client.idTokenClaims(), ip, dpopJkt,
                    client.confidential() ? null : dpopJkt).response();
        } catch (TokenIssuer.LostRace e) {
            // a concurrent request redeemed it first (or it expired this instant): the same as a replay
            AuthorizationCode now = codes.find(value).orElse(code);
            codeIsUnused(now, client, ip);
            throw OAuthException.invalidGrant("The authorization code has expired");
        }
    }

    private OAuthException replayed(AuthorizationCode code, Client client, String ip) {
        code.grantId().ifPresent(grants::revokeGrant);
        audit.failure(AuditEvent.Type.CODE_REPLAYED, client.clientId(), code.userId(), ip,
                code.grantId().map(g -> "grant " + g + " revoked").orElse("no grant"));
        return OAuthException.invalidGrant("The authorization code was already used; the tokens issued for it "
                + "are revoked");
    }
}
