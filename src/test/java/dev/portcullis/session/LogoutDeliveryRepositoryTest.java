package dev.portcullis.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.portcullis.persistence.TestDatabase;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * {@link LogoutDeliveryRepository} on H2 with the real schema: a due delivery is claimed by one instance only, a lease that
 * ran out can be taken over, only the holder settles it, and failed attempts back off up to the give-up time.
 */
class LogoutDeliveryRepositoryTest {

    private static final Instant NOW = Instant.parse("2026-01-31T12:00:00Z");
    private static final Duration RETRY_FOR = Duration.ofSeconds(600);

    private final TestDatabase db = new TestDatabase();
    private final LogoutDeliveryRepository deliveries = new LogoutDeliveryRepository();

    LogoutDeliveryRepositoryTest() {
        deliveries.jdbc = db.jdbc;
    }

    @Test
    void aDueDeliveryIsClaimedByExactlyOneInstance() {
        deliveries.add("c1", "u1", "sid-1", NOW, RETRY_FOR);

        List<LogoutDeliveryRepository.Delivery> first = deliveries.claimDue("instance-a", NOW, 10);
        assertEquals(1, first.size());
        LogoutDeliveryRepository.Delivery d = first.get(0);
        assertEquals("c1", d.clientId());
        assertEquals("u1", d.subject());
        assertEquals("sid-1", d.sid());
        assertEquals(1, d.attempts(), "the claim counts the attempt");
        assertEquals(NOW.plus(RETRY_FOR), d.giveUpAt());
        assertEquals(List.of(), deliveries.claimDue("instance-b", NOW.plusSeconds(30), 10), "held by a's lease");
        assertEquals(List.of(), deliveries.claimDue("instance-a", NOW.plusSeconds(30), 10), "even for a itself");
    }

    @Test
    void aClaimReadBeforeAnotherInstanceClaimedItFails() {
        deliveries.add("c1", "u1", "sid-1", NOW, RETRY_FOR);
        // instance b read the row as due, then instance a claimed it first: b's conditional UPDATE must not win
        LogoutDeliveryRepository.Delivery stale = deliveries.pendingFor("c1").get(0);
        assertEquals(1, deliveries.claimDue("instance-a", NOW, 10).size());
        assertEquals(0, db.jdbc.update("UPDATE logout_deliveries SET lease_owner = ?, lease_until = ?, attempts = ? "
                + "WHERE delivery_id = ? AND attempts = ? AND next_attempt_at <= ? "
                + "AND (lease_until IS NULL OR lease_until <= ?)", "instance-b", 0L, 1, stale.deliveryId(), 0,
                NOW.toEpochMilli(), NOW.toEpochMilli()));
    }

    @Test
    void aLeaseThatRanOutIsTakenOverAndOnlyTheNewHolderSettles() {
        deliveries.add("c1", "u1", "sid-1", NOW, RETRY_FOR);
        LogoutDeliveryRepository.Delivery byA = deliveries.claimDue("instance-a", NOW, 10).get(0);

        Instant afterLease = NOW.plus(LogoutDeliveryRepository.LEASE);
        LogoutDeliveryRepository.Delivery byB = deliveries.claimDue("instance-b", afterLease, 10).get(0);
        assertEquals(2, byB.attempts());
        assertFalse(deliveries.settle(byA, "instance-a"), "a's claim ran out");
        assertFalse(deliveries.retryAt(byA, "instance-a", afterLease, "late"), "nor can a reschedule it");
        assertTrue(deliveries.settle(byB, "instance-b"));
        assertEquals(0, deliveries.countPending());
    }

    @Test
    void aFailedAttemptIsDueAgainAtItsNextAttemptAndNotBefore() {
        deliveries.add("c1", "u1", null, NOW, RETRY_FOR);
        LogoutDeliveryRepository.Delivery d = deliveries.claimDue("instance-a", NOW, 10).get(0);
        Instant next = LogoutDeliveryRepository.nextAttempt(d, NOW).orElseThrow();
        assertTrue(deliveries.retryAt(d, "instance-a", next, "answered 500"));

        assertEquals(List.of(), deliveries.claimDue("instance-b", next.minusMillis(1), 10));
        LogoutDeliveryRepository.Delivery again = deliveries.claimDue("instance-b", next, 10).get(0);
        assertEquals(2, again.attempts());
        assertEquals(null, again.sid());
    }

    @Test
    void backOffDoublesFromOneSecondUpToAMinuteAndEndsAtTheGiveUpTime() {
        Instant giveUp = NOW.plus(RETRY_FOR);
        assertEquals(Optional.of(NOW.plusSeconds(1)), LogoutDeliveryRepository.nextAttempt(failed(1, giveUp), NOW));
        assertEquals(Optional.of(NOW.plusSeconds(2)), LogoutDeliveryRepository.nextAttempt(failed(2, giveUp), NOW));
        assertEquals(Optional.of(NOW.plusSeconds(32)), LogoutDeliveryRepository.nextAttempt(failed(6, giveUp), NOW));
        assertEquals(Optional.of(NOW.plusSeconds(60)), LogoutDeliveryRepository.nextAttempt(failed(7, giveUp), NOW));
        assertEquals(Optional.of(NOW.plusSeconds(60)), LogoutDeliveryRepository.nextAttempt(failed(500, giveUp), NOW));

        Instant late = giveUp.minusSeconds(10);
        assertEquals(Optional.of(giveUp), LogoutDeliveryRepository.nextAttempt(failed(9, giveUp), late),
                "the last attempt is made at the give-up time");
        assertEquals(Optional.empty(), LogoutDeliveryRepository.nextAttempt(failed(10, giveUp), giveUp), "then given up");
        assertEquals(Optional.empty(), LogoutDeliveryRepository.nextAttempt(failed(10, giveUp), giveUp.plusSeconds(5)));
    }

    @Test
    void claimsTakeAtMostTheLimitOldestDueFirst() {
        deliveries.add("c-late", "u1", "s", NOW.plusSeconds(5), RETRY_FOR);
        deliveries.add("c-early", "u1", "s", NOW, RETRY_FOR);
        deliveries.add("c-later", "u1", "s", NOW.plusSeconds(9), RETRY_FOR);

        List<LogoutDeliveryRepository.Delivery> claimed = deliveries.claimDue("instance-a", NOW.plusSeconds(10), 2);
        assertEquals(List.of("c-early", "c-late"), claimed.stream().map(LogoutDeliveryRepository.Delivery::clientId).toList());
        assertEquals(List.of(), deliveries.claimDue("instance-a", NOW.plusSeconds(4), 10), "not yet due");
    }

    private static LogoutDeliveryRepository.Delivery failed(int attempts, Instant giveUp) {
        return new LogoutDeliveryRepository.Delivery("d", "c1", "u1", "s", NOW, giveUp, attempts);
    }
}
