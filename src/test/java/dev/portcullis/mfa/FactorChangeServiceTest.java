package dev.portcullis.mfa;

import dev.portcullis.metrics.TestMetrics;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.portcullis.account.SignInService;
import dev.portcullis.account.SignInThrottle;
import dev.portcullis.account.TestUsers;
import dev.portcullis.account.TestThrottles;
import dev.portcullis.account.ThrottlePolicy;
import dev.portcullis.account.User;
import dev.portcullis.config.IssuerSettings;
import dev.portcullis.config.KeySettings;
import dev.portcullis.config.SessionSettings;
import dev.portcullis.persistence.TestDatabase;
import dev.portcullis.session.AuthMethods;
import dev.portcullis.session.SsoSession;
import dev.portcullis.session.SsoSessionRepository;
import dev.portcullis.session.TestSessions;
import dev.portcullis.testing.MutableClock;
import dev.portcullis.testing.RecordingAudit;
import dev.portcullis.testing.SoftAuthenticator;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.bouncycastle.util.encoders.Base32;
import org.junit.jupiter.api.Test;

/**
 * {@link FactorChangeService} and the pending seeds of {@link SecondFactorService} on H2 with the real schema: a session that gave
 * only its sign-in's password adds no factor (no row written); a user without a factor re-enters the password, a
 * user with one gives it, and either opens the changes for 10 minutes; a change ends the user's other sessions; a
 * factor set up at sign-in adds nothing to {@code amr}; a pending seed is shown only to its session and expires.
 */
class FactorChangeServiceTest {

    private static final String ISSUER = "https://login.example.com";
    private static final String PASSWORD = "correct horse battery";
    private static final Instant NOW = Instant.parse("2026-01-31T12:00:00Z");

    private final TestDatabase db = new TestDatabase();
    private final MutableClock clock = new MutableClock(NOW);
    private final RecordingAudit audit = new RecordingAudit();
    private final List<String> audited = audit.lines;
    private final User alice = TestUsers.user("user-1", "alice", null, null);
    private final PasskeyService passkeys = new PasskeyService();
    private final SecondFactorService factors = new SecondFactorService();
    private SsoSessionRepository sessions;
    private final FactorChangeService changes = new FactorChangeService();

    FactorChangeServiceTest() {
        IssuerSettings issuer = new IssuerSettings(URI.create(ISSUER));
        byte[] key = new byte[32];
        Arrays.fill(key, (byte) 7);
        KeySettings keys = new KeySettings(Optional.of(key), List.of(), Duration.ofSeconds(900), Duration.ofSeconds(60),
                Optional.empty(), Path.of("data"));
        SignInThrottle throttle = new SignInThrottle() {
            @Override
            public ThrottlePolicy.Verdict checkAddress(String ip, String username) {
                return ThrottlePolicy.Verdict.ALLOW;
            }

            @Override
            public Reservation reserve(String username) {
                return new Reservation(ThrottlePolicy.Verdict.ALLOW, "user:" + username, null, null, 5);
            }

            @Override
            public void recordAddressFailure(String ip) {
                // counted elsewhere
            }

            @Override
            public boolean locked(String username) {
                return false;
            }

            @Override
            public void recordSuccess(String username) {
                // counted elsewhere
            }
        };
        passkeys.repository = TestFactors.passkeys(db.jdbc);
        passkeys.issuer = issuer;
        passkeys.keySettings = keys;
        passkeys.clock = clock;
        passkeys.audit = audit;
        passkeys.metrics = TestMetrics.create();
        passkeys.throttle = throttle;
        SecondFactorGuard attempts = new SecondFactorGuard();
        attempts.signIn = throttle;
        attempts.factors = TestThrottles.secondFactor(db.jdbc, TestThrottles.limits(5, 3), clock);
        attempts.audit = audit;
        attempts.metrics = TestMetrics.create();
        passkeys.attempts = attempts;
        factors.repository = TestFactors.codes(db.jdbc);
        factors.issuer = issuer;
        factors.keySettings = keys;
        factors.clock = clock;
        factors.audit = audit;
        factors.metrics = TestMetrics.create();
        factors.attempts = attempts;
        factors.passkeys = passkeys;
        sessions = TestSessions.on(db.jdbc, new SessionSettings(Duration.ofHours(8), Duration.ofDays(1)), clock);
        changes.factors = factors;
        changes.passkeys = passkeys;
        changes.sessions = sessions;
        changes.audit = audit;
        changes.metrics = TestMetrics.create();
        changes.clock = clock;
        changes.signIn = new SignInService() {
            @Override
            public Result signIn(String username, String password, String clientId, String ip) {
                boolean ok = alice.username().equals(username) && PASSWORD.equals(password);
                return new Result(ok ? Outcome.SIGNED_IN : Outcome.INVALID, ok ? Optional.of(alice) : Optional.empty());
            }
        };
        db.jdbc.update("INSERT INTO users (user_id, username, password_hash, created_at, updated_at) "
                + "VALUES (?,?,'x',0,0)", alice.userId(), alice.username());
    }

