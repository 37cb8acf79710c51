package dev.portcullis.session;

import dev.portcullis.crypto.Secrets;
import dev.portcullis.persistence.Jdbc;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The back-channel logouts waiting to be sent, in the database so that any instance may send them and none is lost
 * when an instance stops. The one owner of logout_deliveries, in plain JDBC; every change is one conditional
 * statement, so two instances never both hold a delivery: {@link #claimDue} leases a row to one instance for
 * {@link #LEASE}, and only the holder of the lease can settle it.
 */
@ApplicationScoped
public class LogoutDeliveryRepository {

    /** How long a claim holds a delivery: longer than one send with its time-outs, so only a dead claim runs out. */
    static final Duration LEASE = Duration.ofSeconds(60);

    /** The first retry's delay; each further one doubles it, up to {@link #MAX_BACK_OFF}. */
    static final Duration FIRST_BACK_OFF = Duration.ofSeconds(1);

    static final Duration MAX_BACK_OFF = Duration.ofSeconds(60);

    @Inject
    Jdbc jdbc;

    /** One delivery as claimed: {@code attempts} counts this attempt. */
    public record Delivery(String deliveryId, String clientId, String subject, String sid, Instant createdAt,
                           Instant giveUpAt, int attempts) {
    }

    /** Queues the logout of {@code subject}'s session {@code sid} (may be null) for {@code clientId}, due at once. */
    public void add(String clientId, String subject, String sid, Instant now, Duration retryFor) {
        long at = now.toEpochMilli();
        jdbc.update("INSERT INTO logout_deliveries (delivery_id, client_id, subject, sid, created_at, give_up_at, "
                + "next_attempt_at, attempts) VALUES (?,?,?,?,?,?,?,0)", Secrets.newTimeOrderedId(), clientId,
                subject, sid, at, at + retryFor.toMillis(), at);
    }

    /**
     * Claims up to {@code limit} due deliveries for {@code owner}, oldest due first: each by one UPDATE that
     * succeeds only if the row is still due, unleased (or its lease ran out) and unchanged since it was read, so of
     * instances claiming at once exactly one gets each row.
     */
    public List<Delivery> claimDue(String owner, Instant now, int limit) {
        long at = now.toEpochMilli();
        List<Delivery> due = jdbc.list("SELECT " + COLUMNS + " FROM logout_deliveries WHERE next_attempt_at <= ? "
                + "AND (lease_until IS NULL OR lease_until <= ?) ORDER BY next_attempt_at FETCH FIRST ? ROWS ONLY",
                LogoutDeliveryRepository::delivery, at, at, limit);
        List<Delivery> claimed = new ArrayList<>();
        for (Delivery d : due) {
            int attempt = d.attempts() + 1;
            if (jdbc.update("UPDATE logout_deliveries SET lease_owner = ?, lease_until = ?, attempts = ? "
                    + "WHERE delivery_id = ? AND attempts = ? AND next_attempt_at <= ? "
                    + "AND (lease_until IS NULL OR lease_until <= ?)", owner, at + LEASE.toMillis(), attempt,
                    d.deliveryId(), d.attempts(), at, at) == 1) {
                claimed.add(new Delivery(d.deliveryId(), d.clientId(), d.subject(), d.sid(), d.createdAt(),
                        d.giveUpAt(), attempt));
            }
        }
        return claimed;
    }

    /** Deletes a delivery {@code owner} holds (delivered or given up); whether it still held it. */
    public boolean settle(Delivery d, String owner) {
        return jdbc.update("DELETE FROM logout_deliveries WHERE delivery_id = ? AND lease_owner = ?",
                d.deliveryId(), owner) == 1;
    }

    /**
     * Releases a delivery {@code owner} holds after a failed attempt, due again at {@code nextAttempt}; whether it
     * still held it.
     */
    public boolean retryAt(Delivery d, String owner, Instant nextAttempt, String outcome) {
        String text = outcome == null || outcome.length() <= 200 ? outcome : outcome.substring(0, 200);
        return jdbc.update("UPDATE logout_deliveries SET lease_owner = NULL, lease_until = NULL, next_attempt_at = ?, "
                + "last_outcome = ? WHERE delivery_id = ? AND lease_owner = ?", nextAttempt.toEpochMilli(), text,
                d.deliveryId(), owner) == 1;
    }

    /**
     * When to try again after failed attempt number {@code attempts} at {@code now}: {@link #FIRST_BACK_OFF} doubled
     * per earlier failure, at most {@link #MAX_BACK_OFF}, and never after the delivery's give-up time (so the last
     * attempt is made then); empty once that time has come.
     */
    public static Optional<Instant> nextAttempt(Delivery d, Instant now) {
        if (!now.isBefore(d.giveUpAt())) {
            return Optional.empty();
        }
        int doublings = Math.min(Math.max(d.attempts() - 1, 0), 16);
        Duration backOff = FIRST_BACK_OFF.multipliedBy(1L << doublings);
        Instant next = now.plus(backOff.compareTo(MAX_BACK_OFF) > 0 ? MAX_BACK_OFF : backOff);
        return Optional.of(next.isAfter(d.giveUpAt()) ? d.giveUpAt() : next);
    }

    /** How many deliveries are waiting (sent or not yet). */
    /** The queue's depth and the creation time (epoch millis) of its oldest delivery, null when empty. */
    public record Queue(long depth, Long oldestCreatedMillis) {
    }

    /** The whole queue's depth and oldest delivery, in one statement (the metrics scrape). */
    public Queue queue() {
        return jdbc.one("SELECT COUNT(*) AS n, MIN(created_at) AS oldest FROM logout_deliveries",
                r -> new Queue(r.longValue("n"), r.nullableLong("oldest"))).orElse(new Queue(0, null));
    }

    public long countPending() {
        return jdbc.one("SELECT COUNT(*) AS n FROM logout_deliveries", r -> r.longValue("n")).orElse(0L);
    }

    /** The waiting deliveries for {@code clientId}, oldest first (for tests and diagnosis). */
    public List<Delivery> pendingFor(String clientId) {
        return jdbc.list("SELECT " + COLUMNS + " FROM logout_deliveries WHERE client_id = ? ORDER BY delivery_id",
                LogoutDeliveryRepository::delivery, clientId);
    }

    private static final String COLUMNS = "delivery_id, client_id, subject, sid, created_at, give_up_at, attempts";

    private static Delivery delivery(Jdbc.Row row) throws SQLException {
        return new Delivery(row.string("delivery_id"), row.string("client_id"), row.string("subject"),
                row.string("sid"), Instant.ofEpochMilli(row.longValue("created_at")),
                Instant.ofEpochMilli(row.longValue("give_up_at")), (int) row.longValue("attempts"));
    }
}
