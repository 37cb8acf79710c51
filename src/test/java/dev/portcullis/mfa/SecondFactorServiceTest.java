package dev.portcullis.mfa;

import dev.portcullis.metrics.TestMetrics;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.portcullis.account.SignInThrottle;
import dev.portcullis.account.TestThrottles;
import dev.portcullis.account.TestUsers;
import dev.portcullis.account.User;
import dev.portcullis.config.ConfigurationException;
import dev.portcullis.config.ThrottleSettings;
import dev.portcullis.crypto.EncryptionKeys;
import dev.portcullis.persistence.TestDatabase;
import dev.portcullis.testing.Concurrently;
import dev.portcullis.testing.MutableClock;
import dev.portcullis.testing.RecordingAudit;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Collections;
import java.util.List;
import org.bouncycastle.util.encoders.Base32;
import org.junit.jupiter.api.Test;

/**
 * {@link SecondFactorService} on H2 with the real schema and the real throttles: wrong codes count in the account's own
 * second-factor counter, which a correct password never clears (no fresh round of guesses per password), up to the
 * lock that refuses even the right code, audited; a completed second factor clears it; one code is accepted once
 * under concurrency; seeds sealed under a previous key-encryption key are re-sealed under the current one, once.
 */
class SecondFactorServiceTest {

    private static final Instant NOW = Instant.parse("2026-01-31T12:00:00Z");
    private static final byte[] OLD_KEY = Base64.getDecoder().decode(EncryptionKeys.newKey());
    private static final byte[] NEW_KEY = Base64.getDecoder().decode(EncryptionKeys.newKey());

    private final TestDatabase db = new TestDatabase();
    private final MutableClock clock = new MutableClock(NOW);
    private final ThrottleSettings limits = TestThrottles.limits(5, 3);
    private final SignInThrottle passwords = TestThrottles.signIn(db.jdbc, limits, clock);
    private final RecordingAudit audit = new RecordingAudit();
    private final List<String> audited = audit.lines;
    private final User alice = TestUsers.user("user-1", "alice", null, null);
    private final User bob = TestUsers.user("user-2", "bob", null, null);

    SecondFactorServiceTest() {
        for (User u : List.of(alice, bob)) {
            db.jdbc.update("INSERT INTO users (user_id, username, password_hash, created_at, updated_at) "
                    + "VALUES (?,?,'x',0,0)", u.userId(), u.username());
        }
    }

    private SecondFactorService factors(EncryptionKeys keys) {
        SecondFactorService f = new SecondFactorService();
        f.repository = TestFactors.codes(db.jdbc);
        f.clock = clock;
        f.keys = keys;
        f.audit = audit;
        f.metrics = TestMetrics.create();
        f.attempts = new SecondFactorGuard();
        f.attempts.signIn = passwords;
        f.attempts.factors = TestThrottles.secondFactor(db.jdbc, limits, clock);
        f.attempts.audit = f.audit;
        f.attempts.metrics = TestMetrics.create();
        return f;
    }

    /** Enrols an authenticator for the user and returns its seed. */
    private String enrolled(SecondFactorService f, User user) {
        String secret = f.pendingTotp(user.userId(), "session-1").orElseThrow();
        assertTrue(f.confirmTotp(user, "session-1", code(secret, Totp.step(clock.instant())), "ip").isPresent());
        clock.set(clock.instant().plusSeconds(Totp.STEP_SECONDS * 2));
        return secret;
    }

