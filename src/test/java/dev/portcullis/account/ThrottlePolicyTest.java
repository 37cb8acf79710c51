package dev.portcullis.account;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.portcullis.account.ThrottlePolicy.Counter;
import dev.portcullis.account.ThrottlePolicy.Limits;
import dev.portcullis.account.ThrottlePolicy.Verdict;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class ThrottlePolicyTest {

    private final Limits limits = new Limits(5, 3, Duration.ofSeconds(300), Duration.ofSeconds(900));

    @Test
    void firstFailuresOnlyCount() {
        Counter c = ThrottlePolicy.afterFailure(null, 1000, limits);
        assertEquals(new Counter(1, 1000, null), c);
        c = ThrottlePolicy.afterFailure(c, 1001, limits);
        assertEquals(new Counter(2, 1000, null), c);
        assertEquals(Verdict.ALLOW, ThrottlePolicy.check(c, 1001));
    }

    @Test
    void slowDownThenLock() {
        Counter c = null;
        for (int i = 0; i < 3; i++) {
            c = ThrottlePolicy.afterFailure(c, 1000, limits);
        }
        assertEquals(1001L, c.lockedUntil(), "3rd failure: wait 1 s");
        assertEquals(Verdict.WAIT, ThrottlePolicy.check(c, 1000));
        assertEquals(Verdict.WAIT, ThrottlePolicy.blockKind(c, limits));
        assertEquals(Verdict.ALLOW, ThrottlePolicy.check(c, 1001));
        c = ThrottlePolicy.afterFailure(c, 1001, limits);
        assertEquals(1003L, c.lockedUntil(), "4th failure: wait 2 s");
        c = ThrottlePolicy.afterFailure(c, 1003, limits);
        assertEquals(5, c.failures());
        assertEquals(1303L, c.lockedUntil(), "5th failure: locked for the lockout");
        assertEquals(Verdict.LOCKED, ThrottlePolicy.blockKind(c, limits));
        assertEquals(Verdict.WAIT, ThrottlePolicy.check(c, 1302));
    }

    @Test
    void lockEndsAndCountingStartsAfresh() {
        Counter locked = new Counter(5, 1000, 1300L);
        assertEquals(Verdict.ALLOW, ThrottlePolicy.check(locked, 1300));
        Counter next = ThrottlePolicy.afterFailure(locked, 1300, limits);
        assertEquals(new Counter(1, 1300, null), next, "an expired lock does not re-lock on the next mistake");
    }

    @Test
    void failuresOutsideTheWindowAreForgotten() {
        Counter old = new Counter(4, 1000, null);
        Counter next = ThrottlePolicy.afterFailure(old, 1900, limits);
        assertEquals(1, next.failures());
        assertNull(next.lockedUntil());
    }

    @Test
    void delayDoublesAndIsCapped() {
        assertEquals(1, ThrottlePolicy.delaySeconds(0));
        assertEquals(2, ThrottlePolicy.delaySeconds(1));
        assertEquals(16, ThrottlePolicy.delaySeconds(4));
        assertEquals(30, ThrottlePolicy.delaySeconds(5));
        assertEquals(30, ThrottlePolicy.delaySeconds(100));
    }

    @Test
    void withoutSlowDownOnlyTheLockApplies() {
        Limits ip = new Limits(3, 3, Duration.ofSeconds(60), Duration.ofSeconds(900));
        Counter c = ThrottlePolicy.afterFailure(null, 0, ip);
        c = ThrottlePolicy.afterFailure(c, 0, ip);
        assertNull(c.lockedUntil());
        c = ThrottlePolicy.afterFailure(c, 0, ip);
        assertEquals(60L, c.lockedUntil());
    }
}
