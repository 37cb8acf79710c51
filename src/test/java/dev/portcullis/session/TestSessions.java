package dev.portcullis.session;

import dev.portcullis.client.LogoutNotifications;
import dev.portcullis.config.SessionSettings;
import dev.portcullis.persistence.Jdbc;
import dev.portcullis.testing.FiredEvents;
import java.time.Clock;
import java.util.Optional;

/** {@link SsoSessionRepository} on a test database, for unit tests of the features that keep sessions (outside this package). */
public final class TestSessions {

    private TestSessions() {
    }

    public static SsoSessionRepository on(Jdbc jdbc, SessionSettings settings, Clock clock) {
        SsoSessionRepository sessions = new SsoSessionRepository();
        sessions.jdbc = jdbc;
        sessions.sessionSettings = settings;
        sessions.clock = clock;
        sessions.backchannel = new BackchannelLogout() {
            @Override
            Optional<LogoutNotifications> registration(String clientId) {
                return Optional.empty();
            }
        };
        sessions.backchannel.clock = clock;
        sessions.sessionsEnded = new FiredEvents<>();
        return sessions;
    }
}
