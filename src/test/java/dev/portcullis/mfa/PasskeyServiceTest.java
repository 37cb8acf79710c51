package dev.portcullis.mfa;

import dev.portcullis.metrics.TestMetrics;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.portcullis.account.SignInService;
import dev.portcullis.account.SignInThrottle;
import dev.portcullis.account.TestThrottles;
import dev.portcullis.account.TestUsers;
import dev.portcullis.account.ThrottlePolicy;
import dev.portcullis.account.User;
import dev.portcullis.account.UserLookupService;
import dev.portcullis.audit.Actor;
import dev.portcullis.audit.AuditEvent;
import dev.portcullis.audit.AuditLog;
import dev.portcullis.config.IssuerSettings;
import dev.portcullis.config.SessionSettings;
import dev.portcullis.crypto.EncryptionKeys;
import dev.portcullis.persistence.TestDatabase;
import dev.portcullis.session.AuthMethods;
import dev.portcullis.session.SsoSessionRepository;
import dev.portcullis.session.TestSessions;
import dev.portcullis.testing.MutableClock;
import dev.portcullis.testing.RecordingAudit;
import dev.portcullis.testing.SoftAuthenticator;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * {@link PasskeyService} on H2 with the real schema and a software authenticator: challenges used once, only by their
 * binding and ceremony, and only before they expire; a sign count that goes backwards refused and audited; failed
 * assertions counted in the throttle; passwordless sign-in by the credential's owner only; the per-user limit; the
 * administrator's reset ({@link SecondFactorService#reset}) of one user's factors, which ends that user's sessions.
 */
class PasskeyServiceTest {

    private static final String ISSUER = "https://login.example.com";
    private static final Instant NOW = Instant.parse("2026-01-31T12:00:00Z");

    private final TestDatabase db = new TestDatabase();
    private final PasskeyService passkeys = new PasskeyService();
    private final RecordingAudit audit = new RecordingAudit();
    private final List<String> audited = audit.lines;
    private final List<String> throttled = new ArrayList<>();
    /** The user whose directory entry the directory refuses (a passwordless sign-in asks it). */
    private String directoryRefuses;
    private final User alice = TestUsers.user("user-1", "alice", null, null);
    private final User bob = TestUsers.user("user-2", "bob", null, null);
    private final MutableClock clock = new MutableClock(NOW);
    private boolean passwordLocked;

    PasskeyServiceTest() {
        passkeys.repository = TestFactors.passkeys(db.jdbc);
        at(NOW);
        passkeys.issuer = new IssuerSettings(URI.create(ISSUER));
        passkeys.audit = audit;
        passkeys.metrics = TestMetrics.create();
        passkeys.keys = new EncryptionKeys(new byte[32], List.of());
        passkeys.throttle = new SignInThrottle() {
            @Override
            public ThrottlePolicy.Verdict checkAddress(String ip, String username) {
                return ThrottlePolicy.Verdict.ALLOW;
            }

            @Override
            public boolean locked(String username) {
                return passwordLocked;
            }

            @Override
            public Reservation reserve(String username) {
                throttled.add("reserve " + username);
                return new Reservation(ThrottlePolicy.Verdict.ALLOW, "user:" + username, null, null, 5);
            }

            @Override
            public void recordAddressFailure(String ip) {
                throttled.add("failure " + ip);
            }

            @Override
            public void recordSuccess(String username) {
                throttled.add("success " + username);
            }
        };
        passkeys.attempts = new SecondFactorGuard();
        passkeys.attempts.signIn = passkeys.throttle;
        passkeys.attempts.factors = TestThrottles.secondFactor(db.jdbc, TestThrottles.limits(3, 3), clock);
        passkeys.attempts.audit = passkeys.audit;
        passkeys.attempts.metrics = TestMetrics.create();
        passkeys.users = new UserLookupService() {
            @Override
            public Optional<User> findById(String userId) {
                return List.of(alice, bob).stream().filter(u -> u.userId().equals(userId)).findFirst();
            }
        };
        passkeys.signIn = new SignInService() {
            @Override
            public boolean stillAllowed(String userId) {
                return true;
            }

            @Override
            public boolean allowsSignInWithoutPassword(String userId) {
                return !userId.equals(directoryRefuses);
            }
        };
        for (User u : List.of(alice, bob)) {
            db.jdbc.update("INSERT INTO users (user_id, username, password_hash, created_at, updated_at) "
                    + "VALUES (?,?,'x',0,0)", u.userId(), u.username());
        }
    }

