package dev.portcullis.account;

import dev.portcullis.config.PortcullisConfig;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.LockModeType;
import jakarta.persistence.PersistenceContext;
import jakarta.persistence.PersistenceException;
import jakarta.transaction.Transactional;
import java.time.Clock;
import java.util.Locale;

/**
 * Applies {@link ThrottlePolicy} to sign-in, with counters in the database (table login_throttle) so every instance
 * sees the same numbers. Two independent counters: per account name (whether or not the account exists, so the
 * answer never reveals that) and per client IP (one source trying many accounts).
 */
@ApplicationScoped
public class SignInThrottle {

    @PersistenceContext(unitName = "portcullis")
    EntityManager em;

    @Inject
    PortcullisConfig config;

    @Inject
    Clock clock;

    /** ALLOW, or why not: WAIT (slow-down) or LOCKED. The stricter of the account and the IP counter. */
    @Transactional(Transactional.TxType.SUPPORTS)
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
        em.createQuery("DELETE FROM LoginThrottleEntry e WHERE e.key = :k")
                .setParameter("k", accountKey(username)).executeUpdate();
    }

    private ThrottlePolicy.Verdict verdict(String key, ThrottlePolicy.Limits limits, long now) {
        LoginThrottleEntry e = em.find(LoginThrottleEntry.class, key);
        if (e == null) {
            return ThrottlePolicy.Verdict.ALLOW;
        }
        ThrottlePolicy.Counter c = e.counter();
        return ThrottlePolicy.check(c, now) == ThrottlePolicy.Verdict.ALLOW
                ? ThrottlePolicy.Verdict.ALLOW : ThrottlePolicy.blockKind(c, limits);
    }

    private ThrottlePolicy.Counter fail(String key, ThrottlePolicy.Limits limits, long now) {
        LoginThrottleEntry e = em.find(LoginThrottleEntry.class, key, LockModeType.PESSIMISTIC_WRITE);
        ThrottlePolicy.Counter next;
        if (e == null) {
            next = ThrottlePolicy.afterFailure(null, now, limits);
            e = new LoginThrottleEntry(key);
            e.set(next);
            try {
                em.persist(e);
                em.flush();
            } catch (PersistenceException raced) {
                // another instance inserted the same key at the same moment; its count stands (one lost failure)
                return next;
            }
        } else {
            next = ThrottlePolicy.afterFailure(e.counter(), now, limits);
            e.set(next);
        }
        return next;
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
