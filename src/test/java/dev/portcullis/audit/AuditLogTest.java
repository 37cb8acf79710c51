package dev.portcullis.audit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.portcullis.persistence.TestDatabase;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * {@link AuditLog} writing through {@link AuditEventRepository} on H2 with the real schema: events written, then read back in pages, by time, by type and by any of
 * several subjects.
 */
class AuditLogTest {

    private static final Instant T0 = Instant.parse("2026-01-31T12:00:00.123Z");

    private final TestDatabase db = new TestDatabase();
    private final AuditEventRepository events = new AuditEventRepository();
    private final AuditLog audit = new AuditLog();

    AuditLogTest() {
        events.jdbc = db.jdbc;
        audit.events = events;
        audit.clock = Clock.fixed(T0, ZoneOffset.UTC);
    }

    @Test
    void eventsReadBackInPagesByTimeAndType() {
        audit.success(AuditEvent.Type.USER_CREATED, null, "admin", "192.0.2.1", "user alice");
        audit.clock = Clock.fixed(T0.plusSeconds(10), ZoneOffset.UTC);
        audit.failure(AuditEvent.Type.SIGN_IN_FAILURE, "c1", "alice", null, "x".repeat(2000));
        audit.success(AuditEvent.Type.SIGN_IN_SUCCESS, "c1", "alice", "192.0.2.1", null);
        audit.change(AuditEvent.Type.USER_UPDATED, Actor.adminToken("192.0.2.9"), null, "alice", "enabled=false");

        List<AuditEvent> all = events.list(0, 0, null, 10);
        assertEquals(4, all.size());
        AuditEvent first = all.get(0);
        assertEquals(new AuditEvent(first.id(), T0, "USER_CREATED", "success", null, "admin", "192.0.2.1",
                "user alice", null), first);
        assertEquals(new AuditEvent(all.get(3).id(), T0.plusSeconds(10), "USER_UPDATED", "success", null, "alice",
                "192.0.2.9", "enabled=false", "admin-token"), all.get(3));
        assertEquals(1000, all.get(1).detail().length(), "clipped to the column");

        List<AuditEvent> page1 = events.list(0, 0, null, 2);
        List<AuditEvent> page2 = events.list(0, page1.get(1).id(), null, 2);
        assertEquals(all, List.of(page1.get(0), page1.get(1), page2.get(0), page2.get(1)));
        assertEquals(3, events.list(T0.plusSeconds(10).toEpochMilli(), 0, null, 10).size());
        assertEquals(List.of("SIGN_IN_FAILURE"),
                events.list(0, 0, "SIGN_IN_FAILURE", 10).stream().map(AuditEvent::type).toList());
    }

    @Test
    void searchMatchesAnyOfTheSubjectsNewestFirst() {
        audit.change(AuditEvent.Type.USER_UPDATED, Actor.adminToken("192.0.2.9"), null, "alice", "enabled=false");
        audit.success(AuditEvent.Type.SIGN_IN_SUCCESS, "c1", "user-1", "192.0.2.1", null);
        audit.success(AuditEvent.Type.SIGN_IN_SUCCESS, "c1", "user-2", "192.0.2.1", null);

        assertEquals(List.of("user-1", "alice"), events.search(new AuditEventRepository.Filter(null, Set.of("alice", "user-1"), null,
                null, null), null, 10).stream().map(AuditEvent::subject).toList());
        assertEquals(3, events.search(new AuditEventRepository.Filter(null, null, null, null, null), null, 10).size());
        assertThrows(IllegalArgumentException.class, () -> new AuditEventRepository.Filter(null, Set.of(), null, null, null));
    }

    @Test
    void controlCharactersInAnyFieldAreEscapedBeforeTheRowAndTheLogLine() {
        audit.failure(AuditEvent.Type.CLIENT_AUTH_FAILURE, "c\r\n1", "al\nice", "192.0.2.1\u001b[2J",
                "line one\r\nINFO: SIGN_IN_SUCCESS subject=admin");
        AuditEvent e = events.list(0, 0, null, 10).get(0);
        assertEquals("c\\u000d\\u000a1", e.clientId());
        assertEquals("al\\u000aice", e.subject());
        assertEquals("192.0.2.1\\u001b[2J", e.ip());
        assertEquals("line one\\u000d\\u000aINFO: SIGN_IN_SUCCESS subject=admin", e.detail());
        assertFalse(e.toString().contains("\n") || e.toString().contains("\r"), e::toString);
    }
}
