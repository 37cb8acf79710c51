package dev.portcullis.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.portcullis.config.PortcullisConfig;
import dev.portcullis.persistence.TestDatabase;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;

/** {@link SsoSessions} on H2 with the real schema: ending every session of one user. */
class SsoSessionsTest {

    private static final Instant NOW = Instant.parse("2026-01-31T12:00:00Z");

    private final TestDatabase db = new TestDatabase();
    private final SsoSessions sessions = new SsoSessions();

    SsoSessionsTest() {
        sessions.jdbc = db.jdbc;
        sessions.clock = Clock.fixed(NOW, ZoneOffset.UTC);
        sessions.config = new PortcullisConfig() {
            @Override
            public Duration sessionIdleTtl() {
                return Duration.ofHours(8);
            }

            @Override
            public Duration sessionMaxTtl() {
                return Duration.ofHours(24);
            }
        };
        for (String user : new String[] {"u1", "u2"}) {
            db.jdbc.update("INSERT INTO users (user_id, username, password_hash, created_at, updated_at) "
                    + "VALUES (?, ?, 'x', 0, 0)", user, user);
        }
    }

    @Test
    void endingEveryRunningSessionOfAUserLeavesOtherUsers() {
        String laptop = sessions.start("u1", null, "pwd", false).cookieValue();
        String phone = sessions.start("u1", null, "pwd", false).cookieValue();
        String other = sessions.start("u2", null, "pwd", false).cookieValue();
        assertTrue(sessions.findLive(laptop).isPresent());

        assertEquals(2, sessions.endAllOf("u1"));
        assertTrue(sessions.findLive(laptop).isEmpty());
        assertTrue(sessions.findLive(phone).isEmpty());
        assertTrue(sessions.findLive(other).isPresent());
        assertEquals(0, sessions.endAllOf("u1"));
    }

    @Test
    void aSecondFactorIsAddedToTheSessionItWasGivenIn() {
        SsoSessions.Started started = sessions.start("u1", "request", AuthMethods.PWD, false);
        SsoSession s = sessions.findLive(started.cookieValue()).orElseThrow();
        assertEquals("pwd", s.amr());
        assertFalse(s.isMultiFactor());
        assertFalse(s.factorEnrolled());
        SsoSession stepped = sessions.addMethods(s, AuthMethods.OTP);
        assertEquals(stepped, sessions.findLive(started.cookieValue()).orElseThrow());
        assertEquals("pwd otp", stepped.amr());
        assertTrue(stepped.isMultiFactor());
        assertTrue(stepped.factorEnrolled());
        assertEquals(s.authTime(), stepped.authTime(), "auth_time stays the time of the sign-in");

        SsoSessions.Started other = sessions.start("u2", null, AuthMethods.PWD, false);
        sessions.markFactorEnrolled(other.session());
        SsoSession marked = sessions.findLive(other.cookieValue()).orElseThrow();
        assertTrue(marked.factorEnrolled());
        assertEquals("pwd", marked.amr(), "enrolling proves no sign-in");
    }
}
