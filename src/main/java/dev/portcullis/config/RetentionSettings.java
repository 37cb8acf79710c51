package dev.portcullis.config;

import java.time.Duration;
import java.util.Optional;

/** {@code portcullis.audit.retention-days}: how long audit events are kept; empty = forever. */
public record RetentionSettings(Optional<Duration> auditRetention) {

    static RetentionSettings load(PortcullisConfig.Source c) {
        // 0 = keep forever (for operators whose own archive is the database); otherwise days, as audit policies say
        int retentionDays = PortcullisConfig.integer(c, "portcullis.audit.retention-days", 90, 0, 36_500);
        return new RetentionSettings(retentionDays == 0 ? Optional.empty()
                : Optional.of(Duration.ofDays(retentionDays)));
    }
}