    private void at(Instant now) {
        clock.set(now);
        passkeys.clock = clock;
    }

    private SoftAuthenticator registered(User user, String binding) throws Exception {
        SoftAuthenticator key = new SoftAuthenticator("login.example.com");
        String challenge = passkeys.begin(PasskeyService.Purpose.REGISTER, binding, user.userId()).challenge();
        assertTrue(passkeys.register(user, " Laptop\u0000 ", key.create(challenge, ISSUER), binding, "192.0.2.1"));
        return key;
    }

    @Test
    void registeredPasskeyIsListedNamedAndExcludedFromTheNextRegistration() throws Exception {
        SoftAuthenticator key = registered(alice, "session-a");
        List<PasskeyService.Passkey> list = passkeys.list(alice.userId());
        assertEquals(1, list.size());
        assertEquals("Laptop", list.get(0).name());
        assertEquals(NOW, list.get(0).createdAt());
        assertEquals(null, list.get(0).lastUsedAt());
        assertTrue(passkeys.has(alice.userId()));
        assertFalse(passkeys.has(bob.userId()));
        assertEquals(List.of(key.credentialId()),
                passkeys.begin(PasskeyService.Purpose.REGISTER, "session-a", alice.userId()).credentialIds());
        assertTrue(audited.contains("SECOND_FACTOR_ENROLLED user-1 passkey"), audited::toString);
    }

    @Test
    void challengeWorksOnceOnlyForItsBindingAndCeremonyAndBeforeItExpires() throws Exception {
        SoftAuthenticator key = new SoftAuthenticator("login.example.com");
        String c = passkeys.begin(PasskeyService.Purpose.REGISTER, "session-a", alice.userId()).challenge();
        assertFalse(passkeys.register(alice, "x", key.create(c, ISSUER), "session-b", "ip"), "another browser");
        assertFalse(passkeys.useChallenge(PasskeyService.Purpose.FACTOR, "session-a", c), "another ceremony");
        assertTrue(passkeys.register(alice, "x", key.create(c, ISSUER), "session-a", "ip"));
        assertFalse(passkeys.register(alice, "x", key.create(c, ISSUER), "session-a", "ip"), "used up");

        String late = passkeys.begin(PasskeyService.Purpose.FACTOR, "session-a", alice.userId()).challenge();
        at(NOW.plus(PasskeyService.CHALLENGE_TTL).plusSeconds(1));
        assertFalse(passkeys.useChallenge(PasskeyService.Purpose.FACTOR, "session-a", late), "expired");
        passkeys.begin(PasskeyService.Purpose.FACTOR, "session-a", null);
        assertEquals(1, db.jdbc.one("SELECT COUNT(*) AS n FROM webauthn_challenges", r -> r.longValue("n"))
                .orElseThrow(), "expired challenges are deleted when a new one is issued");
    }

    @Test
    void passwordlessChallengeIsWrittenOnlyWhenUsedAndWorksOnceForItsBrowserBeforeItExpires() throws Exception {
        String c = passkeys.begin(PasskeyService.Purpose.PASSWORDLESS, "csrf:x", null).challenge();
        assertEquals(0, challengeRows(), "issuing a passwordless challenge writes nothing");
        assertFalse(passkeys.useChallenge(PasskeyService.Purpose.PASSWORDLESS, "csrf:y", c), "another browser");
        assertFalse(passkeys.useChallenge(PasskeyService.Purpose.FACTOR, "csrf:x", c), "another ceremony");
        String altered = c.substring(0, c.length() - 2) + (c.endsWith("AA") ? "BB" : "AA");
        assertFalse(passkeys.useChallenge(PasskeyService.Purpose.PASSWORDLESS, "csrf:x", altered), "altered");
        assertFalse(passkeys.useChallenge(PasskeyService.Purpose.PASSWORDLESS, "csrf:x", "not base64 !"), "malformed");
        assertEquals(0, challengeRows(), "refused challenges write nothing");
        assertTrue(passkeys.useChallenge(PasskeyService.Purpose.PASSWORDLESS, "csrf:x", c));
        assertFalse(passkeys.useChallenge(PasskeyService.Purpose.PASSWORDLESS, "csrf:x", c), "used up");
        assertEquals(1, challengeRows());

        String late = passkeys.begin(PasskeyService.Purpose.PASSWORDLESS, "csrf:x", null).challenge();
        at(NOW.plus(PasskeyService.CHALLENGE_TTL).plusSeconds(1));
        assertFalse(passkeys.useChallenge(PasskeyService.Purpose.PASSWORDLESS, "csrf:x", late), "expired");
    }