    private SsoSession signedInWithPassword() {
        return sessions.start(alice.userId(), null, "app", "192.0.2.1", AuthMethods.of("pwd"), false).session();
    }

    private SsoSession reread(SsoSession s) {
        return sessions.listLive(alice.userId(), null, 100).stream()
                .filter(x -> x.sessionHash().equals(s.sessionHash())).findFirst().orElseThrow();
    }

    private long rows(String table) {
        return db.jdbc.one("SELECT COUNT(*) AS n FROM " + table + " WHERE user_id = ?", r -> r.longValue("n"),
                alice.userId()).orElseThrow();
    }

    private String passkeyAnswer(SoftAuthenticator key, SsoSession s) {
        String challenge = passkeys.begin(PasskeyService.Purpose.REGISTER, s.sessionHash(), alice.userId()).challenge();
        return key.create(challenge, ISSUER);
    }

    private static String code(String secret, Instant at) {
        return Totp.code(Base32.decode(secret), Totp.step(at), "HmacSHA1", Totp.DIGITS);
    }

    @Test
    void stepUpNeededWhenNothingRecentThenFactorOrPasswordByWhatTheUserHas() {
        SsoSession pwd = new SsoSession("h", "u", NOW, NOW, NOW, NOW, null, "s", null, Set.of(), AuthMethods.of("pwd"),
                false, null, null);
        assertEquals(FactorChangeService.StepUp.PASSWORD, FactorChangeService.stepUpNeeded(false, pwd, NOW));
        assertEquals(FactorChangeService.StepUp.SECOND_FACTOR, FactorChangeService.stepUpNeeded(true, pwd, NOW));

        SsoSession password = new SsoSession("h", "u", NOW, NOW, NOW, NOW, null, "s", null, Set.of(),
                AuthMethods.of("pwd"), false, null, NOW);
        assertEquals(FactorChangeService.StepUp.NONE, FactorChangeService.stepUpNeeded(false, password, NOW.plusSeconds(600)));
        assertEquals(FactorChangeService.StepUp.PASSWORD, FactorChangeService.stepUpNeeded(false, password, NOW.plusSeconds(601)),
                "the re-entry opens the changes for 10 minutes");
        assertEquals(FactorChangeService.StepUp.SECOND_FACTOR, FactorChangeService.stepUpNeeded(true, password, NOW),
                "a user with a factor gives the factor, not the password");

        SsoSession factor = new SsoSession("h", "u", NOW, NOW, NOW, NOW, null, "s", null, Set.of(),
                AuthMethods.of("pwd", "otp"), true, NOW, null);
        assertEquals(FactorChangeService.StepUp.NONE, FactorChangeService.stepUpNeeded(true, factor, NOW.plusSeconds(600)));
        assertEquals(FactorChangeService.StepUp.SECOND_FACTOR, FactorChangeService.stepUpNeeded(true, factor,
                NOW.plusSeconds(601)), "a multi-factor session long ago does not open them");
    }

    @Test
    void passwordOnlySessionWhenAddingAFactorThenRefusedAndNothingWritten() throws Exception {
        SsoSession s = signedInWithPassword();
        SoftAuthenticator key = new SoftAuthenticator("login.example.com");
        assertFalse(changes.registerPasskey(alice, s, "Laptop", passkeyAnswer(key, s),
                FactorChangeService.Where.ACCOUNT_PAGE, "ip"));
        String secret = factors.pendingTotp(alice.userId(), s.sessionHash()).orElseThrow();
        assertTrue(changes.confirmTotp(alice, s, code(secret, NOW), FactorChangeService.Where.ACCOUNT_PAGE, "ip")
                .isEmpty());
        assertEquals(0, rows("webauthn_credentials"));
        assertFalse(factors.hasTotp(alice.userId()));
        assertEquals(0, rows("recovery_codes"));
        assertTrue(audited.contains("SECOND_FACTOR_FAILURE user-1 passkey registration refused: no recent step-up"),
                audited::toString);
    }

