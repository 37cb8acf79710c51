package dev.portcullis.audit;

import dev.portcullis.persistence.Jdbc;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Set;

/**
 * The one owner of audit_events, in plain JDBC (two events per code flow): the rows {@link AuditLog} writes, and the
 * reads of the admin API ({@code GET /admin/audit}), the console and the cleanup. Each method is one statement on the
 * caller's transaction, if any.
 */
@ApplicationScoped
public class AuditEventRepository {

    @Inject
    Jdbc jdbc;

    /** The INSERT, built once the database dialect is known (the id comes from audit_event_seq). */
    private volatile String insert;

    /** Writes {@code e}; its id comes from the sequence. */
    void add(AuditEvent e) {
        jdbc.update(insertStatement(), e.occurredAt().toEpochMilli(), e.type(), e.outcome(), e.clientId(),
                e.subject(), e.ip(), e.detail(), e.actor());
    }

    /**
     * One page of the trail, oldest first: events at or after {@code sinceMs} (epoch milliseconds) with an id above
     * {@code afterId}, of {@code type} when not null, at most {@code limit}.
     */
    public List<AuditEvent> list(long sinceMs, long afterId, String type, int limit) {
        String columns = "SELECT event_id, occurred_at_ms, event_type, outcome, client_id, subject, ip, detail, actor "
                + "FROM audit_events WHERE occurred_at_ms >= ? AND event_id > ?";
        String order = " ORDER BY event_id FETCH FIRST ? ROWS ONLY";
        return type == null
                ? jdbc.list(columns + order, AuditEventRepository::event, sinceMs, afterId, limit)
                : jdbc.list(columns + " AND event_type = ?" + order, AuditEventRepository::event, sinceMs, afterId, type, limit);
    }

    /**
     * What the console's audit page asks for; a null field does not filter. {@code subjects}: any of these (a user is
     * the subject of administrative changes and failed sign-ins by username, of successful sign-ins, factors and
     * tokens by user id). Times are epoch milliseconds.
     */
    public record Filter(String type, Set<String> subjects, String clientId, Long fromMs, Long toMs) {
        public Filter {
            if (subjects != null && subjects.isEmpty()) {
                throw new IllegalArgumentException("No subject to match: pass null for any");
            }
        }
    }

    /**
     * One page of the trail, newest first: the events matching {@code filter} with an id below {@code beforeId}
     * (keyset paging: the next page starts below the last id shown), at most {@code limit}.
     */
    public List<AuditEvent> search(Filter filter, Long beforeId, int limit) {
        StringBuilder sql = new StringBuilder("SELECT event_id, occurred_at_ms, event_type, outcome, client_id, "
                + "subject, ip, detail, actor FROM audit_events WHERE 1 = 1");
        List<Object> params = new ArrayList<>();
        condition(sql, params, " AND event_type = ?", filter.type());
        if (filter.subjects() != null) {
            sql.append(" AND subject IN (").append(String.join(",", Collections.nCopies(filter.subjects().size(), "?")))
                    .append(')');
            params.addAll(filter.subjects());
        }
        condition(sql, params, " AND client_id = ?", filter.clientId());
        condition(sql, params, " AND occurred_at_ms >= ?", filter.fromMs());
        condition(sql, params, " AND occurred_at_ms < ?", filter.toMs());
        condition(sql, params, " AND event_id < ?", beforeId);
        sql.append(" ORDER BY event_id DESC FETCH FIRST ? ROWS ONLY");
        params.add(limit);
        return jdbc.list(sql.toString(), AuditEventRepository::event, params.toArray());
    }

    /** The newest events of these types (the console's dashboard: recent sign-in failures and lockouts). */
    public List<AuditEvent> recent(Collection<AuditEvent.Type> types, int limit) {
        String marks = String.join(",", Collections.nCopies(types.size(), "?"));
        List<Object> params = new ArrayList<>();
        types.forEach(t -> params.add(t.name()));
        params.add(limit);
        return jdbc.list("SELECT event_id, occurred_at_ms, event_type, outcome, client_id, subject, ip, detail, actor "
                + "FROM audit_events WHERE event_type IN (" + marks + ") ORDER BY event_id DESC FETCH FIRST ? ROWS ONLY",
                AuditEventRepository::event, params.toArray());
    }

    private static void condition(StringBuilder sql, List<Object> params, String clause, Object value) {
        if (value != null) {
            sql.append(clause);
            params.add(value);
        }
    }

    static AuditEvent event(Jdbc.Row row) throws SQLException {
        return new AuditEvent(row.longValue("event_id"), Instant.ofEpochMilli(row.longValue("occurred_at_ms")),
                row.string("event_type"), row.string("outcome"), row.string("client_id"), row.string("subject"),
                row.string("ip"), row.string("detail"), row.string("actor"));
    }

    /** Deletes events older than {@code before} (the retention the cleanup applies: portcullis.audit.retention-days). */
    public int purgeOlderThan(Instant before) {
        return jdbc.deleteInChunks("audit_events", "event_id", "occurred_at_ms < ?", before.toEpochMilli());
    }

    private String insertStatement() {
        String sql = insert;
        if (sql == null) {
            sql = "INSERT INTO audit_events (event_id, occurred_at_ms, event_type, outcome, client_id, subject, ip, "
                    + "detail, actor) VALUES (" + jdbc.nextValue("audit_event_seq") + ",?,?,?,?,?,?,?,?)";
            insert = sql;
        }
        return sql;
    }
}