    private long challengeRows() {
        return db.jdbc.one("SELECT COUNT(*) AS n FROM webauthn_challenges", r -> r.longValue("n")).orElseThrow();
    }

    @Test
    void secondFactorWhenSignCountGoesBackThenRefusedAuditedAndCounted() throws Exception {
        SoftAuthenticator key = registered(alice, "session-a");
        String c1 = passkeys.begin(PasskeyService.Purpose.FACTOR, "session-a", alice.userId()).challenge();
        assertEquals(SecondFactorService.Outcome.ACCEPTED, passkeys.verifySecondFactor(alice,
                key.get(c1, ISSUER, 7, false), "session-a", "app", "192.0.2.1"));
        assertEquals(NOW, passkeys.list(alice.userId()).get(0).lastUsedAt());
        assertEquals(List.of(), throttled, "a second factor never counts on the password's counter");

        throttled.clear();
        String c2 = passkeys.begin(PasskeyService.Purpose.FACTOR, "session-a", alice.userId()).challenge();
        assertEquals(SecondFactorService.Outcome.INVALID, passkeys.verifySecondFactor(alice,
                key.get(c2, ISSUER, 7, false), "session-a", "app", "192.0.2.1"), "the same count again");
        assertEquals(List.of("failure 192.0.2.1"), throttled);
        assertEquals(1L, factorFailures(alice), "counted on the account's second-factor counter");
        assertTrue(audited.stream().anyMatch(a -> a.startsWith("SECOND_FACTOR_FAILURE user-1 passkey: sign count")),
                audited::toString);

        String c3 = passkeys.begin(PasskeyService.Purpose.FACTOR, "session-a", alice.userId()).challenge();
        assertEquals(SecondFactorService.Outcome.ACCEPTED, passkeys.verifySecondFactor(alice,
                key.get(c3, ISSUER, 8, false), "session-a", "app", "192.0.2.1"));
        assertEquals(0L, factorFailures(alice), "a completed second factor clears its counter");
    }

