package dev.portcullis.account;

import dev.portcullis.config.ThrottleSettings;

/**
 * The SQL both throttle tables share (a {@link ThrottlePolicy.Counter} under a key), for each table's one owner,
 * {@link SignInThrottle} or {@link SecondFactorThrottle}, to run on its own table.
 */
record ThrottleTable(String table, String keyColumn) {

    /** Counters that no longer matter: not blocked at the first parameter, window over at the second. */
    static final String STALE = "(locked_until IS NULL OR locked_until <= ?) AND first_failure_at <= ?";

    /** The counter of a key. */
    String select() {
        return "SELECT failures, first_failure_at, locked_until FROM " + table + " WHERE " + keyColumn + " = ?";
    }

    /** A key's first counter: key, failures, first failure, locked until. */
    String insert() {
        return "INSERT INTO " + table + " (" + keyColumn + ", failures, first_failure_at, locked_until) "
                + "VALUES (?,?,?,?)";
    }

    /** The end of the window of a counter that is {@link #STALE} at {@code now}: neither counting nor locking. */
    static long staleBefore(long now, ThrottleSettings settings) {
        return now - Math.max(settings.failureWindow().getSeconds(), settings.lockout().getSeconds());
    }
}
