package dev.portcullis.persistence;

import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.persistence.PersistenceException;
import jakarta.transaction.RollbackException;
import jakarta.transaction.Synchronization;
import jakarta.transaction.TransactionSynchronizationRegistry;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import javax.sql.DataSource;

/**
 * Plain JDBC for the hot-path tables (authorization codes, token families, SSO sessions, the audit trail, sign-in
 * throttling), each used by its one owner class only (docs/decisions.md, "Who owns which table"). Statements run on the application's datasource, so inside a JTA
 * transaction ({@code @Transactional}) they use the transaction's enlisted connection and commit or roll back with
 * it, together with any JPA work; outside one they auto-commit. Every statement is a {@link PreparedStatement} with
 * bound parameters (never concatenated values). Errors surface as {@link PersistenceFailure}, which the web layer
 * maps like any other database failure.
 */
@ApplicationScoped
public class Jdbc {

    /** Maps the current row of a result set. */
    @FunctionalInterface
    public interface RowMapper<T> {
        T map(Row row) throws SQLException;
    }

    /**
     * A result-set row with typed, null-aware getters, by column name. The names are resolved to positions once per
     * statement text ({@link #COLUMNS_BY_SQL}), because the drivers' own name lookup builds a name map for every
     * result set.
     */
    public static final class Row {
        private final ResultSet rs;
        private final Map<String, Integer> columns;

        Row(ResultSet rs, Map<String, Integer> columns) {
            this.rs = rs;
            this.columns = columns;
        }

        private int index(String column) throws SQLException {
            Integer i = columns.get(column);
            return i != null ? i : rs.findColumn(column); // not a label of this query: the driver's rules and error
        }

        public String string(String column) throws SQLException {
            return rs.getString(index(column));
        }

        public long longValue(String column) throws SQLException {
            return rs.getLong(index(column));
        }

        public Long nullableLong(String column) throws SQLException {
            long v = rs.getLong(index(column));
            return rs.wasNull() ? null : v;
        }

        public boolean bool(String column) throws SQLException {
            return rs.getBoolean(index(column));
        }

        /** A NOT NULL column of epoch seconds. */
        public Instant instant(String column) throws SQLException {
            return Instant.ofEpochSecond(rs.getLong(index(column)));
        }

        /** A nullable column of epoch seconds. */
        public Instant nullableInstant(String column) throws SQLException {
            Long v = nullableLong(column);
            return v == null ? null : Instant.ofEpochSecond(v);
        }

        /** A column of space-separated words ({@link Jdbc#words(Set)}), as a set in their order; empty for null. */
        public Set<String> words(String column) throws SQLException {
            String v = rs.getString(index(column));
            Set<String> words = new LinkedHashSet<>();
            for (String w : v == null ? new String[0] : v.split(" ")) {
                if (!w.isEmpty()) {
                    words.add(w);
                }
            }
            return Collections.unmodifiableSet(words);
        }
    }

    /**
     * How a column holds a set of words (an SSO session's clients, a sign-in's methods): space-separated in the set's
     * order; the empty string for none. {@link Row#words} reads it back.
     */
    public static String words(Set<String> words) {
        return String.join(" ", words);
    }

    /**
     * Column label (lower case) → position, per statement text. The statements are constants of this code base, so
     * the map stays small; a label that occurs twice keeps its first position, as {@link ResultSet#findColumn} does.
     */
    private static final Map<String, Map<String, Integer>> COLUMNS_BY_SQL = new ConcurrentHashMap<>();

    private static Map<String, Integer> columns(String sql, ResultSet rs) throws SQLException {
        Map<String, Integer> known = COLUMNS_BY_SQL.get(sql);
        if (known != null) {
            return known;
        }
        ResultSetMetaData meta = rs.getMetaData();
        Map<String, Integer> byLabel = new HashMap<>();
        for (int i = meta.getColumnCount(); i >= 1; i--) {
            byLabel.put(meta.getColumnLabel(i).toLowerCase(Locale.ROOT), i);
        }
        Map<String, Integer> columns = Map.copyOf(byLabel);
        COLUMNS_BY_SQL.put(sql, columns);
        return columns;
    }

