package dev.portcullis.console;

import dev.portcullis.account.UserLookupService;
import dev.portcullis.audit.AuditEvent;
import dev.portcullis.audit.AuditEventRepository;
import dev.portcullis.client.ClientService;
import dev.portcullis.session.SsoSessionRepository;
import dev.portcullis.token.TokenGrantRepository;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.inject.Named;
import java.util.List;
import java.util.Set;

/**
 * Backing bean of {@code /admin/console/index.xhtml}: how many users, clients, live SSO sessions and live token
 * grants there are, and the latest sign-in failures and lockouts of the audit trail. Read-only: the counts are one
 * {@code COUNT} each from the tables' owners.
 */
@Named("consoleDashboard")
@RequestScoped
public class ConsoleDashboardPage {

    static final int RECENT = 15;
    static final Set<AuditEvent.Type> TROUBLE = Set.of(AuditEvent.Type.SIGN_IN_FAILURE, AuditEvent.Type.SIGN_IN_LOCKED,
            AuditEvent.Type.SECOND_FACTOR_FAILURE);

    @Inject
    UserLookupService users;

    @Inject
    ClientService clients;

    @Inject
    SsoSessionRepository sessions;

    @Inject
    TokenGrantRepository grants;

    @Inject
    AuditEventRepository audit;

    private List<ConsoleAuditPage.EventRow> recent;

    public long getUsers() {
        return users.count();
    }

    public long getClients() {
        return clients.count();
    }

    public long getSessions() {
        return sessions.countLive();
    }

    public long getGrants() {
        return grants.countLive();
    }

    /** The latest failed sign-ins, failed second factors and lockouts, newest first. */
    public List<ConsoleAuditPage.EventRow> getRecentFailures() {
        if (recent == null) {
            recent = audit.recent(TROUBLE, RECENT).stream().map(ConsoleAuditPage::row).toList();
        }
        return recent;
    }
}
