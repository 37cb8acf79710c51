package dev.portcullis.account;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.portcullis.account.ThrottlePolicy.Verdict;
import dev.portcullis.config.ThrottleSettings;
import dev.portcullis.persistence.TestDatabase;
import dev.portcullis.testing.Concurrently;
import dev.portcullis.testing.MutableClock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * {@link SecondFactorThrottle} on H2 with the real schema: its one-statement count follows {@link ThrottlePolicy}
 * step by step (slow-down, lock, a new window, a new count after the lock); a correct password never clears it, a
 * completed second factor does; concurrent attempts never get past the maximum.
 */
class SecondFactorThrottleTest {

    private static final Instant NOW = Instant.parse("2026-01-31T12:00:00Z");

    private final TestDatabase db = new TestDatabase();
    private final MutableClock clock = new MutableClock(NOW);
    private final ThrottleSettings settings = TestThrottles.limits(7, 2);
    private final SecondFactorThrottle factors = TestThrottles.secondFactor(db.jdbc, settings, clock);
    private final SignInThrottle passwords = TestThrottles.signIn(db.jdbc, settings, clock);

    SecondFactorThrottleTest() {
        for (String u : List.of("alice", "bob")) {
            db.jdbc.update("INSERT INTO users (user_id, username, password_hash, created_at, updated_at) "
                    + "VALUES (?,?,'x',0,0)", "id-" + u, u);
        }
    }

    @Test
    void eachCountIsThePolicysNextCounterSlowDownThenLockThenANewCount() {
        ThrottlePolicy.Limits limits = SignInThrottle.accountLimits(settings);
        ThrottlePolicy.Counter expected = null;
        long t = NOW.getEpochSecond();
        for (int attempt = 0; attempt < 14; attempt++) {
            clock.set(Instant.ofEpochSecond(t));
            if (expected != null && ThrottlePolicy.check(expected, t) != Verdict.ALLOW) {
                assertEquals(ThrottlePolicy.blockKind(expected, limits), factors.reserve("id-alice"));
                assertEquals(Optional.of(expected), stored("id-alice"), "a refused attempt is not counted");
                t = expected.lockedUntil();
                continue;
            }
            assertEquals(Verdict.ALLOW, factors.reserve("id-alice"), "attempt " + attempt);
            expected = ThrottlePolicy.afterFailure(expected, t, limits);
            assertEquals(Optional.of(expected), stored("id-alice"), "attempt " + attempt);
        }
        assertTrue(expected.failures() < 7, "the lock ended and counting started again: " + expected);

        clock.set(Instant.ofEpochSecond(expected.firstFailureAt()).plus(Duration.ofMinutes(15)));
        assertEquals(Verdict.ALLOW, factors.reserve("id-alice"), "a new window");
        assertEquals(1, stored("id-alice").orElseThrow().failures());
    }

    @Test
    void aCorrectPasswordNeverClearsItACompletedSecondFactorDoes() {
        lock("id-alice");
        passwords.reserve("alice");
        passwords.recordSuccess("alice");
        assertTrue(factors.locked("id-alice"), "the password's success leaves the second factors locked");
        assertEquals(Verdict.LOCKED, factors.reserve("id-alice"));
        assertEquals(Verdict.ALLOW, factors.reserve("id-bob"), "a lock is per account");
        assertFalse(passwords.locked("alice"), "and the password's counter is another one");

        factors.clear("id-alice");
        assertFalse(factors.locked("id-alice"));
        assertEquals(Verdict.ALLOW, factors.reserve("id-alice"));
        assertEquals(1, stored("id-alice").orElseThrow().failures());
    }

    @Test
    void theLockEndsAfterTheLockoutAndStaleCountersArePurged() {
        lock("id-alice");
        clock.set(clock.instant().plus(Duration.ofMinutes(5)));
        assertFalse(factors.locked("id-alice"));
        assertEquals(0, factors.purgeStale(), "inside the window");
        clock.set(clock.instant().plus(Duration.ofMinutes(15)));
        assertEquals(1, factors.purgeStale());
        assertEquals(Optional.empty(), stored("id-alice"));
    }

    @Test
    void concurrentAttemptsNeverCountMoreThanTheSlowDownAllows() throws Exception {
        long allowed = Concurrently.run(40, () -> factors.reserve("id-bob")).stream()
                .filter(v -> v == Verdict.ALLOW).count();
        assertEquals(2L, allowed, "up to the slow-down, then everyone waits");
        assertEquals(2, stored("id-bob").orElseThrow().failures());
    }

    /** Counts attempts, each after the previous delay, until the account's second factors are locked. */
    private void lock(String userId) {
        for (int i = 0; i < 20 && !factors.locked(userId); i++) {
            Verdict v = factors.reserve(userId);
            if (v != Verdict.ALLOW) {
                clock.set(Instant.ofEpochSecond(stored(userId).orElseThrow().lockedUntil()));
            }
        }
        assertTrue(factors.locked(userId));
        assertEquals(Verdict.LOCKED, factors.reserve(userId));
    }

    private Optional<ThrottlePolicy.Counter> stored(String userId) {
        return db.jdbc.one("SELECT failures, first_failure_at, locked_until FROM second_factor_throttle "
                + "WHERE user_id = ?", ThrottleCounterRepository::counter, userId);
    }
}
