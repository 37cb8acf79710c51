package dev.portcullis.account;

import java.time.Duration;

/**
 * The brute-force policy of sign-in as pure functions over one counter (per account or per client address), so it
 * can be unit-tested without a clock or a database.
 *
 * <ul>
 *   <li>Failures are counted within a window ({@code portcullis.login.failure-window}) from the first one.</li>
 *   <li>From failure {@code slowdownAfter} on, the next attempt must wait 1, 2, 4, ... seconds (at most 30):
 *       attempts during the wait are refused without checking the password and are not counted.</li>
 *   <li>At {@code maxFailures} the key is locked for {@code lockout}. When the lock ends the counter starts from
 *       zero, so nobody can lock an account forever; an attacker must keep failing, which the per-address delay
 *       slows. An address has no maximum (only the delay), so nobody behind a shared address is locked out.</li>
 * </ul>
 */
public final class ThrottlePolicy {

    static final long MAX_DELAY_SECONDS = 30;

    private ThrottlePolicy() {
    }

    public enum Verdict { ALLOW, WAIT, LOCKED }

    /** One stored counter (a row of login_throttle); lockedUntil is null when not blocked. */
    public record Counter(int failures, long firstFailureAt, Long lockedUntil) {
    }

    public record Limits(int maxFailures, int slowdownAfter, Duration lockout, Duration window) {
    }

    /** May an attempt be made now? */
    public static Verdict check(Counter c, long now) {
        if (c == null || c.lockedUntil() == null || c.lockedUntil() <= now) {
            return Verdict.ALLOW;
        }
        return Verdict.WAIT;
    }

    /** The verdict to report when {@link #check} did not allow: LOCKED once the maximum was reached. */
    public static Verdict blockKind(Counter c, Limits l) {
        return c.failures() >= l.maxFailures() ? Verdict.LOCKED : Verdict.WAIT;
    }

    /** Whether the counter is locked at {@code now}: its maximum was reached, which is more than a slow-down. */
    public static boolean locked(Counter c, long now, Limits l) {
        return check(c, now) != Verdict.ALLOW && blockKind(c, l) == Verdict.LOCKED;
    }

    /** The counter after one more failed attempt at {@code now}. */
    public static Counter afterFailure(Counter c, long now, Limits l) {
        boolean fresh = c == null
                || now - c.firstFailureAt() >= l.window().getSeconds()
                || c.failures() >= l.maxFailures() && c.lockedUntil() != null && c.lockedUntil() <= now;
        int failures = fresh ? 1 : c.failures() + 1;
        long first = fresh ? now : c.firstFailureAt();
        Long lockedUntil = null;
        if (failures >= l.maxFailures()) {
            lockedUntil = now + l.lockout().getSeconds();
        } else if (failures >= l.slowdownAfter()) {
            lockedUntil = now + delaySeconds(failures - l.slowdownAfter());
        }
        return new Counter(failures, first, lockedUntil);
    }

    /** 1, 2, 4, ... seconds, capped at {@link #MAX_DELAY_SECONDS}. */
    static long delaySeconds(int stepsPastSlowdown) {
        return Math.min(1L << Math.min(stepsPastSlowdown, 10), MAX_DELAY_SECONDS);
    }
}
