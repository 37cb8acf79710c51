package dev.portcullis.account;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.unboundid.ldap.sdk.LDAPURL;
import dev.portcullis.account.ThrottlePolicy.Verdict;
import dev.portcullis.config.DirectorySettings;
import dev.portcullis.directory.Directory;
import dev.portcullis.persistence.TestDatabase;
import dev.portcullis.testing.TestDirectory;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** {@link SignInThrottle}'s counters in login_throttle (H2, real schema): reserve, lock, give back, clear, purge. */
class SignInThrottleTest {

    private static final Instant NOW = Instant.parse("2026-01-31T12:00:00Z");

    private final TestDatabase db = new TestDatabase();
    private final SignInThrottle throttle = new SignInThrottle();

    SignInThrottleTest() {
        throttle.counters = TestThrottles.counters(db.jdbc);
        at(NOW);
        throttle.throttleSettings = TestThrottles.limits(3, 2, 2);
    }

    private void at(Instant now) {
        throttle.clock = Clock.fixed(now, ZoneOffset.UTC);
    }

    @Test
    void aNameNoAccountCanHaveIsCountedUnderItsDigestNeverAsText() {
        assertEquals("user:alice@example.com", SignInThrottle.accountKey(" Alice@Example.com "));
        for (String typed : List.of("a\u0000b", "x\r\ny", "\u0430dmin", "' OR 1=1 --", "a".repeat(101))) {
            String key = SignInThrottle.accountKey(typed);
            assertTrue(key.startsWith("user:#") && key.length() == 49 && !key.contains(typed.strip()), key);
            assertEquals(key, SignInThrottle.accountKey(typed), "the same text always meets the same counter");
        }
    }

    @Test
    void reservationsCountUpToALockThatSuccessClears() {
        assertEquals(Verdict.ALLOW, throttle.reserve("alice").verdict());
        SignInThrottle.Reservation second = throttle.reserve("ALICE ");
        assertTrue(second.allowed() && !second.locks());
        assertEquals(Verdict.WAIT, throttle.reserve("alice").verdict(), "slowed down from the 2nd attempt");
        at(NOW.plusSeconds(1));
        SignInThrottle.Reservation third = throttle.reserve("alice");
        assertTrue(third.allowed() && third.locks(), "the 3rd attempt locks when its password is wrong");
        assertEquals(Verdict.LOCKED, throttle.reserve("alice").verdict());
        assertEquals(Verdict.ALLOW, throttle.reserve("bob").verdict(), "a lock is per account");
        throttle.recordSuccess("alice");
        assertEquals(Verdict.ALLOW, throttle.reserve("alice").verdict());
    }

    @Test
    void everySpellingOfOneDirectoryAccountMeetsOneCounterAndUnknownNamesAreCountedAsTyped() throws Exception {
        try (TestDirectory ad = TestDirectory.activeDirectory()) {
            Directory directory = new Directory(new DirectorySettings(
                    List.of(new LDAPURL("ldaps://127.0.0.1:" + ad.ldapsPort)), false,
                    Optional.of(TestDirectory.CA_FILE), Optional.of(TestDirectory.SERVICE_DN + "," + ad.baseDn),
                    Optional.of(TestDirectory.SERVICE_PASSWORD), ad.baseDn,
                    "(&(objectClass=user)(|(sAMAccountName={0})(userPrincipalName={0})))",
                    new DirectorySettings.Attributes("objectGUID", "sAMAccountName", "displayName", "givenName", "sn",
                            "mail"), Optional.empty(), "(member={dn})", "cn", true, Duration.ofSeconds(2),
                    Duration.ofSeconds(5), 1, true, Duration.ofMinutes(15), Optional.empty()));
            SignInService signIn = new SignInService();
            signIn.directory = directory;
            signIn.throttle = throttle;
            signIn.users = new UserLookupService() {
                @Override
                public Optional<User> findByUsername(String username) {
                    return Optional.empty(); // no local user
                }
            };
            try {
                assertEquals("carol", signIn.throttleName("carol@corp.example.com"));
                assertEquals("carol", signIn.throttleName("CAROL"));
                assertEquals("nobody@corp.example.com", signIn.throttleName("nobody@corp.example.com"));
                assertEquals("car*", signIn.throttleName("car*"), "a filter character finds nothing");
                assertTrue(throttle.reserve(signIn.throttleName("carol")).allowed());
                at(NOW.plusSeconds(10));
                assertTrue(throttle.reserve(signIn.throttleName("carol@corp.example.com")).allowed());
                at(NOW.plusSeconds(20));
                assertTrue(throttle.reserve(signIn.throttleName("Carol")).locks(), "the 3rd spelling locks");
                assertEquals(Verdict.LOCKED, throttle.reserve(signIn.throttleName("carol@CORP.example.com"))
                        .verdict());
                assertEquals(Verdict.LOCKED, throttle.reserve(signIn.throttleName("carol")).verdict());
                assertTrue(throttle.clear("carol"), "the administrator's unlock of the account ends it");
                assertEquals(Verdict.ALLOW, throttle.reserve("nobody@corp.example.com").verdict());
            } finally {
                directory.close();
            }
        }
    }

