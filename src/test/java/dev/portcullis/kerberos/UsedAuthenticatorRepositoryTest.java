package dev.portcullis.kerberos;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.portcullis.persistence.TestDatabase;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * kerberos_authenticators on the real migrations (H2): one use per authenticator however many arrive at once, each
 * on its own connection as requests on different instances would be; the PostgreSQL pass of TwoInstancesIT does the
 * same across two servers.
 */
class UsedAuthenticatorRepositoryTest {

    private final TestDatabase db = new TestDatabase();
    private final UsedAuthenticatorRepository authenticators = new UsedAuthenticatorRepository();

    {
        authenticators.jdbc = db.jdbc;
    }

    @Test
    void useWhenTheSameAuthenticatorArrivesManyTimesAtOnceThenExactlyOneWins() throws Exception {
        Instant now = Instant.now();
        int racers = 8;
        CyclicBarrier start = new CyclicBarrier(racers);
        List<Callable<Boolean>> tasks = new ArrayList<>();
        for (int i = 0; i < racers; i++) {
            tasks.add(() -> {
                start.await(30, TimeUnit.SECONDS);
                return authenticators.use("the-same-authenticator", now);
            });
        }
        ExecutorService pool = Executors.newFixedThreadPool(racers);
        int winners = 0;
        try {
            for (Future<Boolean> f : pool.invokeAll(tasks, 60, TimeUnit.SECONDS)) {
                winners += f.get() ? 1 : 0;
            }
        } finally {
            pool.shutdownNow();
        }
        assertEquals(1, winners);
        assertEquals(1L, db.jdbc.one("SELECT COUNT(*) AS n FROM kerberos_authenticators", r -> r.longValue("n"))
                .orElseThrow());
    }

    @Test
    void useWhenUsedBeforeThenRefusedAndOthersStillOnce() {
        Instant now = Instant.now();
        assertFalse(authenticators.used("a"));
        assertTrue(authenticators.use("a", now));
        assertTrue(authenticators.used("a"));
        assertFalse(authenticators.use("a", now.plusSeconds(30)));
        assertTrue(authenticators.use("b", now));
        assertFalse(authenticators.used("c"));
    }

    @Test
    void purgeWhenKeptTimeIsOverThenDeletedElseKept() {
        Instant usedAt = Instant.now();
        authenticators.use("old", usedAt.minus(UsedAuthenticatorRepository.KEPT).minusSeconds(1));
        authenticators.use("recent", usedAt.minus(UsedAuthenticatorRepository.KEPT).plusSeconds(60));
        assertEquals(1, authenticators.purgeExpired(usedAt));
        assertFalse(authenticators.used("old"));
        assertTrue(authenticators.used("recent"), "still within the time an authenticator could be accepted");
    }
}
