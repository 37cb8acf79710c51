package dev.portcullis.account;

import dev.portcullis.config.ThrottleSettings;
import dev.portcullis.persistence.Jdbc;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Clock;
import java.util.Optional;

/**
 * The second-factor counter of each account (table second_factor_throttle, plain JDBC, its one owner): failed
 * one-time codes, recovery codes and passkeys after the password, under the {@code portcullis.login.*} limits of
 * {@link ThrottlePolicy} (slow-down, then the account's second factors locked for {@code portcullis.login.lockout}).
 * It is apart from {@link SignInThrottle}, whose count a correct password clears: only a completed second factor
 * {@linkplain #clear clears} this one, so whoever knows the password gets no fresh round of code guesses.
 *
 * <p>Every step is one statement that the database applies atomically to the row (an attempt is counted by a
 * conditional UPDATE computed from the stored values, or the INSERT of the first failure), so any number of
 * instances and concurrent requests never check more codes than the limit allows. No transaction is held.
 */
@ApplicationScoped
public class SecondFactorThrottle {

    /** Counts an attempt unless the account's factors are blocked now; every value derives from the stored row. */
    private static final String COUNT = "UPDATE second_factor_throttle SET "
            + "failures = CASE WHEN first_failure_at <= ? OR failures >= ? THEN 1 ELSE failures + 1 END, "
            + "locked_until = CASE WHEN first_failure_at <= ? OR failures >= ? THEN CAST(? AS BIGINT) "
            + "WHEN failures + 1 >= ? THEN ? "
            + "WHEN failures + 1 >= ? THEN ? + " + delayCase("failures + 1 - ?") + " ELSE NULL END, "
            + "first_failure_at = CASE WHEN first_failure_at <= ? OR failures >= ? THEN ? ELSE first_failure_at END "
            + "WHERE user_id = ? AND (locked_until IS NULL OR locked_until <= ?)";

    private static final ThrottleTable TABLE = new ThrottleTable("second_factor_throttle", "user_id");

    @Inject
    Jdbc jdbc;

    @Inject
    ThrottleSettings throttleSettings;

    @Inject
    Clock clock;

    /** Counts one second-factor attempt of the account before the factor is checked; ALLOW, or WAIT / LOCKED. */
    public ThrottlePolicy.Verdict reserve(String userId) {
        ThrottlePolicy.Limits l = SignInThrottle.accountLimits(throttleSettings);
        for (int round = 0; round < SignInThrottle.MAX_ROUNDS; round++) {
            long now = clock.instant().getEpochSecond();
            long windowStart = now - l.window().getSeconds();
            ThrottlePolicy.Counter first = ThrottlePolicy.afterFailure(null, now, l);
            if (jdbc.update(COUNT, windowStart, l.maxFailures(), windowStart, l.maxFailures(), first.lockedUntil(),
                    l.maxFailures(), now + l.lockout().getSeconds(), l.slowdownAfter(), now, l.slowdownAfter(),
                    windowStart, l.maxFailures(), now, userId, now) == 1) {
                return ThrottlePolicy.Verdict.ALLOW;
            }
            Optional<ThrottlePolicy.Counter> stored = read(userId);
            if (stored.isPresent()) {
                if (ThrottlePolicy.check(stored.get(), now) != ThrottlePolicy.Verdict.ALLOW) {
                    return ThrottlePolicy.blockKind(stored.get(), l);
                }
            } else if (jdbc.insertUnlessTaken(TABLE.insert(), userId, first.failures(), first.firstFailureAt(),
                    first.lockedUntil())) {
                return ThrottlePolicy.Verdict.ALLOW;
            }
            // the row changed between the two statements (a lock ended, another attempt inserted it): count again
        }
        return ThrottlePolicy.Verdict.WAIT;
    }

    /** Whether the account's second factors are locked now (reaching the maximum, not a slow-down). */
    public boolean locked(String userId) {
        return read(userId).filter(c -> ThrottlePolicy.locked(c, clock.instant().getEpochSecond(),
                SignInThrottle.accountLimits(throttleSettings))).isPresent();
    }

    /** A completed second factor (or an administrator's unlock) clears the account's count; whether there was one. */
    public boolean clear(String userId) {
        return jdbc.update("DELETE FROM second_factor_throttle WHERE user_id = ?", userId) == 1;
    }

    /** Deletes counters that no longer matter (not blocked, window over), in chunks that commit on their own. */
    public int purgeStale() {
        long now = clock.instant().getEpochSecond();
        return jdbc.deleteInChunks(TABLE.table(), TABLE.keyColumn(), ThrottleTable.STALE, now,
                ThrottleTable.staleBefore(now, throttleSettings));
    }

    private Optional<ThrottlePolicy.Counter> read(String userId) {
        return jdbc.one(TABLE.select(), SignInThrottle::counter, userId);
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
