package dev.portcullis.account;

import dev.portcullis.config.PortcullisConfig;
import dev.portcullis.persistence.Jdbc;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.transaction.Transactional;
import java.sql.SQLException;
import java.time.Clock;
import java.util.Locale;

/**
 * Applies {@link ThrottlePolicy} to sign-in, with counters in the database (table login_throttle) so every instance
 * sees the same numbers. Two independent counters: per account name (whether or not the account exists, so the
 * answer never reveals that) and per client IP (one source trying many accounts). The one owner of login_throttle,
 * in plain JDBC; a row is a {@link ThrottlePolicy.Counter} under its key ("user:name" or "ip:addr").
 */
@ApplicationScoped
public class SignInThrottle {

    @Inject
    Jdbc jdbc;

    @Inject
    PortcullisConfig config;

    @Inject
    Clock clock;

    /** ALLOW, or why not: WAIT (slow-down) or LOCKED. The stricter of the account and the IP counter. */
    public ThrottlePolicy.Verdict check(String username, String ip) {
        long now = clock.instant().getEpochSecond();
        ThrottlePolicy.Verdict byAccount = verdict(accountKey(username), accountLimits(), now);
        ThrottlePolicy.Verdict byIp = verdict(ipKey(ip), ipLimits(), now);
        return byAccount.compareTo(byIp) >= 0 ? byAccount : byIp;
    }

    /** Counts a failed attempt on both counters; returns LOCKED when this failure started a lock. */
    @Transactional(Transactional.TxType.REQUIRES_NEW)
    public ThrottlePolicy.Verdict recordFailure(String username, String ip) {
        long now = clock.instant().getEpochSecond();
        ThrottlePolicy.Counter account = fail(accountKey(username), accountLimits(), now);
        ThrottlePolicy.Counter byIp = fail(ipKey(ip), ipLimits(), now);
        return account.failures() >= accountLimits().maxFailures() || byIp.failures() >= ipLimits().maxFailures()
                ? ThrottlePolicy.Verdict.LOCKED : ThrottlePolicy.Verdict.ALLOW;
    }

    /** A successful sign-in clears the account's counter (not the IP's: one good account must not unlock an IP). */
    @Transactional(Transactional.TxType.REQUIRES_NEW)
    public void recordSuccess(String username) {
        jdbc.update("DELETE FROM login_throttle WHERE throttle_key = ?", accountKey(username));
    }

    /**
     * Deletes counters that no longer matter: not blocked now and their window is over. Outside a transaction, in
     * chunks that commit on their own.
     */
    public int purgeStale() {
        long now = clock.instant().getEpochSecond();
        long windowStart = now - Math.max(config.loginFailureWindow().getSeconds(), config.loginLockout().getSeconds());
        return jdbc.deleteInChunks("login_throttle", "throttle_key",
                "(locked_until IS NULL OR locked_until <= ?) AND first_failure_at <= ?", now, windowStart);
    }

    private ThrottlePolicy.Verdict verdict(String key, ThrottlePolicy.Limits limits, long now) {
        ThrottlePolicy.Counter c = jdbc.one("SELECT " + COLUMNS + " FROM login_throttle WHERE throttle_key = ?",
                SignInThrottle::counter, key).orElse(null);
        if (c == null) {
            return ThrottlePolicy.Verdict.ALLOW;
        }
        return ThrottlePolicy.check(c, now) == ThrottlePolicy.Verdict.ALLOW
                ? ThrottlePolicy.Verdict.ALLOW : ThrottlePolicy.blockKind(c, limits);
    }

    /** Counts a failure on one counter; the row stays locked (FOR UPDATE) until the caller's transaction ends. */
    private ThrottlePolicy.Counter fail(String key, ThrottlePolicy.Limits limits, long now) {
        jdbc.requireTransaction();
        ThrottlePolicy.Counter current = jdbc.one("SELECT " + COLUMNS + " FROM login_throttle WHERE throttle_key = ? "
                + "FOR UPDATE", SignInThrottle::counter, key).orElse(null);
        ThrottlePolicy.Counter next = ThrottlePolicy.afterFailure(current, now, limits);
        if (current != null) {
            jdbc.update("UPDATE login_throttle SET failures = ?, first_failure_at = ?, locked_until = ? "
                    + "WHERE throttle_key = ?", next.failures(), next.firstFailureAt(), next.lockedUntil(), key);
            return next;
        }
        try {
            jdbc.update("INSERT INTO login_throttle (throttle_key, failures, first_failure_at, locked_until) "
                    + "VALUES (?,?,?,?)", key, next.failures(), next.firstFailureAt(), next.lockedUntil());
        } catch (Jdbc.PersistenceFailure raced) {
            // another instance inserted the same key at the same moment; its count stands (one lost failure)
        }
        return next;
    }

    private static final String COLUMNS = "failures, first_failure_at, locked_until";

    static ThrottlePolicy.Counter counter(Jdbc.Row row) throws SQLException {
        return new ThrottlePolicy.Counter((int) row.longValue("failures"), row.longValue("first_failure_at"),
                row.nullableLong("locked_until"));
    }

    ThrottlePolicy.Limits accountLimits() {
        return new ThrottlePolicy.Limits(config.loginMaxFailures(), config.loginSlowdownAfter(),
                config.loginLockout(), config.loginFailureWindow());
    }

    ThrottlePolicy.Limits ipLimits() {
        // no slow-down per IP (a shared NAT would slow everyone); only the lock at the IP maximum
        return new ThrottlePolicy.Limits(config.loginIpMaxFailures(), config.loginIpMaxFailures(),
                config.loginLockout(), config.loginFailureWindow());
    }

    static String accountKey(String username) {
        String u = username == null ? "" : username.strip().toLowerCase(Locale.ROOT);
        return "user:" + (u.length() > 100 ? u.substring(0, 100) : u);
    }

    static String ipKey(String ip) {
        String i = ip == null ? "unknown" : ip;
        return "ip:" + (i.length() > 64 ? i.substring(0, 64) : i);
    }
}
