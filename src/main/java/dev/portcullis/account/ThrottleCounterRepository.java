package dev.portcullis.account;

import dev.portcullis.persistence.Jdbc;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.sql.SQLException;
import java.util.Optional;

/**
 * The one owner of the two throttle tables, in plain JDBC: a {@link ThrottlePolicy.Counter} under a key, in
 * login_throttle ({@link SignInThrottle}: "user:name" or "ip:address") and second_factor_throttle
 * ({@link SecondFactorThrottle}: the user id). Every change is one statement that the database applies atomically
 * to the row, so any number of instances and concurrent requests see one count; none runs in a transaction.
 */
@ApplicationScoped
public class ThrottleCounterRepository {

    /** A throttle table: its name and key column. */
    enum Table {
        LOGIN("login_throttle", "throttle_key"),
        SECOND_FACTOR("second_factor_throttle", "user_id");

        private final String select;
        private final String insert;
        private final String delete;
        private final String deleteIfUnchanged;
        private final String updateIfUnchanged;
        private final String name;
        private final String keyColumn;

        Table(String name, String keyColumn) {
            this.name = name;
            this.keyColumn = keyColumn;
            select = "SELECT failures, first_failure_at, locked_until FROM " + name + " WHERE " + keyColumn + " = ?";
            insert = "INSERT INTO " + name + " (" + keyColumn + ", failures, first_failure_at, locked_until) "
                    + "VALUES (?,?,?,?)";
            delete = "DELETE FROM " + name + " WHERE " + keyColumn + " = ?";
            deleteIfUnchanged = delete + " AND failures = ? AND first_failure_at = ?";
            updateIfUnchanged = "UPDATE " + name + " SET failures = ?, first_failure_at = ?, locked_until = ? WHERE "
                    + keyColumn + " = ? AND failures = ? AND first_failure_at = ?";
        }
    }

    /** Counters that no longer matter: not blocked at the first parameter, window over at the second. */
    private static final String STALE = "(locked_until IS NULL OR locked_until <= ?) AND first_failure_at <= ?";

    /**
     * Counts a second-factor attempt unless the account's factors are blocked now, every value derived from the
     * stored row (the parameters of {@link #countSecondFactor}).
     */
    private static final String COUNT_SECOND_FACTOR = "UPDATE second_factor_throttle SET "
            + "failures = CASE WHEN first_failure_at <= ? OR failures >= ? THEN 1 ELSE failures + 1 END, "
            + "locked_until = CASE WHEN first_failure_at <= ? OR failures >= ? THEN CAST(? AS BIGINT) "
            + "WHEN failures + 1 >= ? THEN ? "
            + "WHEN failures + 1 >= ? THEN ? + " + delayCase("failures + 1 - ?") + " ELSE NULL END, "
            + "first_failure_at = CASE WHEN first_failure_at <= ? OR failures >= ? THEN ? ELSE first_failure_at END "
            + "WHERE user_id = ? AND (locked_until IS NULL OR locked_until <= ?)";

    @Inject
    Jdbc jdbc;

    /** The counter under {@code key}, if any. */
    Optional<ThrottlePolicy.Counter> read(Table table, String key) {
        return jdbc.one(table.select, ThrottleCounterRepository::counter, key);
    }

    /**
     * Replaces the counter {@code expected} (null: no row) by {@code next} (null: no row) in one conditional
     * statement; false when another attempt changed the row first. A counter's failures and window start identify
     * it: every change either counts one more failure or starts a new window.
     */
    boolean compareAndSet(Table table, String key, ThrottlePolicy.Counter expected, ThrottlePolicy.Counter next) {
        if (expected == null) {
            // false when another attempt inserted the key first (it may be cleared again already)
            return insertUnlessTaken(table, key, next);
        }
        if (next == null) {
            return jdbc.update(table.deleteIfUnchanged, key, expected.failures(), expected.firstFailureAt()) == 1;
        }
        return jdbc.update(table.updateIfUnchanged, next.failures(), next.firstFailureAt(), next.lockedUntil(), key,
                expected.failures(), expected.firstFailureAt()) == 1;
    }

    /** Inserts the key's first counter; false when another attempt inserted it first. */
    boolean insertUnlessTaken(Table table, String key, ThrottlePolicy.Counter first) {
        return jdbc.insertUnlessTaken(table.insert, key, first.failures(), first.firstFailureAt(),
                first.lockedUntil());
    }

    /**
     * One more second-factor failure of {@code userId} at {@code now} under {@code l}, unless the row is locked now;
     * false when there is no row or it is locked (the caller reads it to tell which).
     */
    boolean countSecondFactor(String userId, long now, ThrottlePolicy.Limits l) {
        long windowStart = now - l.window().getSeconds();
        ThrottlePolicy.Counter first = ThrottlePolicy.afterFailure(null, now, l);
        return jdbc.update(COUNT_SECOND_FACTOR, windowStart, l.maxFailures(), windowStart, l.maxFailures(),
                first.lockedUntil(), l.maxFailures(), now + l.lockout().getSeconds(), l.slowdownAfter(), now,
                l.slowdownAfter(), windowStart, l.maxFailures(), now, userId, now) == 1;
    }

    /** Deletes the counter under {@code key}; whether there was one. */
    boolean delete(Table table, String key) {
        return jdbc.update(table.delete, key) == 1;
    }

    /**
     * Deletes the counters that are not blocked at {@code now} and whose window ended before {@code staleBefore}, in
     * chunks that commit on their own.
     */
    int purgeStale(Table table, long now, long staleBefore) {
        return jdbc.deleteInChunks(table.name, table.keyColumn, STALE, now, staleBefore);
    }

    static ThrottlePolicy.Counter counter(Jdbc.Row row) throws SQLException {
        return new ThrottlePolicy.Counter((int) row.longValue("failures"), row.longValue("first_failure_at"),
                row.nullableLong("locked_until"));
    }

    /** {@link ThrottlePolicy#delaySeconds} as a SQL CASE over the steps past the slow-down, up to its cap. */
    static String delayCase(String steps) {
        StringBuilder sql = new StringBuilder("CASE ").append(steps);
        for (int i = 0; ThrottlePolicy.delaySeconds(i) < ThrottlePolicy.MAX_DELAY_SECONDS; i++) {
            sql.append(" WHEN ").append(i).append(" THEN ").append(ThrottlePolicy.delaySeconds(i));
        }
        return sql.append(" ELSE ").append(ThrottlePolicy.MAX_DELAY_SECONDS).append(" END").toString();
    }
}