    @Test
    void passwordReenteredWhenUserHasNoFactorThenAddsOneAndEndsTheOtherSessions() throws Exception {
        SsoSession other = signedInWithPassword();
        SsoSession s = signedInWithPassword();
        assertEquals(SignInService.Outcome.INVALID, changes.stepUpWithPassword(alice, s, "wrong", "app", "ip"));
        assertEquals(FactorChangeService.StepUp.PASSWORD, changes.stepUpNeeded(alice, reread(s)));
        assertEquals(SignInService.Outcome.SIGNED_IN, changes.stepUpWithPassword(alice, s, PASSWORD, "app", "ip"));
        s = reread(s);
        assertEquals(FactorChangeService.StepUp.NONE, changes.stepUpNeeded(alice, s));

        SoftAuthenticator key = new SoftAuthenticator("login.example.com");
        assertTrue(changes.registerPasskey(alice, s, "Laptop", passkeyAnswer(key, s),
                FactorChangeService.Where.ACCOUNT_PAGE, "ip"));
        assertEquals(1, rows("webauthn_credentials"));
        List<String> live = sessions.listLive(alice.userId(), null, 100).stream().map(SsoSession::sessionHash)
                .toList();
        assertEquals(List.of(s.sessionHash()), live, "the other session ended, this one stays");
        assertFalse(live.contains(other.sessionHash()));
        assertEquals(Set.of("pwd"), reread(s).amr(), "setting a factor up is not giving one");
        assertTrue(audited.contains("SESSION_ENDED user-1 passkey added: 1 other SSO session ended"),
                audited::toString);

        // now the user has a factor: the password opens nothing any more, not even a fresh re-entry
        assertEquals(FactorChangeService.StepUp.SECOND_FACTOR, changes.stepUpNeeded(alice, reread(s)));
        assertEquals(SignInService.Outcome.INVALID, changes.stepUpWithPassword(alice, s, PASSWORD, "app", "ip"));
        String id = passkeys.list(alice.userId()).get(0).passkeyId();
        assertFalse(changes.removePasskey(alice, reread(s), id, "ip"));
        assertEquals(1, rows("webauthn_credentials"));

        // the passkey given as a step-up opens the changes for 10 minutes
        String c = passkeys.begin(PasskeyService.Purpose.FACTOR, s.sessionHash(), alice.userId()).challenge();
        assertEquals(SecondFactorService.Outcome.ACCEPTED, changes.stepUpWithPasskey(alice, reread(s),
                key.get(c, ISSUER, 1, false), "app", "ip"));
        assertEquals(List.of("pwd", "hwk"), List.copyOf(reread(s).amr()));
        clock.set(NOW.plus(FactorChangeService.STEP_UP).plusSeconds(1));
        assertFalse(changes.removePasskey(alice, reread(s), id, "ip"), "too long ago");
        clock.set(NOW.plus(FactorChangeService.STEP_UP));
        assertTrue(changes.removePasskey(alice, reread(s), id, "ip"));
        assertEquals(0, rows("webauthn_credentials"));
    }

    @Test
    void firstFactorAtSignInWhenUserHasNoneThenAllowedButNotMultiFactor() throws Exception {
        SsoSession s = signedInWithPassword();
        String secret = factors.pendingTotp(alice.userId(), s.sessionHash()).orElseThrow();
        assertEquals(10, changes.confirmTotp(alice, s, code(secret, NOW), FactorChangeService.Where.SIGN_IN, "ip")
                .orElseThrow().size());
        SsoSession after = reread(s);
        assertEquals(Set.of("pwd"), after.amr());
        assertFalse(after.isMultiFactor());
        assertTrue(after.factorEnrolled(), "policy enrolled now asks this session for the new factor");

        // a second one at sign-in is refused: the user has a factor to give
        SoftAuthenticator key = new SoftAuthenticator("login.example.com");
        assertFalse(changes.registerPasskey(alice, after, null, passkeyAnswer(key, after), FactorChangeService.Where.SIGN_IN,
                "ip"));
        assertEquals(0, rows("webauthn_credentials"));
    }

    @Test
    void enrolmentStepUpAtSignInByHowLongAgoThePasswordWasGiven() {
        SsoSession signedIn = new SsoSession("h", "u", NOW, NOW, NOW, NOW, null, "s", null, Set.of(),
                AuthMethods.of("pwd"), false, null, null);
        assertEquals(FactorChangeService.StepUp.NONE, FactorChangeService.enrolmentStepUpNeeded(signedIn, NOW.plusSeconds(600)));
        assertEquals(FactorChangeService.StepUp.PASSWORD, FactorChangeService.enrolmentStepUpNeeded(signedIn,
                NOW.plusSeconds(601)), "a sign-in more than 10 minutes ago");
        SsoSession reentered = new SsoSession("h", "u", NOW, NOW, NOW, NOW, null, "s", null, Set.of(),
                AuthMethods.of("pwd"), false, null, NOW.plusSeconds(3600));
        assertEquals(FactorChangeService.StepUp.NONE, FactorChangeService.enrolmentStepUpNeeded(reentered,
                NOW.plusSeconds(3600 + 600)), "entered again on the page");
        SsoSession passwordless = new SsoSession("h", "u", NOW, NOW, NOW, NOW, null, "s", null, Set.of(),
                AuthMethods.of("hwk", "user"), false, NOW, null);
        assertEquals(FactorChangeService.StepUp.PASSWORD, FactorChangeService.enrolmentStepUpNeeded(passwordless, NOW),
                "a sign-in without the password gave none");
    }

