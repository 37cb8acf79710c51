package dev.portcullis.account;

import dev.portcullis.config.ThrottleSettings;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Clock;
import java.util.Optional;

/**
 * The second-factor counter of each account (table second_factor_throttle, owned by {@link ThrottleCounterRepository}): failed
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

    private static final ThrottleCounterRepository.Table TABLE = ThrottleCounterRepository.Table.SECOND_FACTOR;

    @Inject
    ThrottleCounterRepository counters;

    @Inject
    ThrottleSettings throttleSettings;

    @Inject
    Clock clock;

    /** Counts one second-factor attempt of the account before the factor is checked; ALLOW, or WAIT / LOCKED. */
    public ThrottlePolicy.Verdict reserve(String userId) {
        ThrottlePolicy.Limits l = SignInThrottle.accountLimits(throttleSettings);
        for (int round = 0; round < SignInThrottle.MAX_ROUNDS; round++) {
            long now = clock.instant().getEpochSecond();
            if (counters.countSecondFactor(userId, now, l)) {
                return ThrottlePolicy.Verdict.ALLOW;
            }
            Optional<ThrottlePolicy.Counter> stored = read(userId);
            if (stored.isPresent()) {
                if (ThrottlePolicy.check(stored.get(), now) != ThrottlePolicy.Verdict.ALLOW) {
                    return ThrottlePolicy.blockKind(stored.get(), l);
                }
            } else if (counters.insertUnlessTaken(TABLE, userId, ThrottlePolicy.afterFailure(null, now, l))) {
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
        return counters.delete(TABLE, userId);
    }

    /** Deletes counters that no longer matter (not blocked, window over), in chunks that commit on their own. */
    public int purgeStale() {
        long now = clock.instant().getEpochSecond();
        return counters.purgeStale(TABLE, now, SignInThrottle.staleBefore(now, throttleSettings));
    }

    private Optional<ThrottlePolicy.Counter> read(String userId) {
        return counters.read(TABLE, userId);
    }
}