    @Test
    void aCorrectPasswordBetweenWrongCodesGivesNoFreshGuessesAndTheLockRefusesEvenTheRightCode() {
        SecondFactorService f = factors(new EncryptionKeys(NEW_KEY, List.of()));
        String secret = enrolled(f, alice);
        int checked = 0;
        SecondFactorService.Outcome last = null;
        for (int cycle = 0; cycle < 10 && last != SecondFactorService.Outcome.LOCKED; cycle++) {
            // the password step, as SignInService takes it: counted, then cleared by the correct password
            assertTrue(passwords.reserve(alice.username()).allowed());
            passwords.recordSuccess(alice.username());
            for (int i = 0; i < 2; i++) {
                last = f.verify(alice, wrongCode(secret), "app", "ip");
                checked += last == SecondFactorService.Outcome.INVALID ? 1 : 0;
                clock.set(clock.instant().plusSeconds(31)); // past any slow-down
            }
        }
        assertEquals(SecondFactorService.Outcome.LOCKED, last);
        assertEquals(5, checked, "portcullis.login.max-failures codes in all, however many passwords");
        assertTrue(audited.contains("SIGN_IN_LOCKED user-1 second factor locked"), audited::toString);

        passwords.recordSuccess(alice.username());
        assertEquals(SecondFactorService.Outcome.LOCKED, f.verify(alice, code(secret, Totp.step(clock.instant())), "app",
                "ip"), "the right code, while the account's codes are locked");
        assertTrue(audited.contains("SIGN_IN_LOCKED user-1 locked (second factor)"), audited::toString);
        assertEquals(SecondFactorService.Outcome.INVALID, f.verify(bob, "123456", "app", "ip"), "bob is not locked");

        clock.set(clock.instant().plus(Duration.ofMinutes(5)));
        assertEquals(SecondFactorService.Outcome.ACCEPTED, f.verify(alice, code(secret, Totp.step(clock.instant())), "app",
                "ip"));
        assertEquals(0L, db.jdbc.one("SELECT COUNT(*) AS n FROM second_factor_throttle WHERE user_id = ?",
                r -> r.longValue("n"), alice.userId()).orElseThrow(), "a completed second factor clears the count");
    }

    @Test
    void twoConcurrentSubmissionsOfOneCodeAcceptItOnce() throws Exception {
        SecondFactorService f = factors(new EncryptionKeys(NEW_KEY, List.of()));
        String code = code(enrolled(f, alice), Totp.step(clock.instant()));
        List<SecondFactorService.Outcome> outcomes = Concurrently.run(2, () -> f.verify(alice, code, "app", "ip"));
        assertEquals(1, Collections.frequency(outcomes, SecondFactorService.Outcome.ACCEPTED), outcomes::toString);
        assertEquals(1, Collections.frequency(outcomes, SecondFactorService.Outcome.INVALID), outcomes::toString);
    }

    @Test
    void seedsUnderAPreviousKeyAreResealedUnderTheCurrentOneOnceEvenByInstancesStartingTogether() throws Exception {
        SecondFactorService before = factors(new EncryptionKeys(OLD_KEY, List.of()));
        String confirmed = enrolled(before, alice);
        String pending = before.pendingTotp(bob.userId(), "session-1").orElseThrow();

        EncryptionKeys rotated = new EncryptionKeys(NEW_KEY, List.of(OLD_KEY));
        int resealed = Concurrently.run(2, () -> factors(rotated).resealSeeds()).stream().mapToInt(n -> n).sum();
        assertEquals(2, resealed, "each seed re-sealed once");
        assertEquals(0, factors(rotated).resealSeeds(), "nothing left at the next start");
        for (String sealed : db.jdbc.list("SELECT secret_sealed FROM totp_factors", r -> r.string("secret_sealed"))) {
            assertTrue(rotated.isSealedUnderCurrentKey(sealed));
        }

        // the old key dropped: the seeds still open (the same app codes, the same pending QR code)
        SecondFactorService after = factors(new EncryptionKeys(NEW_KEY, List.of()));
        assertEquals(SecondFactorService.Outcome.ACCEPTED, after.verify(alice, code(confirmed, Totp.step(clock.instant())),
                "app", "ip"));
        assertEquals(pending, after.pendingTotp(bob.userId(), "session-1").orElseThrow());
    }

    @Test
    void aSeedNoConfiguredKeyOpensStopsTheStartNamingTheSetting() {
        enrolled(factors(new EncryptionKeys(OLD_KEY, List.of())), alice);
        ConfigurationException e = assertThrows(ConfigurationException.class,
                () -> factors(new EncryptionKeys(NEW_KEY, List.of())).resealSeeds());
        assertTrue(e.getMessage().contains(EncryptionKeys.PREVIOUS_KEYS) && e.getMessage().contains("user-1"),
                e.getMessage());
    }

    /** A code of none of the steps the server accepts now. */
    private String wrongCode(String base32Secret) {
        long now = Totp.step(clock.instant());
        List<String> right = List.of(code(base32Secret, now - 1), code(base32Secret, now), code(base32Secret, now + 1));
        for (int n = 0; ; n++) {
            String candidate = String.format("%06d", n);
            if (!right.contains(candidate)) {
                return candidate;
            }
        }
    }

    private static String code(String base32Secret, long step) {
        return Totp.code(Base32.decode(base32Secret), step, "HmacSHA1", Totp.DIGITS);
    }
}