    @Test
    void lockedAccountIsRefusedByPasskeyAsSecondFactorAndPasswordlessAndAudited() throws Exception {
        SoftAuthenticator key = registered(alice, "session-a");
        SoftAuthenticator stranger = new SoftAuthenticator("login.example.com");
        for (int i = 0; i < 3; i++) {
            String c = passkeys.begin(PasskeyService.Purpose.FACTOR, "session-a", alice.userId()).challenge();
            assertEquals(SecondFactorService.Outcome.INVALID, passkeys.verifySecondFactor(alice,
                    stranger.get(c, ISSUER, 1, true), "session-a", "app", "ip"), "not alice's passkey");
        }
        assertTrue(audited.contains("SIGN_IN_LOCKED user-1 second factor locked"), audited::toString);
        String c1 = passkeys.begin(PasskeyService.Purpose.FACTOR, "session-a", alice.userId()).challenge();
        assertEquals(SecondFactorService.Outcome.LOCKED, passkeys.verifySecondFactor(alice,
                key.get(c1, ISSUER, 1, true), "session-a", "app", "ip"), "her own passkey, as second factor");
        String c2 = passkeys.begin(PasskeyService.Purpose.PASSWORDLESS, "csrf:x", null).challenge();
        assertEquals(SecondFactorService.Outcome.LOCKED,
                passkeys.signInPasswordless(key.get(c2, ISSUER, 2, true), "csrf:x", "app", "ip").outcome(),
                "her own passkey, passwordless");
        assertTrue(audited.contains("SIGN_IN_LOCKED user-1 locked (passkey)"), audited::toString);
        assertTrue(audited.contains("SIGN_IN_LOCKED user-1 locked (passkey, passwordless)"), audited::toString);

        // the lock ends; a lock by wrong passwords refuses the passkey the same way
        at(NOW.plus(Duration.ofMinutes(5)));
        passwordLocked = true;
        String c3 = passkeys.begin(PasskeyService.Purpose.FACTOR, "session-a", alice.userId()).challenge();
        assertEquals(SecondFactorService.Outcome.LOCKED, passkeys.verifySecondFactor(alice,
                key.get(c3, ISSUER, 3, true), "session-a", "app", "ip"));
        String c4 = passkeys.begin(PasskeyService.Purpose.PASSWORDLESS, "csrf:x", null).challenge();
        assertEquals(SecondFactorService.Outcome.LOCKED,
                passkeys.signInPasswordless(key.get(c4, ISSUER, 4, true), "csrf:x", "app", "ip").outcome());
        passwordLocked = false;
        String c5 = passkeys.begin(PasskeyService.Purpose.PASSWORDLESS, "csrf:x", null).challenge();
        assertEquals(SecondFactorService.Outcome.ACCEPTED,
                passkeys.signInPasswordless(key.get(c5, ISSUER, 5, true), "csrf:x", "app", "ip").outcome());
        assertEquals(0L, factorFailures(alice), "a passwordless passkey completes the second factor too");
    }

    private long factorFailures(User user) {
        return db.jdbc.one("SELECT failures FROM second_factor_throttle WHERE user_id = ?",
                r -> r.longValue("failures"), user.userId()).orElse(0L);
    }

    @Test
    void secondFactorWhenThePasskeyIsSomeoneElsesThenRefused() throws Exception {
        SoftAuthenticator bobs = registered(bob, "session-b");
        String c = passkeys.begin(PasskeyService.Purpose.FACTOR, "session-a", alice.userId()).challenge();
        assertEquals(SecondFactorService.Outcome.INVALID, passkeys.verifySecondFactor(alice,
                bobs.get(c, ISSUER, 1, true), "session-a", "app", "ip"));
    }

    @Test
    void passwordlessSignsInTheOwnerOnlyWithUserVerification() throws Exception {
        SoftAuthenticator key = registered(alice, "session-a");
        String c1 = passkeys.begin(PasskeyService.Purpose.PASSWORDLESS, "csrf:x", null).challenge();
        assertEquals(SecondFactorService.Outcome.INVALID,
                passkeys.signInPasswordless(key.get(c1, ISSUER, 1, false), "csrf:x", "app", "ip").outcome(),
                "without user verification");
        String c2 = passkeys.begin(PasskeyService.Purpose.PASSWORDLESS, "csrf:x", null).challenge();
        PasskeyService.SignIn in = passkeys.signInPasswordless(key.get(c2, ISSUER, 2, true), "csrf:x", "app", "ip");
        assertEquals(SecondFactorService.Outcome.ACCEPTED, in.outcome());
        assertEquals(alice.userId(), in.user().orElseThrow().userId());

        SoftAuthenticator stranger = new SoftAuthenticator("login.example.com");
        String c3 = passkeys.begin(PasskeyService.Purpose.PASSWORDLESS, "csrf:x", null).challenge();
        throttled.clear();
        assertEquals(SecondFactorService.Outcome.INVALID,
                passkeys.signInPasswordless(stranger.get(c3, ISSUER, 1, true), "csrf:x", "app", "ip").outcome());
        assertEquals(List.of("failure ip"), throttled, "an unknown credential counts on the address");
        assertEquals(SecondFactorService.Outcome.INVALID,
                passkeys.signInPasswordless("{\"id\":", "csrf:x", "app", "ip").outcome());
    }

