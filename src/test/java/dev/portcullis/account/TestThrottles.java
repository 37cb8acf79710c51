package dev.portcullis.account;

import dev.portcullis.config.ThrottleSettings;
import dev.portcullis.persistence.Jdbc;
import java.time.Clock;
import java.time.Duration;

/** The throttles' database owners wired by hand, for unit tests in other packages. */
public final class TestThrottles {

    private TestThrottles() {
    }

    /** {@code portcullis.login.*} limits: lockout 5 minutes, window 15 minutes, addresses slowed from 50 failures. */
    public static ThrottleSettings limits(int maxFailures, int slowdownAfter) {
        return limits(maxFailures, slowdownAfter, 50);
    }

    /** The same with {@code portcullis.login.ip-max-failures}, from which an address is slowed down. */
    public static ThrottleSettings limits(int maxFailures, int slowdownAfter, int ipMaxFailures) {
        return new ThrottleSettings(maxFailures, ipMaxFailures, slowdownAfter, Duration.ofMinutes(5),
                Duration.ofMinutes(15));
    }

    /** The owner of both throttle tables on {@code jdbc}. */
    public static ThrottleCounterRepository counters(Jdbc jdbc) {
        ThrottleCounterRepository r = new ThrottleCounterRepository();
        r.jdbc = jdbc;
        return r;
    }

    public static SignInThrottle signIn(Jdbc jdbc, ThrottleSettings limits, Clock clock) {
        SignInThrottle t = new SignInThrottle();
        t.counters = counters(jdbc);
        t.throttleSettings = limits;
        t.clock = clock;
        return t;
    }

    public static SecondFactorThrottle secondFactor(Jdbc jdbc, ThrottleSettings limits, Clock clock) {
        SecondFactorThrottle t = new SecondFactorThrottle();
        t.counters = counters(jdbc);
        t.throttleSettings = limits;
        t.clock = clock;
        return t;
    }
}
