package dev.portcullis.console;

import dev.portcullis.access.AccessService;
import dev.portcullis.protocol.Username;
import dev.portcullis.signin.SignedInUser;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.inject.Named;
import java.util.List;
import java.util.Set;

/**
 * Backing bean of {@code /admin/console/sessions.xhtml}: every live SSO session (user, clients, started, last used,
 * sign-in address), all or one user's, a page at a time in id order, and "end" on each ({@link AccessService#endSession},
 * audited with the administrator's id).
 */
@Named("consoleSessions")
@RequestScoped
public class ConsoleSessionsPage {

    static final int PAGE = 50;

    @Inject
    SignedInUser signedIn;

    @Inject
    ConsoleForm form;

    @Inject
    AccessService access;

    private List<ConsolePages.SessionRow> rows;

    /** The username the list is narrowed to (the query's {@code user}), or empty for every session. */
    public String getUser() {
        String user = signedIn.parameter("user", Username.MAX_LENGTH);
        return user == null ? "" : user.strip();
    }

    public List<ConsolePages.SessionRow> getSessions() {
        if (rows == null) {
            String after = signedIn.parameter("after", 64);
            String user = getUser().isEmpty() ? null : getUser();
            rows = access.sessions(user, after, PAGE).orElse(List.of()).stream().map(ConsolePages::row).toList();
        }
        return rows;
    }

    /** The link to the next page, or null on the last one. */
    public String getNextPage() {
        List<ConsolePages.SessionRow> page = getSessions();
        return page.size() < PAGE ? null : "sessions.xhtml?user=" + ConsolePages.enc(getUser()) + "&after="
                + ConsolePages.enc(page.get(page.size() - 1).id());
    }

    /** Ends the session of the row's hidden field {@code session}. */
    public String end() {
        form.submit(actor -> {
            String id = signedIn.parameter("session", 64);
            boolean ended = id != null && access.endSession(id, actor);
            signedIn.redirect("/admin/console/sessions.xhtml?done="
                    + (ended ? "console.sessions.ended" : "console.sessions.gone"));
        });
        return null;
    }

    public String getDoneKey() {
        return ConsolePages.done(signedIn, Set.of("console.sessions.ended", "console.sessions.gone"));
    }

}
