package dev.portcullis.console;

import dev.portcullis.account.UserLookupService;
import dev.portcullis.audit.AuditEvent;
import dev.portcullis.audit.AuditEventRepository;
import dev.portcullis.signin.SignedInUser;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.inject.Named;
import jakarta.servlet.http.HttpServletRequest;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Backing bean of {@code /admin/console/audit.xhtml}: the audit trail newest first, filtered by event type, user
 * (by username or user id, whichever the event names), client and a time range (UTC), paged by event id (keyset:
 * "older" continues below the last id shown, so paging stays exact while new events arrive). A GET form: filters are
 * bookmarkable and change nothing.
 * Values are shown by Faces, which escapes them; control characters were already escaped when the event was written.
 */
@Named("consoleAudit")
@RequestScoped
public class ConsoleAuditPage {

    static final int PAGE = 50;

    @Inject
    SignedInUser signedIn;

    @Inject
    AuditEventRepository audit;

    @Inject
    UserLookupService users;

    @Inject
    HttpServletRequest request;

    private List<EventRow> rows;
    private boolean badFilter;

    /** One event as the page lists it. */
    public record EventRow(long id, String when, String type, String outcome, String user, String client, String ip,
                           String actor, String detail) {
    }

    static EventRow row(AuditEvent e) {
        return new EventRow(e.id(), ConsolePages.when(e.occurredAt()), e.type(), e.outcome(), dash(e.subject()),
                dash(e.clientId()), dash(e.ip()), dash(e.actor()), e.detail() == null ? "" : e.detail());
    }

    private static String dash(String s) {
        return s == null ? "—" : s;
    }

    /** Every event type, for the filter's choice. */
    public List<String> getTypes() {
        return Arrays.stream(AuditEvent.Type.values()).map(Enum::name).toList();
    }

    public String getType() {
        return text("type", 40);
    }

    public String getUser() {
        return text("user", 100);
    }

    public String getClient() {
        return text("client", 64);
    }

    public String getFrom() {
        return text("from", 20);
    }

    public String getTo() {
        return text("to", 20);
    }

    public boolean isBadFilter() {
        getEvents();
        return badFilter;
    }

    public List<EventRow> getEvents() {
        if (rows == null) {
            rows = List.of();
            try {
                String type = getType().isEmpty() ? null : AuditEvent.Type.valueOf(getType()).name();
                Long before = getBefore();
                AuditEventRepository.Filter filter = new AuditEventRepository.Filter(type, subjects(getUser()), blankToNull(getClient()),
                        instant(getFrom()), instant(getTo()));
                rows = audit.search(filter, before, PAGE).stream().map(ConsoleAuditPage::row).toList();
            } catch (IllegalArgumentException | DateTimeParseException e) {
                badFilter = true;
                signedIn.status(400);
            }
        }
        return rows;
    }

    /** The link to older events with the same filters, or null on the last page. */
    public String getOlderPage() {
        List<EventRow> page = getEvents();
        if (page.size() < PAGE) {
            return null;
        }
        return "audit.xhtml?type=" + ConsolePages.enc(getType()) + "&user=" + ConsolePages.enc(getUser())
                + "&client=" + ConsolePages.enc(getClient()) + "&from=" + ConsolePages.enc(getFrom())
                + "&to=" + ConsolePages.enc(getTo()) + "&before=" + page.get(page.size() - 1).id();
    }

    private Long getBefore() {
        String before = text("before", 19);
        return before.isEmpty() ? null : Long.valueOf(before);
    }

    /** A filter value: present at most once, bounded, no control characters (else the filter is refused). */
    private String text(String name, int max) {
        String v = signedIn.parameter(name, max);
        if (v == null && request.getParameter(name) != null) {
            badFilter = true;
            signedIn.status(400);
            return "";
        }
        return v == null ? "" : v.strip();
    }

    /**
     * The subjects the user filter matches: what was typed, and for a user named by username or user id both of
     * theirs, since administrative changes and failed sign-ins name a user by username, successful sign-ins, factors
     * and tokens by user id.
     */
    private Set<String> subjects(String typed) {
        if (typed.isBlank()) {
            return null;
        }
        Set<String> subjects = new LinkedHashSet<>(List.of(typed, typed.toLowerCase(Locale.ROOT)));
        users.findByUsername(typed).or(() -> users.findById(typed))
                .ifPresent(u -> subjects.addAll(List.of(u.username(), u.userId())));
        return subjects;
    }

    private static String blankToNull(String s) {
        return s == null || s.isBlank() ? null : s;
    }

    /** {@code 2026-11-24} (midnight UTC) or {@code 2026-11-24T06:30} (UTC) as epoch milliseconds; blank: no bound. */
    static Long instant(String text) {
        if (text == null || text.isBlank()) {
            return null;
        }
        if (text.length() == 10) {
            return LocalDate.parse(text).atStartOfDay().toInstant(ZoneOffset.UTC).toEpochMilli();
        }
        return LocalDateTime.parse(text).toInstant(ZoneOffset.UTC).toEpochMilli();
    }
}
