package dev.portcullis.token;

import dev.portcullis.account.SignInService;
import dev.portcullis.api.AccessTokenAudience;
import dev.portcullis.api.ResourceIndicatorService;
import dev.portcullis.audit.AuditEvent;
import dev.portcullis.audit.AuditLog;
import dev.portcullis.client.Client;
import dev.portcullis.client.Scopes;
import dev.portcullis.config.TokenSettings;
import dev.portcullis.metrics.Metrics;
import dev.portcullis.protocol.OAuthError;
import dev.portcullis.protocol.OAuthException;
import dev.portcullis.protocol.ProtocolParameters;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * {@code grant_type=refresh_token} (RFC 6749 6) with rotation on every use (RFC 9700 4.14.2): the checks of
 * {@link #handle}, in order, then the presented token is marked used by one conditional UPDATE and a new one is
 * issued. Presenting a used token again — a replay, or the loser of two parallel refreshes — revokes the whole
 * family. An optional {@code scope} may narrow the new access token within the originally granted scope, never
 * widen it; the new refresh token keeps the granted scope. A family lives at most
 * {@code portcullis.refresh-token.max-lifetime} from the redemption that created it, and no token outlives it.
 */
@ApplicationScoped
public class RefreshTokenGrant implements GrantHandler {

    @Inject
    TokenGrantRepository grants;

    @Inject
    Metrics metrics;

    @Inject
    TokenIssuer issuer;

    @Inject
    AuditLog audit;

    @Inject
    Clock clock;

    @Inject
    TokenSettings tokenSettings;

    @Inject
    SignInService signIns;

    @Inject
    ResourceIndicatorService resourceIndicators;

    @Override
    public String grantType() {
        return "refresh_token";
    }

    @Override
    public TokenResponse handle(Client client, ProtocolParameters p, String ip, String dpopJkt) {
        String value = p.require("refresh_token");
        Optional<String> requestedScope = p.get("scope");
        TokenGrantRepository.RefreshTokenStatus found = tokenIsKnown(value);
        RefreshToken token = found.token();
        TokenGrant grant = found.grant();
        grantBelongsToClient(grant, client);
        grantIsNotRevoked(grant);
        proofIsByTheBoundKey(grant, dpopJkt);
        tokenIsUnused(token, grant, ip);
        Instant now = clock.instant();
        tokenIsUnexpired(token, now);
        familyIsWithinItsLifetime(grant, now);
        userIsStillAllowed(grant);
        String scope = narrow(grant.scope(), requestedScope);
        AccessTokenAudience audience = resourcesAreWithinTheGrant(grant, client, scope, p.all("resource"));
        try {
            return issuer.rotate(token, grant, scope, audience, client.idTokenClaims(), ip, dpopJkt).response();
        } catch (TokenIssuer.LostRace e) {
            throw reused(grant, ip); // a parallel request rotated it first
        }
    }

    private TokenGrantRepository.RefreshTokenStatus tokenIsKnown(String value) {
        return grants.findRefreshToken(value).orElseThrow(() -> OAuthException.invalidGrant("Unknown refresh token"));
    }

    static void grantBelongsToClient(TokenGrant grant, Client client) {
        if (!grant.clientId().equals(client.clientId())) {
            throw OAuthException.invalidGrant("The refresh token was issued to another client");
        }
    }

    static void grantIsNotRevoked(TokenGrant grant) {
        if (grant.isRevoked()) {
            throw OAuthException.invalidGrant("The refresh token has been revoked");
        }
    }

    /**
     * RFC 9449 5: a refresh token bound to a DPoP key (a public client's, redeemed with a proof) is refreshed only
     * with a proof signed by that key. Before the reuse check: without the key, nobody may revoke the family.
     */
    static void proofIsByTheBoundKey(TokenGrant grant, String dpopJkt) {
        if (grant.dpopJkt() != null && (dpopJkt == null || !grant.dpopJkt().equals(dpopJkt))) {
            throw new OAuthException(OAuthError.INVALID_DPOP_PROOF, dpopJkt == null
                    ? "The refresh token is bound to a DPoP key: send a DPoP proof signed by it"
                    : "The DPoP proof is signed with another key than the refresh token is bound to");
        }
    }

    /** RFC 9700 4.14.2: a used token presented again revokes its whole family. */
    private void tokenIsUnused(RefreshToken token, TokenGrant grant, String ip) {
        if (token.isUsed()) {
            throw reused(grant, ip);
        }
    }

    static void tokenIsUnexpired(RefreshToken token, Instant now) {
        if (token.isExpired(now)) {
            throw OAuthException.invalidGrant("The refresh token has expired");
        }
    }

    /** A family refreshed every day still ends: {@code portcullis.refresh-token.max-lifetime} after the sign-in. */
    private void familyIsWithinItsLifetime(TokenGrant grant, Instant now) {
        if (!now.isBefore(grant.endsAt(tokenSettings.refreshTokenMaxLifetime()))) {
            throw OAuthException.invalidGrant("The refresh token's grant has reached its maximum lifetime of "
                    + tokenSettings.refreshTokenMaxLifetime().toSeconds() + " seconds; the user must sign in again");
        }
    }

    /** A directory user deleted or disabled in the directory: the family ends ({@link SignInService#stillAllowed}). */
    private void userIsStillAllowed(TokenGrant grant) {
        if (!signIns.stillAllowed(grant.userId())) {
            grants.revokeGrant(grant.grantId());
            throw OAuthException.invalidGrant("The user's directory account no longer exists or is disabled");
        }
    }

    /**
     * RFC 8707 2.2: a refresh may ask for fewer of the resources the grant was authorized for, never others; without
     * {@code resource} the token is for all of them. The access token's scope is narrowed to theirs.
     */
    private AccessTokenAudience resourcesAreWithinTheGrant(TokenGrant grant, Client client, String scope,
                                                           List<String> requested) {
        return resourceIndicators.forToken(requested, grant.resources(), Scopes.parse(grant.scope()),
                Scopes.parse(scope), client.scopeSet());
    }

    /** The scope of the new access token: the granted scope, or a subset of it the client asked for. */
    static String narrow(String granted, Optional<String> requested) {
        if (requested.isEmpty()) {
            return granted;
        }
        Set<String> grantedSet = Scopes.parse(granted);
        Set<String> asked = Scopes.parse(requested.get());
        if (asked.isEmpty()) {
            return granted;
        }
        for (String s : asked) {
            if (!grantedSet.contains(s)) {
                throw OAuthException.invalidScope("scope may only narrow the granted scope ("
                        + granted + ")");
            }
        }
        return Scopes.format(asked);
    }

    private OAuthException reused(TokenGrant grant, String ip) {
        grants.revokeGrant(grant.grantId());
        audit.failure(AuditEvent.Type.REFRESH_TOKEN_REUSED, grant.clientId(), grant.userId(), ip,
                "grant " + grant.grantId() + " revoked");
        metrics.refreshTokenReused();
        return OAuthException.invalidGrant("The refresh token was already used; every token of this grant is revoked");
    }
}
