package dev.portcullis.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.portcullis.config.PortcullisConfig;
import dev.portcullis.persistence.TestDatabase;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Optional;
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
        String laptop = sessions.start("u1", null, "c1", "192.0.2.1", "pwd", false).cookieValue();
        String phone = sessions.start("u1", null, "c1", "192.0.2.1", "pwd", false).cookieValue();
        String other = sessions.start("u2", null, null, null, "pwd", false).cookieValue();
        assertTrue(sessions.findLive(laptop).isPresent());

        assertEquals(2, sessions.endAllOf("u1"));
        assertTrue(sessions.findLive(laptop).isEmpty());
        assertTrue(sessions.findLive(phone).isEmpty());
        assertTrue(sessions.findLive(other).isPresent());
        assertEquals(0, sessions.endAllOf("u1"));
    }

    @Test
    void administratorsListAndEndSessionsByTheirIdWithTheClientsTheyServed() {
        SsoSessions.Started laptop = sessions.start("u1", null, "c1", "192.0.2.1", "pwd", false);
        sessions.start("u2", null, "c2", "192.0.2.2", "pwd", false);
        sessions.noteClient(laptop.session(), "c3");
        sessions.noteClient(laptop.session(), "c1");

        List<SsoSession> ofU1 = sessions.listLive("u1", null, 10);
        assertEquals(1, ofU1.size());
        SsoSession listed = ofU1.get(0);
        assertEquals(laptop.session().sessionId(), listed.sessionId());
        assertEquals(List.of("c1", "c3"), List.copyOf(listed.clients()));
        assertEquals("192.0.2.1", listed.ip());
        assertNotEquals(laptop.cookieValue(), listed.sessionId());
        assertNotEquals(laptop.session().sessionHash(), listed.sessionId());

        List<SsoSession> all = sessions.listLive(null, null, 10);
        assertEquals(2, all.size());
        assertEquals(List.of(all.get(1)), sessions.listLive(null, all.get(0).sessionId(), 10), "paging by id");

        assertEquals(Optional.of("u1"), sessions.endById(listed.sessionId()));
        assertTrue(sessions.findLive(laptop.cookieValue()).isEmpty());
        assertEquals(Optional.empty(), sessions.endById(listed.sessionId()));
        assertEquals(Optional.empty(), sessions.endById("x".repeat(65)));
    }

    @Test
    void aSecondFactorIsAddedToTheSessionItWasGivenIn() {
        SsoSessions.Started started = sessions.start("u1", "request", null, null, AuthMethods.PWD, false);
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

        SsoSessions.Started other = sessions.start("u2", null, null, null, AuthMethods.PWD, false);
        sessions.markFactorEnrolled(other.session());
        SsoSession marked = sessions.findLive(other.cookieValue()).orElseThrow();
        assertTrue(marked.factorEnrolled());
        assertEquals("pwd", marked.amr(), "enrolling proves no sign-in");
    }
}
