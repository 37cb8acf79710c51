package dev.portcullis.token;

import dev.portcullis.audit.AuditEvent;
import dev.portcullis.audit.AuditLog;
import dev.portcullis.client.Client;
import dev.portcullis.metrics.Metrics;
import dev.portcullis.protocol.OAuthException;
import dev.portcullis.protocol.ProtocolParameters;
import dev.portcullis.session.RefreshTokenLogout;
import dev.portcullis.session.SsoSessionRepository;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.transaction.Transactional;
import java.time.Clock;

/**
 * {@link RefreshTokenLogout}: a client's refresh token ends its family and the SSO session it was signed in by, in one
 * transaction with the audit event. Refusals change nothing; they commit only their own audit events (a failed
 * client authentication), so an OAuth error does not roll back.
 */
@ApplicationScoped
public class RefreshTokenLogoutService implements RefreshTokenLogout {

    @Inject
    ClientAuthenticator authenticator;

    @Inject
    Metrics metrics;

    @Inject
    TokenGrantRepository grants;

    @Inject
    SsoSessionRepository sessions;

    @Inject
    Clock clock;

    @Inject
    AuditLog audit;

    @Override
    @Transactional(dontRollbackOn = OAuthException.class)
    public void end(ProtocolParameters params, String authorizationHeader, String ip) {
        Client client = authenticator.authenticate(params, authorizationHeader, ip, "/oauth/logout");
        String value = params.require("refresh_token");
        TokenGrantRepository.RefreshTokenStatus found = grants.findRefreshToken(value)
                .filter(s -> s.grant().clientId().equals(client.clientId()))
                .filter(s -> !s.token().isUsed() && !s.token().isExpired(clock.instant()) && !s.grant().isRevoked())
                .orElseThrow(() -> refused(client, ip));
        // the conditional revocation decides between two logouts with the same token: the second ends nothing
        if (!grants.revokeGrantWithCaller(found.grant().grantId())) {
            throw refused(client, ip);
        }
        int ended = sessions.endBySid(found.grant().sid());
        audit.success(AuditEvent.Type.SIGN_OUT, client.clientId(), found.grant().userId(), ip,
                "refresh-token logout: grant " + found.grant().grantId() + " revoked, " + SsoSessionRepository.ended(ended));
        metrics.logout(Metrics.LogoutTrigger.REFRESH_TOKEN);
    }

    private OAuthException refused(Client client, String ip) {
        audit.failure(AuditEvent.Type.SIGN_OUT, client.clientId(), null, ip,
                "refresh-token logout refused: not a live refresh token of this client");
        return OAuthException.invalidGrant("The refresh token is not a live refresh token of this client");
    }
}
