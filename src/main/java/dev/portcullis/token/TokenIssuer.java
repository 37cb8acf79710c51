package dev.portcullis.token;

import com.nimbusds.jose.JWSAlgorithm;
import dev.portcullis.account.User;
import dev.portcullis.api.AccessTokenAudience;
import dev.portcullis.account.UserRepository;
import dev.portcullis.audit.AuditEvent;
import dev.portcullis.audit.AuditLog;
import dev.portcullis.authorize.AuthorizationCode;
import dev.portcullis.authorize.AuthorizationCodeRepository;
import dev.portcullis.client.Client;
import dev.portcullis.client.Scopes;
import dev.portcullis.config.TokenSettings;
import dev.portcullis.crypto.Secrets;
import dev.portcullis.jose.TokenMinter;
import dev.portcullis.protocol.OAuthException;
import dev.portcullis.session.AuthMethods;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.transaction.Transactional;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The transactional half of the grants: win the race (one conditional UPDATE), then store and mint the new tokens,
 * all in one transaction (client credentials: store and mint only), so a request either leaves a complete family
 * behind or nothing at all. The grant classes validate before calling in and handle a lost race ({@link LostRace})
 * after the rollback.
 */
@ApplicationScoped
public class TokenIssuer {

    /** Another request redeemed the code / rotated the refresh token first; this transaction rolled back. */
    static final class LostRace extends RuntimeException {
        private static final long serialVersionUID = 1L;

        LostRace() {
            super(null, null, false, false);
        }
    }

    @Inject
    TokenGrantRepository grants;

    @Inject
    AuthorizationCodeRepository codes;

    @Inject
    TokenMinter minter;

    @Inject
    UserRepository users;

    @Inject
    TokenSettings tokenSettings;

    @Inject
    Clock clock;

    @Inject
    AuditLog audit;

    /**
     * Redeems a validated code: marks it used, creates its grant (authorized for the code's resources) and the first
     * tokens, the access token for {@code audience}, and audits it. {@code idTokenClaims}: the client's
     * {@code id_token_claims}; {@code dpopJkt} the DPoP key the access token is bound to, {@code refreshJkt} the one
     * the grant's refresh tokens are (null: not bound).
     */
    @Transactional
    public Issued redeem(AuthorizationCode code, AccessTokenAudience audience, boolean idTokenClaims, String ip,
                         String dpopJkt, String refreshJkt) {
        String grantId = Secrets.newTimeOrderedId();
        if (!codes.markRedeemed(code, grantId)) {
            throw new LostRace();
        }
        TokenGrant grant = grants.createCodeGrant(grantId, code.clientId(), code.userId(), code.scope(), code.authTime(),
                code.amr(), code.resources(), code.sid().orElse(null), code.claims().orElse(null), refreshJkt);
        Issued issued = new Issued(grant, issue(grant, code.scope(), audience, code.nonce().orElse(null),
                idTokenClaims, dpopJkt));
        audit.success(AuditEvent.Type.CODE_REDEEMED, code.clientId(), code.userId(), ip, "grant " + grantId);
        return issued;
    }

    /**
     * Rotates a validated refresh token: marks it used, issues the next access token (for {@code audience}; an ID
     * token when {@code scope} has openid) and refresh token, audits it.
     */
    @Transactional
    public Issued rotate(RefreshToken token, TokenGrant grant, String scope, AccessTokenAudience audience,
                         boolean idTokenClaims, String ip, String dpopJkt) {
        if (!grants.markRefreshTokenUsed(token)) {
            throw new LostRace();
        }
        Issued issued = new Issued(grant, issue(grant, scope, audience, null, idTokenClaims, dpopJkt));
        audit.success(AuditEvent.Type.TOKEN_REFRESHED, grant.clientId(), grant.userId(), ip, "grant " + grant.grantId());
        return issued;
    }

    /**
     * Issues a client-credentials access token to a validated request: a grant without a user (so revocation,
     * introspection and the purge treat it as any other), its one access token, the audit event.
     */
    @Transactional
    public TokenResponse issueToClient(Client client, AccessTokenAudience audience, List<String> resources,
                                       String ip, String dpopJkt) {
        Instant now = clock.instant();
        String scope = audience.scope();
        // auth_time is NOT NULL in token_grants: a grant without a user records when it was issued instead
        TokenGrant grant = grants.createGrant(Secrets.newTimeOrderedId(), client.clientId(), null, scope, now,
                Set.of(), resources, null);
        Instant accessExpiry = now.plus(tokenSettings.accessTokenTtl());
        String jti = Secrets.newTimeOrderedId();
        String accessToken = minter.accessToken(new TokenMinter.AccessTokenClaims(jti, client.clientId(),
                client.clientId(), scope, null, now, accessExpiry, audience.audience(), null, alg(audience), null,
                audience.typ(), dpopJkt));
        grants.recordAccessToken(new AccessTokenRecord(jti, grant.grantId(), scope, now, accessExpiry, accessToken));
        audit.success(AuditEvent.Type.CLIENT_CREDENTIALS_ISSUED, client.clientId(), client.clientId(), ip,
                "grant " + grant.grantId() + ", scope " + scope);
        return new TokenResponse(accessToken, tokenSettings.accessTokenTtl().toSeconds(), Optional.empty(), scope,
                now.getEpochSecond(), Optional.empty()).boundTo(dpopJkt);
    }