    @Test
    void passwordlessRefusesAUserTheDirectoryRefusesNow() throws Exception {
        SoftAuthenticator key = registered(alice, "session-a");
        directoryRefuses = alice.userId();
        String c = passkeys.begin(PasskeyService.Purpose.PASSWORDLESS, "csrf:x", null).challenge();
        PasskeyService.SignIn in = passkeys.signInPasswordless(key.get(c, ISSUER, 1, true), "csrf:x", "app", "ip");
        assertEquals(SecondFactorService.Outcome.INVALID, in.outcome());
        assertTrue(in.user().isEmpty());
        assertTrue(audited.contains("SECOND_FACTOR_FAILURE " + alice.userId() + " passkey: account disabled"),
                audited::toString);
    }

    @Test
    void removedOneByOneByTheirOwnerOrAllAtOnce() throws Exception {
        registered(alice, "session-a");
        String id = passkeys.list(alice.userId()).get(0).passkeyId();
        assertFalse(passkeys.remove(bob.userId(), id, "ip"), "not bob's");
        assertTrue(passkeys.remove(alice.userId(), id, "ip"));
        assertFalse(passkeys.has(alice.userId()));
        registered(alice, "session-a");
        registered(alice, "session-a");
        assertEquals(2, passkeys.removeAll(alice.userId()));
    }

    @Test
    void administratorResetRemovesTheFactorsAndEndsTheSessionsOfThatUserOnlyAndNamesTheActor() throws Exception {
        registered(alice, "session-a");
        registered(bob, "session-b");
        SsoSessionRepository sessions = TestSessions.on(db.jdbc, new SessionSettings(Duration.ofHours(8), Duration.ofDays(1)),
                clock);
        for (User u : List.of(alice, alice, bob)) {
            sessions.start(u.userId(), null, "app", "192.0.2.1", AuthMethods.of("pwd", "otp"), true);
        }
        for (User u : List.of(alice, bob)) {
            db.jdbc.update("INSERT INTO totp_factors (user_id, secret_sealed, created_at, confirmed_at, last_step) "
                    + "VALUES (?, 'sealed', 0, 0, 0)", u.userId());
            db.jdbc.update("INSERT INTO recovery_codes (user_id, code_hash) VALUES (?, 'hash')", u.userId());
        }
        List<String> changes = new ArrayList<>();
        SecondFactorService factors = new SecondFactorService();
        factors.metrics = TestMetrics.create();
        factors.repository = TestFactors.codes(db.jdbc);
        factors.passkeys = passkeys;
        factors.sessions = sessions;
        factors.audit = new AuditLog() {
            @Override
            public void change(AuditEvent.Type type, Actor actor, String clientId, String subject, String detail) {
                changes.add(type + " " + actor.id() + " " + subject + " " + detail);
            }
        };

        factors.reset(alice, Actor.administrator("boss", "192.0.2.9"));

        for (String table : List.of("totp_factors", "recovery_codes", "webauthn_credentials", "sso_sessions")) {
            assertEquals(List.of(bob.userId()), db.jdbc.list("SELECT user_id FROM " + table,
                    r -> r.string("user_id")), table);
        }
        assertEquals(List.of("SECOND_FACTORS_RESET user:boss alice authenticator and recovery codes removed; "
                + "1 passkey(s) removed", "SESSION_ENDED user:boss alice second factors reset: 2 SSO sessions ended"),
                changes);
    }

    @Test
    void atMostTenPerUser() throws Exception {
        for (int i = 0; i < PasskeyService.MAX_PER_USER; i++) {
            registered(alice, "session-a");
        }
        SoftAuthenticator one = new SoftAuthenticator("login.example.com");
        String c = passkeys.begin(PasskeyService.Purpose.REGISTER, "session-a", alice.userId()).challenge();
        assertFalse(passkeys.register(alice, "x", one.create(c, ISSUER), "session-a", "ip"));
        assertEquals(PasskeyService.MAX_PER_USER, passkeys.list(alice.userId()).size());
        assertEquals("Passkey", PasskeyService.cleanName(" \t "));
        assertEquals("a".repeat(PasskeyService.MAX_NAME), PasskeyService.cleanName("a".repeat(200)));
    }
}