    /**
     * Whether {@code e} comes from the database (unreachable, failed statement, rolled-back transaction), on the JDBC
     * path ({@link PersistenceFailure} wraps the SQLException) or JPA's. The one place that decides between "the
     * service is unavailable" (503) and a bug or a bad request.
     */
    public static boolean isDatabaseFailure(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof PersistenceException || t instanceof SQLException || t instanceof RollbackException
                    || t.getClass().getName().startsWith("org.eclipse.persistence.exceptions")) {
                return true;
            }
        }
        return false;
    }

    /** A database error on the JDBC path (unchecked, like JPA's PersistenceException). */
    public static final class PersistenceFailure extends RuntimeException {
        private static final long serialVersionUID = 1L;

        public PersistenceFailure(String sql, SQLException cause) {
            super("Database statement failed (" + cause.getSQLState() + "): " + firstWords(sql), cause);
        }

        /** Whether the statement lost to a row with the same key (SQLSTATE 23505, on H2 and PostgreSQL alike). */
        public boolean isUniqueViolation() {
            return getCause() instanceof SQLException s && "23505".equals(s.getSQLState());
        }

        private static String firstWords(String sql) {
            return sql.length() <= 40 ? sql : sql.substring(0, 40) + "...";
        }
    }

    @Inject
    DataSource dataSource;

    @Resource(lookup = "java:comp/TransactionSynchronizationRegistry")
    TransactionSynchronizationRegistry transactions;

    private volatile Boolean postgres;

    /**
     * Guards a statement that must commit together with the caller's JTA transaction (the single-use UPDATE and the
     * inserts of a token family). A direct registry call: {@code @Transactional(MANDATORY)} would cost an interceptor
     * per statement on the token path.
     */
    public void requireTransaction() {
        if (transactions.getTransactionKey() == null) {
            throw new IllegalStateException("This statement must run inside the caller's transaction");
        }
    }

    /** The opposite of {@link #requireTransaction()}: for work that commits step by step on its own. */
    private void requireNoTransaction(String why) {
        if (transactions.getTransactionKey() != null) {
            throw new IllegalStateException(why);
        }
    }

    /** The single row a query returns, or empty; more than one row is a programming error. */
    public <T> Optional<T> one(String sql, RowMapper<T> mapper, Object... params) {
        return execute(sql, params, ps -> {
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    return Optional.empty();
                }
                T value = mapper.map(new Row(rs, columns(sql, rs)));
                if (rs.next()) {
                    throw new IllegalStateException("More than one row: " + sql);
                }
                return Optional.of(value);
            }
        });
    }

    /** Every row a query returns, in its order. */
    public <T> List<T> list(String sql, RowMapper<T> mapper, Object... params) {
        return execute(sql, params, ps -> {
            try (ResultSet rs = ps.executeQuery()) {
                List<T> rows = new ArrayList<>();
                Map<String, Integer> columns = null;
                while (rs.next()) {
                    if (columns == null) {
                        columns = columns(sql, rs);
                    }
                    rows.add(mapper.map(new Row(rs, columns)));
                }
                return rows;
            }
        });
    }

    /** Runs an INSERT, UPDATE or DELETE; returns the number of rows it changed. */
    public int update(String sql, Object... params) {
        return execute(sql, params, PreparedStatement::executeUpdate);
    }

    /** Runs an INSERT; false, and nothing inserted, when a row with the same key was there first. */
    public boolean insertUnlessTaken(String sql, Object... params) {
        try {
            return update(sql, params) == 1;
        } catch (PersistenceFailure e) {
            if (e.isUniqueViolation()) {
                return false;
            }
            throw e;
        }
    }

    /** Rows per statement of {@link #deleteInChunks}. */
    public static final int DELETE_CHUNK = 5_000;

    /**
     * Deletes the rows of {@code table} that {@code condition} selects, at most {@value #DELETE_CHUNK} per statement,
     * each statement committing on its own: purging a large backlog (after downtime, or the first run after an
     * upgrade) never holds one long transaction with its locks and undo. Outside a transaction only. Table, key and
     * condition are constants of this code base; values go in {@code params}. Returns the number of rows deleted.
     */
    public int deleteInChunks(String table, String key, String condition, Object... params) {
        requireNoTransaction("A chunked delete commits chunk by chunk; it cannot join a transaction");
        String sql = "DELETE FROM " + table + " WHERE " + key + " IN (SELECT " + key + " FROM " + table + " WHERE "
                + condition + " FETCH FIRST " + DELETE_CHUNK + " ROWS ONLY)";
        int total = 0;
        int deleted;
        do {
            deleted = update(sql, params);
            total += deleted;
        } while (deleted == DELETE_CHUNK);
        return total;
    }

    /** What a statement does once prepared with its parameters. */
    @FunctionalInterface
    private interface StatementWork<T> {
        T run(PreparedStatement ps) throws SQLException;
    }

    /** Prepares {@code sql} on the transaction's connection (or an own one, closed afterwards) and runs it. */
    private <T> T execute(String sql, Object[] params, StatementWork<T> work) {
        Connection own = null;
        try {
            Connection c = transactionConnection();
            if (c == null) {
                c = own = dataSource.getConnection();
            }
            try (PreparedStatement ps = prepare(c, sql, params)) {
                return work.run(ps);
            }
        } catch (SQLException e) {
            throw new PersistenceFailure(sql, e);
        } finally {
            closeQuietly(own);
        }
    }

    /**
     * Inside a JTA transaction: one connection handle for all of its statements, taken at the first one and closed
     * when the transaction completes, because a handle per statement repeats the pool lookup, enlistment bookkeeping
     * and close events on every statement of the token path. Null outside a transaction.
     */
    private Connection transactionConnection() throws SQLException {
        if (transactions.getTransactionKey() == null) {
            return null;
        }
        Connection c = (Connection) transactions.getResource(Jdbc.class);
        if (c == null) {
            Connection fresh = dataSource.getConnection();
            transactions.putResource(Jdbc.class, fresh);
            transactions.registerInterposedSynchronization(new Synchronization() {
                @Override
                public void beforeCompletion() {
                    closeQuietly(fresh); // before commit: the physical connection stays enlisted until the end
                }

                @Override
                public void afterCompletion(int status) {
                    closeQuietly(fresh); // rollbacks skip beforeCompletion
                }
            });
            c = fresh;
        }
        return c;
    }

    private static void closeQuietly(Connection c) {
        if (c == null) {
            return;
        }
        try {
            if (!c.isClosed()) {
                c.close();
            }
        } catch (SQLException e) {
            // nothing to do: the pool discards a broken connection itself
        }
    }

    /**
     * The SQL expression that draws the next value of {@code sequence} (a constant name, never user input): H2
     * speaks the standard's {@code NEXT VALUE FOR}, PostgreSQL only {@code nextval()}. The dialect is read once,
     * from the driver's product name.
     */
    public String nextValue(String sequence) {
        Boolean pg = postgres;
        if (pg == null) {
            try (Connection c = dataSource.getConnection()) {
                pg = c.getMetaData().getDatabaseProductName().toLowerCase(Locale.ROOT).contains("postgres");
            } catch (SQLException e) {
                throw new PersistenceFailure("metadata", e);
            }
            postgres = pg;
        }
        return pg ? "nextval('" + sequence + "')" : "NEXT VALUE FOR " + sequence;
    }

    private static PreparedStatement prepare(Connection c, String sql, Object[] params) throws SQLException {
        PreparedStatement ps = c.prepareStatement(sql);
        try {
            for (int i = 0; i < params.length; i++) {
                Object p = params[i];
                if (p == null) {
                    ps.setObject(i + 1, null); // untyped: PostgreSQL infers the column type
                } else if (p instanceof String s) {
                    ps.setString(i + 1, s);
                } else if (p instanceof Long l) {
                    ps.setLong(i + 1, l);
                } else if (p instanceof Integer n) {
                    ps.setInt(i + 1, n);
                } else if (p instanceof Boolean b) {
                    ps.setBoolean(i + 1, b);
                } else {
                    throw new IllegalArgumentException("Unsupported parameter type " + p.getClass().getName());
                }
            }
            return ps;
        } catch (SQLException | RuntimeException e) {
            ps.close();
            throw e;
        }
    }
}