    /**
     * Issues the access token of a validated token exchange (RFC 8693): a grant of the requesting client for the
     * subject token's user, with its sign-in ({@code subject}'s auth_time and amr), the token's scope and
     * {@code resources}, linked to the subject token {@code subjectJti} and to {@code rootGrantId}, so that revoking
     * the subject token, any grant above it or the user's original authorization revokes it too; one access token
     * for {@code audience} that expires at the latest with the subject token ({@code notAfter}); the audit event. No
     * refresh token, no ID token, no {@code groups}: an exchanged token carries no OpenID scope. The subject token
     * and its grant are locked and must still be live ({@link TokenGrantRepository#lockIfLive}): a revocation racing this
     * exchange ends the new token too.
     */
    @Transactional
    public TokenResponse exchange(Client client, TokenGrant subject, String subjectJti, String rootGrantId,
                                  AccessTokenAudience audience, List<String> resources, Instant notAfter,
                                  Map<String, Object> act, String ip, String dpopJkt) {
        if (!grants.lockIfLive(subject.grantId(), subjectJti)) {
            throw OAuthException.invalidRequest("subject_token is invalid, expired or revoked");
        }
        Instant now = clock.instant();
        TokenGrant grant = grants.createGrant(Secrets.newTimeOrderedId(), client.clientId(), subject.userId(),
                audience.scope(), subject.authTime(), subject.amr(), resources, subject.sid(), rootGrantId,
                subjectJti);
        Instant full = now.plus(tokenSettings.accessTokenTtl());
        Instant accessExpiry = full.isAfter(notAfter) ? notAfter : full;
        String jti = Secrets.newTimeOrderedId();
        String accessToken = minter.accessToken(new TokenMinter.AccessTokenClaims(jti, subject.userId(),
                client.clientId(), audience.scope(), subject.authTime(), now, accessExpiry, audience.audience(),
                null, alg(audience), act, audience.typ(), dpopJkt));
        grants.recordAccessToken(new AccessTokenRecord(jti, grant.grantId(), audience.scope(), now, accessExpiry,
                accessToken));
        audit.success(AuditEvent.Type.TOKEN_EXCHANGED, client.clientId(), subject.userId(), ip, "grant "
                + grant.grantId() + " from grant " + subject.grantId() + " of client " + subject.clientId()
                + ", audience " + String.join(" ", audience.audience()) + ", scope " + audience.scope());
        return new TokenResponse(accessToken, Math.max(0, accessExpiry.getEpochSecond() - now.getEpochSecond()),
                Optional.empty(), audience.scope(), now.getEpochSecond(), Optional.empty(),
                Optional.of(TokenExchangeGrant.ACCESS_TOKEN_TYPE)).boundTo(dpopJkt);
    }

    /** The grant the tokens belong to, and the response for the client. */
    public record Issued(TokenGrant grant, TokenResponse response) {
    }

    /** The algorithm of {@code audience}'s tokens, null for the configured default. */
    private static JWSAlgorithm alg(AccessTokenAudience audience) {
        return audience.signingAlg() == null ? null : JWSAlgorithm.parse(audience.signingAlg());
    }

    /**
     * The tokens of a code redemption or refresh: the access token for {@code audience} (whose scope it carries) and,
     * when {@code scope} (before narrowing to the audience) has openid, an ID token. The ID token is data-minimal:
     * identity and session claims, and the user claims the grant's {@code claims} parameter asks for there; the
     * claims {@code scope} releases only when the client wants them there ({@code idTokenClaims}), since the access
     * token reads them at userinfo. The user's groups in the access token follow {@code scope} too: narrowing to an
     * API keeps the roles its backend maps from them.
     */
    private TokenResponse issue(TokenGrant grant, String scope, AccessTokenAudience audience, String nonce,
                                boolean idTokenClaims, String dpopJkt) {
        Instant now = clock.instant();
        Instant accessExpiry = now.plus(tokenSettings.accessTokenTtl());
        Set<String> scopes = Scopes.parse(scope);
        Optional<User> user = Optional.empty();
        if (scopes.contains(Scopes.OPENID) || scopes.contains(Scopes.GROUPS)) {
            user = Optional.of(users.findCached(grant.userId()).filter(User::enabled)
                    .orElseThrow(() -> OAuthException.invalidGrant("The user of this grant no longer exists or "
                            + "is disabled")));
        }
        List<String> groups = scopes.contains(Scopes.GROUPS) ? user.get().groups() : null;
        String jti = Secrets.newTimeOrderedId();
        String accessToken = minter.accessToken(new TokenMinter.AccessTokenClaims(jti, grant.userId(),
                grant.clientId(), audience.scope(), grant.authTime(), now, accessExpiry, audience.audience(),
                groups, alg(audience), null, audience.typ(), dpopJkt));
        grants.recordAccessToken(new AccessTokenRecord(jti, grant.grantId(), audience.scope(), now, accessExpiry,
                accessToken));
        String refreshToken = grants.newRefreshToken(grant, now, grant.refreshTokenExpiry(now,
                tokenSettings.refreshTokenTtl(), tokenSettings.refreshTokenMaxLifetime()));
        Optional<String> idToken = Optional.empty();
        if (scopes.contains(Scopes.OPENID)) {
            idToken = Optional.of(minter.idToken(new TokenMinter.IdTokenClaims(grant.userId(), grant.clientId(),
                    grant.authTime(), AuthMethods.claim(grant.amr()), AuthMethods.acr(grant.amr()), nonce, accessToken, now,
                    accessExpiry, UserClaims.inIdToken(user.get(), scopes, grant.claimsRequest(), idTokenClaims),
                    grant.sid())));
        }
        return new TokenResponse(accessToken, tokenSettings.accessTokenTtl().toSeconds(), Optional.of(refreshToken),
                audience.scope(), now.getEpochSecond(), idToken).boundTo(dpopJkt);
    }
}