    @Test
    void firstFactorAtSignInWhenThePasswordIsOldThenRefusedUntilEnteredAgain() throws Exception {
        SsoSession s = signedInWithPassword();
        clock.set(NOW.plus(FactorChangeService.STEP_UP).plusSeconds(1));
        String secret = factors.pendingTotp(alice.userId(), s.sessionHash()).orElseThrow();
        assertTrue(changes.confirmTotp(alice, s, code(secret, clock.instant()), FactorChangeService.Where.SIGN_IN, "ip")
                .isEmpty(), "an hours-old sign-in enrols nothing of its own");
        SoftAuthenticator key = new SoftAuthenticator("login.example.com");
        assertFalse(changes.registerPasskey(alice, s, null, passkeyAnswer(key, s), FactorChangeService.Where.SIGN_IN, "ip"));
        assertFalse(factors.hasTotp(alice.userId()));
        assertEquals(0, rows("webauthn_credentials"));
        assertEquals(0, rows("recovery_codes"));
        assertTrue(audited.contains("SECOND_FACTOR_FAILURE user-1 passkey registration refused: no recent step-up"),
                audited::toString);
        assertEquals(FactorChangeService.StepUp.PASSWORD, changes.enrolmentStepUpNeeded(reread(s)));

        assertEquals(SignInService.Outcome.INVALID, changes.stepUpWithPassword(alice, s, "wrong", "app", "ip"));
        assertEquals(FactorChangeService.StepUp.PASSWORD, changes.enrolmentStepUpNeeded(reread(s)));
        assertEquals(SignInService.Outcome.SIGNED_IN, changes.stepUpWithPassword(alice, s, PASSWORD, "app", "ip"));
        s = reread(s);
        assertEquals(FactorChangeService.StepUp.NONE, changes.enrolmentStepUpNeeded(s));
        assertTrue(changes.registerPasskey(alice, s, null, passkeyAnswer(key, s), FactorChangeService.Where.SIGN_IN, "ip"));
        assertEquals(1, rows("webauthn_credentials"));
        assertEquals(Set.of("pwd"), reread(s).amr(), "setting a factor up is not giving one");
    }

    @Test
    void pendingSeedWhenAskedByAnotherSessionOrLateThenANewOne() {
        SsoSession mine = signedInWithPassword();
        SsoSession theirs = signedInWithPassword();
        String first = factors.pendingTotp(alice.userId(), mine.sessionHash()).orElseThrow();
        assertEquals(first, factors.pendingTotp(alice.userId(), mine.sessionHash()).orElseThrow(), "the same QR");

        String second = factors.pendingTotp(alice.userId(), theirs.sessionHash()).orElseThrow();
        assertNotEquals(first, second, "another session never sees this session's seed");
        assertTrue(factors.confirmTotp(alice, mine.sessionHash(), code(second, NOW), "ip").isEmpty(),
                "nor confirms another session's");
        String third = factors.pendingTotp(alice.userId(), mine.sessionHash()).orElseThrow();
        assertNotEquals(first, third, "a replaced seed is never shown again");
        assertNotEquals(second, third);

        clock.set(NOW.plus(SecondFactorService.PENDING_TTL).plusSeconds(1));
        assertTrue(factors.confirmTotp(alice, mine.sessionHash(), code(third, clock.instant()), "ip").isEmpty(),
                "expired");
        String fourth = factors.pendingTotp(alice.userId(), mine.sessionHash()).orElseThrow();
        assertNotEquals(third, fourth, "an expired seed is not shown");
        assertEquals(SecondFactorService.RECOVERY_CODES, factors.confirmTotp(alice, mine.sessionHash(),
                code(fourth, clock.instant()), "ip").orElseThrow().size());
        String sealed = db.jdbc.one("SELECT secret_sealed FROM totp_factors WHERE user_id = ?",
                r -> r.string("secret_sealed"), alice.userId()).orElseThrow();
        assertFalse(sealed.contains(fourth), "stored sealed");
        assertTrue(factors.pendingTotp(alice.userId(), mine.sessionHash()).isEmpty(), "never shown once confirmed");
    }
}
