package dev.portcullis.testing;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Direct JDBC access to the database the server under test uses, for assertions about what is (not) stored:
 * hashes instead of secrets, no half-written rows. The ITs' H2 URL has AUTO_SERVER (see ItEnvironment), so the
 * test JVM can open the file the server has open.
 */
public final class Db {

    private Db() {
    }

    public static Connection connect() throws SQLException {
        return DriverManager.getConnection(System.getProperty("portcullis.test.jdbc-url"),
                System.getProperty("portcullis.test.jdbc-user"), System.getProperty("portcullis.test.jdbc-password"));
    }

    /** Rows of a query, each as column (lower-case) to value. */
    public static List<Map<String, Object>> rows(String sql, Object... params) {
        try (Connection c = connect(); PreparedStatement ps = c.prepareStatement(sql)) {
            for (int i = 0; i < params.length; i++) {
                ps.setObject(i + 1, params[i]);
            }
            try (ResultSet rs = ps.executeQuery()) {
                ResultSetMetaData md = rs.getMetaData();
                List<Map<String, Object>> out = new ArrayList<>();
                while (rs.next()) {
                    Map<String, Object> row = new LinkedHashMap<>();
                    for (int i = 1; i <= md.getColumnCount(); i++) {
                        row.put(md.getColumnLabel(i).toLowerCase(Locale.ROOT), rs.getObject(i));
                    }
                    out.add(row);
                }
                return out;
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The tables of the schema the server uses (H2 or PostgreSQL), as the database spells them, sorted. */
    public static List<String> tables() {
        return rows("SELECT table_name FROM information_schema.tables WHERE table_schema = CURRENT_SCHEMA "
                + "AND table_type IN ('BASE TABLE', 'TABLE') ORDER BY table_name").stream()
                .map(r -> String.valueOf(r.get("table_name"))).toList();
    }

    /**
     * Every row of every table, each as its columns' text in name order, without the columns {@code leftOut}
     * (lower-case); the rows of a table sorted, so that two snapshots compare by contents alone.
     */
    public static Map<String, List<String>> everyRow(Set<String> leftOut) {
        Map<String, List<String>> m = new TreeMap<>();
        for (String table : tables()) {
            // quoted: Flyway's history table is named in lower case even on H2
            m.put(table.toLowerCase(Locale.ROOT), rows("SELECT * FROM \"" + table + "\"").stream()
                    .map(row -> {
                        Map<String, String> kept = new TreeMap<>();
                        row.forEach((column, value) -> {
                            if (!leftOut.contains(column)) {
                                kept.put(column, String.valueOf(value));
                            }
                        });
                        return kept.toString();
                    })
                    .sorted().toList());
        }
        return m;
    }

    /**
     * The tables the scheduled purge of expired rows deletes from: it runs every 10 minutes on each server and is
     * nobody's request, so a test that compares every row lets rows leave these tables while it ran.
     */
    public static final Set<String> PURGED_TABLES = Set.of("sso_sessions", "login_throttle", "second_factor_throttle",
            "authorization_codes", "access_tokens", "refresh_tokens", "token_grants", "client_assertion_jtis",
            "kerberos_authenticators", "pushed_authorization_requests", "request_object_jtis");

    /** The newest audit event's id (0 when there is none): where a test's own events begin. */
    public static long lastAuditEvent() {
        return count("SELECT COALESCE(MAX(event_id), 0) FROM audit_events");
    }

    /** Whether the scheduled purge deleted rows after the audit event {@code lastAuditEvent}. */
    public static boolean purgedSince(long lastAuditEvent) {
        return count("SELECT COUNT(*) FROM audit_events WHERE event_id > ? AND event_type = 'EXPIRED_ROWS_PURGED'",
                lastAuditEvent) > 0;
    }

    /**
     * {@code after} with the rows the scheduled purge deleted since {@code before} put back, so that it compares with
     * {@code before} by what requests did: when an {@code EXPIRED_ROWS_PURGED} event came after {@code lastAuditEvent},
     * a purged table may only have lost rows (else it is returned as it is, and the comparison fails).
     */
    public static Map<String, List<String>> withoutPurge(Map<String, List<String>> before,
                                                         Map<String, List<String>> after, long lastAuditEvent) {
        if (!purgedSince(lastAuditEvent)) {
            return after;
        }
        Map<String, List<String>> restored = new TreeMap<>(after);
        for (String table : PURGED_TABLES) {
            if (before.containsKey(table) && before.get(table).containsAll(after.getOrDefault(table, List.of()))) {
                restored.put(table, before.get(table));
            }
        }
        return restored;
    }

    public static long count(String sql, Object... params) {
        Object v = rows(sql, params).get(0).values().iterator().next();
        return ((Number) v).longValue();
    }

    public static int update(String sql, Object... params) {
        try (Connection c = connect(); PreparedStatement ps = c.prepareStatement(sql)) {
            for (int i = 0; i < params.length; i++) {
                ps.setObject(i + 1, params[i]);
            }
            return ps.executeUpdate();
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }
}
