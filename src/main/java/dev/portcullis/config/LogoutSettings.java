package dev.portcullis.config;

import java.time.Duration;

/**
 * {@code portcullis.logout.*}: how long a back-channel logout that the client's endpoint does not accept is retried
 * ({@code backchannel.retry-for}) before it is given up.
 */
public record LogoutSettings(Duration backchannelRetryFor) {

    static LogoutSettings load(PortcullisConfig.Source c) {
        return new LogoutSettings(PortcullisConfig.seconds(c, "portcullis.logout.backchannel.retry-for", 600, 1,
                604_800));
    }
}
