package dev.portcullis.session;

import dev.portcullis.config.SessionSettings;
import dev.portcullis.persistence.Jdbc;
import java.time.Clock;

/** {@link SsoSessions} on a test database, for unit tests of the features that keep sessions (outside this package). */
public final class TestSessions {

    private TestSessions() {
    }

    public static SsoSessions on(Jdbc jdbc, SessionSettings settings, Clock clock) {
        SsoSessions sessions = new SsoSessions();
        sessions.jdbc = jdbc;
        sessions.sessionSettings = settings;
        sessions.clock = clock;
        return sessions;
    }
}