    @Test
    void anAdministratorsUnlockEndsALockAtOnceAndSaysWhetherThereWasOne() {
        for (int i = 0; i < 3; i++) {
            at(NOW.plusSeconds(10L * i));
            throttle.reserve("carol");
        }
        assertEquals(Verdict.LOCKED, throttle.reserve("carol").verdict());
        assertTrue(throttle.clear("Carol"));
        assertEquals(Verdict.ALLOW, throttle.reserve("carol").verdict());
        assertTrue(throttle.clear("carol"));
        assertFalse(throttle.clear("carol"), "nothing left to clear");
    }

    @Test
    void concurrentAttemptsNeverReserveMoreThanTheMaximum() throws Exception {
        int n = 50;
        CyclicBarrier start = new CyclicBarrier(n);
        List<Callable<Verdict>> tasks = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            tasks.add(() -> {
                start.await();
                return throttle.reserve("carol").verdict();
            });
        }
        ExecutorService pool = Executors.newFixedThreadPool(n);
        int allowed = 0;
        try {
            for (Future<Verdict> f : pool.invokeAll(tasks, 60, TimeUnit.SECONDS)) {
                allowed += f.get() == Verdict.ALLOW ? 1 : 0;
            }
        } finally {
            pool.shutdownNow();
        }
        assertEquals(2, allowed, "up to the slow-down, then everyone waits (the maximum is 3)");
    }

    @Test
    void aReservationGivenBackIsNotCounted() {
        SignInThrottle.Reservation first = throttle.reserve("dave");
        throttle.giveBack(first);
        throttle.reserve("dave");
        SignInThrottle.Reservation again = throttle.reserve("dave");
        assertTrue(again.allowed() && again.after().failures() == 2, "the given-back attempt did not count");
        throttle.giveBack(again); // it had started the slow-down; given back, so is the delay
        SignInThrottle.Reservation next = throttle.reserve("dave");
        assertTrue(next.allowed() && next.after().failures() == 2, "counted as the 2nd attempt once more");
    }

    @Test
    void anAddressIsSlowedDownButNeverLocked() {
        throttle.recordAddressFailure("192.0.2.1");
        assertEquals(Verdict.ALLOW, throttle.checkAddress("192.0.2.1", "x"));
        throttle.recordAddressFailure("192.0.2.1");
        assertEquals(Verdict.WAIT, throttle.checkAddress("192.0.2.1", "x"), "from ip-max-failures on, a delay");
        assertEquals(Verdict.ALLOW, throttle.checkAddress("192.0.2.2", "x"));
        at(NOW.minusSeconds(2));
        throttle.reserve("erin");
        throttle.reserve("erin");
        at(NOW.minusSeconds(1));
        assertTrue(throttle.reserve("erin").locks());
        at(NOW);
        assertEquals(Verdict.LOCKED, throttle.checkAddress("192.0.2.1", "erin"), "the stricter reason is named");
        Instant t = NOW;
        for (int i = 0; i < 100; i++) { // far beyond any account maximum: still only delays
            t = t.plusSeconds(31);
            at(t);
            assertEquals(Verdict.ALLOW, throttle.checkAddress("192.0.2.1", "x"), "the delay is at most 30 s");
            throttle.recordAddressFailure("192.0.2.1");
            assertNotEquals(Verdict.LOCKED, throttle.checkAddress("192.0.2.1", "x"));
        }
    }

    @Test
    void ipv6AddressesAreCountedPerSlash64() {
        throttle.recordAddressFailure("2001:db8:1:2:0:0:0:1");
        throttle.recordAddressFailure("2001:db8:1:2:ffff:0:0:9");
        assertEquals(Verdict.WAIT, throttle.checkAddress("2001:db8:1:2:abcd:0:0:1", "x"));
        assertEquals(Verdict.ALLOW, throttle.checkAddress("2001:db8:1:3:0:0:0:1", "x"));
        assertFalse(throttle.checkAddress("2001:db8:1:3:0:0:0:1", "x") == Verdict.WAIT);
    }

    @Test
    void purgeKeepsCountersThatStillMatter() {
        throttle.reserve("alice");
        throttle.recordAddressFailure("192.0.2.1");
        assertEquals(0, throttle.purgeStale(), "inside the window");
        at(NOW.plus(Duration.ofMinutes(16)));
        assertEquals(2, throttle.purgeStale(), "the account's and the address's counter");
    }
}
