package dev.portcullis.account;

import dev.portcullis.config.ThrottleSettings;
import dev.portcullis.crypto.Secrets;
import dev.portcullis.protocol.ClientAddress;
import dev.portcullis.protocol.Username;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Clock;
import java.util.Locale;
import java.util.Optional;

/**
 * Applies {@link ThrottlePolicy} to sign-in, with counters in the database (table login_throttle, owned by
 * {@link ThrottleCounterRepository}) so every instance sees the same numbers; a row is a
 * {@link ThrottlePolicy.Counter} under its key ("user:name" or "ip:address"). Two counters:
 *
 * <ul>
 *   <li>per account name (whether or not the account exists, so the answer never reveals that): an attempt is
 *       {@linkplain #reserve reserved} before the password is verified, by one conditional statement that only
 *       succeeds while the account is not blocked, so concurrent attempts cannot overtake the count; a success
 *       {@linkplain #recordSuccess clears} it. It slows down, then locks the account.</li>
 *   <li>per client address (IPv6 per /64): counted after a wrong password, and it only ever slows down (growing
 *       delay), since many people can share one address behind a NAT or a proxy.</li>
 * </ul>
 *
 * Every statement commits on its own (no transaction, no connection held while a hash is computed).
 */
@ApplicationScoped
public class SignInThrottle {

    /** Compare-and-set rounds before a reservation gives up (and refuses, as a wait) under extreme contention. */
    static final int MAX_ROUNDS = 20;

    private static final ThrottleCounterRepository.Table TABLE = ThrottleCounterRepository.Table.LOGIN;

    @Inject
    ThrottleCounterRepository counters;

    @Inject
    ThrottleSettings throttleSettings;

    @Inject
    Clock clock;

    /**
     * One reserved attempt on an account: ALLOW with the counter before and after the reservation, or why not
     * (WAIT, LOCKED).
     */
    public record Reservation(ThrottlePolicy.Verdict verdict, String key, ThrottlePolicy.Counter before,
                              ThrottlePolicy.Counter after, int maxFailures) {

        public boolean allowed() {
            return verdict == ThrottlePolicy.Verdict.ALLOW;
        }

        /** Whether this attempt is the one that locked the account (when its password is wrong). */
        public boolean locks() {
            return allowed() && after.failures() >= maxFailures;
        }
    }

    /**
     * ALLOW, or WAIT while the client address is slowed down (an address is never locked out); when it is, whether
     * the account is locked too, so the answer names the stricter reason.
     */
    public ThrottlePolicy.Verdict checkAddress(String ip, String username) {
        long now = now();
        if (ThrottlePolicy.check(read(ipKey(ip)).orElse(null), now) == ThrottlePolicy.Verdict.ALLOW) {
            return ThrottlePolicy.Verdict.ALLOW;
        }
        ThrottlePolicy.Counter account = read(accountKey(username)).orElse(null);
        return ThrottlePolicy.check(account, now) == ThrottlePolicy.Verdict.ALLOW ? ThrottlePolicy.Verdict.WAIT
                : ThrottlePolicy.blockKind(account, accountLimits());
    }

    /** Whether wrong passwords locked the account now (a slow-down is not a lock); counts nothing. */
    public boolean locked(String username) {
        return read(accountKey(username)).filter(c -> ThrottlePolicy.locked(c, now(), accountLimits())).isPresent();
    }

    /** Counts one attempt on the account before its password is verified, if the account is not blocked. */
    public Reservation reserve(String username) {
        String key = accountKey(username);
        ThrottlePolicy.Limits limits = accountLimits();
        for (int round = 0; round < MAX_ROUNDS; round++) {
            long now = now();
            ThrottlePolicy.Counter current = read(key).orElse(null);
            if (ThrottlePolicy.check(current, now) != ThrottlePolicy.Verdict.ALLOW) {
                return new Reservation(ThrottlePolicy.blockKind(current, limits), key, current, current,
                        limits.maxFailures());
            }
            ThrottlePolicy.Counter next = ThrottlePolicy.afterFailure(current, now, limits);
            if (compareAndSet(key, current, next)) {
                return new Reservation(ThrottlePolicy.Verdict.ALLOW, key, current, next, limits.maxFailures());
            }
        }
        return new Reservation(ThrottlePolicy.Verdict.WAIT, key, null, null, limits.maxFailures());
    }

