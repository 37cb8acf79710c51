package dev.portcullis.account;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.portcullis.config.PortcullisConfig;
import dev.portcullis.persistence.TestDatabase;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;

/** {@link SignInThrottle}'s counters in login_throttle (H2, real schema): count, lock, clear, purge. */
class SignInThrottleTest {

    private static final Instant NOW = Instant.parse("2026-01-31T12:00:00Z");

    private final TestDatabase db = new TestDatabase();
    private final SignInThrottle throttle = new SignInThrottle();

    SignInThrottleTest() {
        throttle.jdbc = db.jdbc;
        throttle.clock = Clock.fixed(NOW, ZoneOffset.UTC);
        throttle.config = new PortcullisConfig() {
            @Override
            public int loginMaxFailures() {
                return 3;
            }

            @Override
            public int loginSlowdownAfter() {
                return 2;
            }

            @Override
            public int loginIpMaxFailures() {
                return 100;
            }

            @Override
            public Duration loginLockout() {
                return Duration.ofMinutes(5);
            }

            @Override
            public Duration loginFailureWindow() {
                return Duration.ofMinutes(15);
            }
        };
    }

    private ThrottlePolicy.Verdict fail(String user) {
        db.inTransaction = true; // recordFailure is REQUIRES_NEW in the server
        try {
            return throttle.recordFailure(user, "192.0.2.1");
        } finally {
            db.inTransaction = false;
        }
    }

    @Test
    void failuresCountUpToALockThatSuccessClears() {
        assertEquals(ThrottlePolicy.Verdict.ALLOW, throttle.check("Alice", "192.0.2.1"));
        assertEquals(ThrottlePolicy.Verdict.ALLOW, fail("alice"));
        assertEquals(ThrottlePolicy.Verdict.ALLOW, fail("ALICE "));
        assertEquals(ThrottlePolicy.Verdict.WAIT, throttle.check("alice", "192.0.2.1"));
        assertEquals(ThrottlePolicy.Verdict.LOCKED, fail("alice"));
        assertEquals(ThrottlePolicy.Verdict.LOCKED, throttle.check("alice", "192.0.2.9"));
        assertEquals(ThrottlePolicy.Verdict.ALLOW, throttle.check("bob", "192.0.2.1"), "the IP is below its limit");
        throttle.recordSuccess("alice");
        assertEquals(ThrottlePolicy.Verdict.ALLOW, throttle.check("alice", "192.0.2.1"));
    }

    @Test
    void purgeKeepsCountersThatStillMatter() {
        fail("alice");
        assertEquals(0, throttle.purgeStale(), "inside the window");
        throttle.clock = Clock.fixed(NOW.plus(Duration.ofMinutes(16)), ZoneOffset.UTC);
        assertEquals(2, throttle.purgeStale(), "the account's and the IP's counter");
    }
}
