package dev.portcullis.config;

import java.time.Duration;

/**
 * {@code portcullis.login.*}: the failure limits of the sign-in and second-factor throttles. From
 * {@code slowdownAfter} failures on an account within {@code failureWindow}, each further attempt must wait 1, 2,
 * 4, ... s (max 30 s); {@code maxFailures} locks it for {@code lockout}; an address is slowed down from
 * {@code ipMaxFailures}, never locked.
 */
public record ThrottleSettings(int maxFailures, int ipMaxFailures, int slowdownAfter, Duration lockout,
                               Duration failureWindow) {

    static ThrottleSettings load(PortcullisConfig.Source c) {
        int maxFailures = PortcullisConfig.integer(c, "portcullis.login.max-failures", 5, 1, 1000);
        int ipMaxFailures = PortcullisConfig.integer(c, "portcullis.login.ip-max-failures", 50, 1, 100_000);
        int slowdownAfter = PortcullisConfig.integer(c, "portcullis.login.slowdown-after", 3, 1, 1000);
        PortcullisConfig.require(slowdownAfter <= maxFailures, "portcullis.login.slowdown-after",
                "must not exceed portcullis.login.max-failures");
        Duration lockout = PortcullisConfig.seconds(c, "portcullis.login.lockout", 300, 1, 86_400);
        Duration failureWindow = PortcullisConfig.seconds(c, "portcullis.login.failure-window", 900, 1, 86_400);
        return new ThrottleSettings(maxFailures, ipMaxFailures, slowdownAfter, lockout, failureWindow);
    }
}