    /**
     * Gives a reservation back when no password was verified for it (the hash was too busy to run), if nothing
     * counted on the account since: otherwise it stays counted, which only errs on the careful side.
     */
    public void giveBack(Reservation r) {
        if (r.allowed()) {
            compareAndSet(r.key(), r.after(), r.before());
        }
    }

    /** Counts a wrong password on the client address; the delay grows from the address maximum on. */
    public void recordAddressFailure(String ip) {
        String key = ipKey(ip);
        for (int round = 0; round < MAX_ROUNDS; round++) {
            ThrottlePolicy.Counter current = read(key).orElse(null);
            if (compareAndSet(key, current, ThrottlePolicy.afterFailure(current, now(), ipLimits()))) {
                return;
            }
        }
        // lost every race: other failures from this address were counted meanwhile, which slows it down anyway
    }

    /** A successful sign-in clears the account's counter (not the address's: one good account must not unlock it). */
    public void recordSuccess(String username) {
        clear(username);
    }

    /** Deletes the account's counter, ending a lock or slowdown at once; whether there was one. */
    public boolean clear(String username) {
        return counters.delete(TABLE, accountKey(username));
    }

    /**
     * Deletes counters that no longer matter: not blocked now and their window is over. Outside a transaction, in
     * chunks that commit on their own.
     */
    public int purgeStale() {
        long now = now();
        return counters.purgeStale(TABLE, now, staleBefore(now, throttleSettings));
    }

    private long now() {
        return clock.instant().getEpochSecond();
    }

    private Optional<ThrottlePolicy.Counter> read(String key) {
        return counters.read(TABLE, key);
    }

    private boolean compareAndSet(String key, ThrottlePolicy.Counter expected, ThrottlePolicy.Counter next) {
        return counters.compareAndSet(TABLE, key, expected, next);
    }

    /** The end of the window of a counter that is stale at {@code now}: neither counting nor locking. */
    static long staleBefore(long now, ThrottleSettings settings) {
        return now - Math.max(settings.failureWindow().getSeconds(), settings.lockout().getSeconds());
    }

    ThrottlePolicy.Limits accountLimits() {
        return accountLimits(throttleSettings);
    }

    /** The {@code portcullis.login.*} limits of an account, for passwords and (in their own counter) second factors. */
    static ThrottlePolicy.Limits accountLimits(ThrottleSettings limits) {
        return new ThrottlePolicy.Limits(limits.maxFailures(), limits.slowdownAfter(), limits.lockout(),
                limits.failureWindow());
    }

    ThrottlePolicy.Limits ipLimits() {
        // no maximum that locks: from ip-max-failures on, only the growing delay
        return new ThrottlePolicy.Limits(Integer.MAX_VALUE, throttleSettings.ipMaxFailures(),
                throttleSettings.lockout(), throttleSettings.failureWindow());
    }

    /**
     * The counter of a typed username. A name no account can have (control characters, NUL, other scripts) is
     * counted under its digest, so whatever was typed never reaches a SQL parameter as text.
     */
    static String accountKey(String username) {
        String u = username == null ? "" : username.strip().toLowerCase(Locale.ROOT);
        return Username.isWellFormed(u) || u.isEmpty() ? "user:" + u : "user:#" + Secrets.hash(u);
    }

    static String ipKey(String ip) {
        String i = ip == null ? ClientAddress.UNKNOWN : ClientAddress.counterKey(ip);
        return "ip:" + (i.length() > 64 ? i.substring(0, 64) : i);
    }
}
