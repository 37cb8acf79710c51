package dev.portcullis.config;

import java.time.Duration;

/** {@code portcullis.session.*}: an SSO session ends after {@code idleTtl} unused, or {@code maxTtl} after sign-in. */
public record SessionSettings(Duration idleTtl, Duration maxTtl) {

    static SessionSettings load(PortcullisConfig.Source c) {
        Duration idleTtl = PortcullisConfig.seconds(c, "portcullis.session.idle-ttl", 28_800, 60, 31_536_000);
        Duration maxTtl = PortcullisConfig.seconds(c, "portcullis.session.max-ttl", 86_400, 60, 31_536_000);
        PortcullisConfig.require(idleTtl.compareTo(maxTtl) <= 0, "portcullis.session.idle-ttl",
                "must not exceed portcullis.session.max-ttl");
        return new SessionSettings(idleTtl, maxTtl);
    }
}
