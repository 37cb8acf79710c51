package dev.portcullis.account;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class PasswordHasherTest {

    /** OWASP-minimum memory is not needed to test the mechanics: 8 MiB, one pass. */
    private static PasswordHasher hasher(int concurrency) {
        return PasswordHashers.withParameters(8192, 1, concurrency);
    }

    @Test
    void hashVerifiesOnlyTheSamePassword() {
        PasswordHasher h = hasher(2);
        String stored = h.hash("correct horse battery");
        assertTrue(stored.startsWith("$argon2id$v=19$m=8192,t=1,p=1$"), stored);
        assertTrue(h.verify("correct horse battery", stored));
        assertFalse(h.verify("correct horse battery!", stored));
        assertFalse(h.verify("correct horse battery", "$argon2id$garbage"));
    }

    @Test
    void storedHashesFollowTheConfiguredParametersEitherWay() {
        PasswordHasher moreMemory = PasswordHashers.withParameters(8192, 2, 2);
        PasswordHasher morePasses = PasswordHashers.withParameters(7168, 3, 2);
        String a = moreMemory.hash("pw-0123456789");
        String b = morePasses.hash("pw-0123456789");
        assertFalse(moreMemory.needsRehash(a));
        assertFalse(morePasses.needsRehash(b));
        assertTrue(moreMemory.needsRehash(b), "fewer KiB, more passes: still not what is configured");
        assertTrue(morePasses.needsRehash(a), "more KiB, fewer passes: still not what is configured");
        assertTrue(moreMemory.needsRehash("$argon2id$garbage"));
        assertTrue(moreMemory.needsRehash(null));
        assertTrue(morePasses.verify("pw-0123456789", a), "a hash made with other parameters still verifies");
    }

    @Test
    void concurrentHashesWaitForAPermitAndAllComplete() throws Exception {
        PasswordHasher h = hasher(1);
        String stored = h.hash("pw-0123456789");
        int callers = 6;
        ExecutorService pool = Executors.newFixedThreadPool(callers);
        CountDownLatch start = new CountDownLatch(1);
        try {
            List<Future<Boolean>> results = new ArrayList<>();
            for (int i = 0; i < callers; i++) {
                results.add(pool.submit(() -> {
                    start.await();
                    return h.verify("pw-0123456789", stored);
                }));
            }
            start.countDown();
            for (Future<Boolean> r : results) {
                assertTrue(r.get(60, TimeUnit.SECONDS));
            }
        } finally {
            pool.shutdownNow();
        }
        assertEquals(1, h.permitsAvailable(), "every permit returned");
    }

    @Test
    void aSignInThatCannotStartItsHashInTimeIsRefusedAsBusy() throws Exception {
        PasswordHasher h = hasher(1);
        String stored = h.hash("pw-0123456789");
        h.signInWait = java.time.Duration.ofMillis(50);
        h.permits.acquire(); // another hash is running
        try {
            assertThrows(PasswordHasher.BusyException.class, () -> h.verify("pw-0123456789", stored));
            assertThrows(PasswordHasher.BusyException.class, () -> h.verifyAgainstDummy("pw"));
        } finally {
            h.permits.release();
        }
        assertTrue(h.verify("pw-0123456789", stored));
        assertEquals(1, h.permitsAvailable(), "a refused check took no permit");
    }
}
