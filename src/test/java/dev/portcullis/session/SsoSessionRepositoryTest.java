package dev.portcullis.session;

import dev.portcullis.crypto.Secrets;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.portcullis.client.LogoutNotifications;
import dev.portcullis.config.LogoutSettings;
import dev.portcullis.config.SessionSettings;
import dev.portcullis.persistence.TestDatabase;
import dev.portcullis.testing.FiredEvents;
import dev.portcullis.testing.MutableClock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * {@link SsoSessionRepository} on H2 with the real schema: ending every session of one user; the session that replaces one
 * after a password change is no fresher than it, but for the password.
 */
class SsoSessionRepositoryTest {

    private static final Instant NOW = Instant.parse("2026-01-31T12:00:00Z");

    private final TestDatabase db = new TestDatabase();
    private final SsoSessionRepository sessions = new SsoSessionRepository();
    private final MutableClock clock = new MutableClock(NOW);
    private final LogoutDeliveryRepository deliveries = new LogoutDeliveryRepository();
    private final FiredEvents<SsoSessionsEnded> ended = new FiredEvents<>();
    private final FiredEvents<BackchannelLogoutsQueued> queued = new FiredEvents<>();
    private final Map<String, LogoutNotifications> registrations = new HashMap<>(Map.of(
            "back", new LogoutNotifications("https://rp.example.com/bcl", true, null, true),
            "back-no-sid", new LogoutNotifications("https://rp2.example.com/bcl", false, null, true),
            "front", new LogoutNotifications(null, true, "https://rp3.example.com/fcl", true)));

    SsoSessionRepositoryTest() {
        sessions.jdbc = db.jdbc;
        sessions.clock = clock;
        sessions.sessionSettings = new SessionSettings(Duration.ofHours(8), Duration.ofHours(24));
        sessions.backchannel = new BackchannelLogout() {
            @Override
            Optional<LogoutNotifications> registration(String clientId) {
                return Optional.ofNullable(registrations.get(clientId));
            }
        };
        sessions.backchannel.clock = clock;
        sessions.backchannel.deliveries = deliveries;
        sessions.backchannel.settings = new LogoutSettings(Duration.ofSeconds(600));
        sessions.backchannel.queuedEvent = queued;
        deliveries.jdbc = db.jdbc;
        sessions.sessionsEnded = ended;
        for (String user : new String[] {"u1", "u2"}) {
            db.jdbc.update("INSERT INTO users (user_id, username, password_hash, created_at, updated_at) "
                    + "VALUES (?, ?, 'x', 0, 0)", user, user);
        }
    }

    @Test
    void endingEveryRunningSessionOfAUserLeavesOtherUsers() {
        String laptop = sessions.start("u1", null, "c1", "192.0.2.1", AuthMethods.of("pwd"), false).cookieValue();
        String phone = sessions.start("u1", null, "c1", "192.0.2.1", AuthMethods.of("pwd"), false).cookieValue();
        String other = sessions.start("u2", null, null, null, AuthMethods.of("pwd"), false).cookieValue();
        assertTrue(sessions.findLive(laptop).isPresent());

        assertEquals(2, sessions.endAllOf("u1"));
        assertTrue(sessions.findLive(laptop).isEmpty());
        assertTrue(sessions.findLive(phone).isEmpty());
        assertTrue(sessions.findLive(other).isPresent());
        assertEquals(0, sessions.endAllOf("u1"));
    }

    @Test
    void eachSessionHasARandomSidOfItsOwnThatIsNeitherTheCookieNorAnyOtherId() {
        SsoSessionRepository.Started one = sessions.start("u1", null, "c1", "192.0.2.1", AuthMethods.of("pwd"), false);
        SsoSessionRepository.Started two = sessions.start("u1", null, "c1", "192.0.2.1", AuthMethods.of("pwd"), false);
        String sid = one.session().sid();
        assertEquals(43, sid.length(), "256 random bits, base64url");
        assertNotEquals(two.session().sid(), sid);
        assertNotEquals(one.cookieValue(), sid);
        assertNotEquals(one.session().sessionHash(), sid);
        assertNotEquals(one.session().sessionId(), sid);
        assertEquals(sid, sessions.findLive(one.cookieValue()).orElseThrow().sid(), "stored with the session");
        SsoSession stepped = sessions.addMethods(one.session(), AuthMethods.OTP);
        assertEquals(sid, stepped.sid(), "a step-up keeps the session and its sid");
        // both sessions start at the same instant, so the list's order between them is not defined: find this one
        assertEquals(sid, sessions.listLive("u1", null, 10).stream()
                .filter(s -> s.sessionId().equals(one.session().sessionId())).findFirst().orElseThrow().sid());
    }

    @Test
    void aSessionStartedBeforeTheSidColumnHasNone() {
        SsoSessionRepository.Started old = sessions.start("u1", null, "c1", "192.0.2.1", AuthMethods.of("pwd"), false);
        db.jdbc.update("UPDATE sso_sessions SET sid = NULL");
        assertEquals(null, sessions.findLive(old.cookieValue()).orElseThrow().sid());
    }

    @Test
    void administratorsListAndEndSessionsByTheirIdWithTheClientsTheyServed() {
        SsoSessionRepository.Started laptop = sessions.start("u1", null, "c1", "192.0.2.1", AuthMethods.of("pwd"), false);
        sessions.start("u2", null, "c2", "192.0.2.2", AuthMethods.of("pwd"), false);
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
    void replacingAfterAPasswordChangeKeepsTheFactorTimeAndFreshensOnlyThePassword() {
        SsoSession passwordless = sessions.start("u1", null, "c1", "192.0.2.1", AuthMethods.of("hwk", "user"), true)
                .session();
        assertEquals(NOW, passwordless.factorAt());
        clock.set(NOW.plus(Duration.ofHours(3)));

        SsoSessionRepository.Started replaced = sessions.replace(passwordless, "portcullis-account", "192.0.2.1");
        SsoSession read = sessions.findLive(replaced.cookieValue()).orElseThrow();
        assertEquals(NOW, read.factorAt(), "a password change reopens no factor change");
        assertEquals(clock.instant(), read.passwordAt());
        assertEquals(clock.instant(), read.authTime());
        assertEquals(passwordless.amr(), read.amr());
        assertTrue(read.factorEnrolled());
        assertEquals(null, read.signInRequest(), "it answers no consent step");

        SsoSession withPassword = sessions.start("u1", null, "c1", null, AuthMethods.of("pwd"), false).session();
        SsoSession again = sessions.findLive(sessions.replace(withPassword, "c1", null).cookieValue()).orElseThrow();
        assertEquals(null, again.factorAt(), "no factor given before, none after");
    }

    @Test
    void aSecondFactorIsAddedToTheSessionItWasGivenIn() {
        SsoSessionRepository.Started started = sessions.start("u1", "request", null, null, AuthMethods.of(AuthMethods.PWD),
                false);
        SsoSession s = sessions.findLive(started.cookieValue()).orElseThrow();
        assertEquals(List.of("pwd"), List.copyOf(s.amr()));
        assertEquals(Set.of(), s.clients(), "started for no client: none noted");
        assertFalse(s.isMultiFactor());
        assertFalse(s.factorEnrolled());
        SsoSession stepped = sessions.addMethods(s, AuthMethods.OTP);
        assertEquals(stepped, sessions.findLive(started.cookieValue()).orElseThrow());
        assertEquals(List.of("pwd", "otp"), List.copyOf(stepped.amr()));
        assertTrue(stepped.isMultiFactor());
        assertTrue(stepped.factorEnrolled());
        assertEquals(s.authTime(), stepped.authTime(), "auth_time stays the time of the sign-in");

        SsoSessionRepository.Started other = sessions.start("u2", null, null, null, AuthMethods.of(AuthMethods.PWD), false);
        sessions.markFactorEnrolled(other.session());
        SsoSession marked = sessions.findLive(other.cookieValue()).orElseThrow();
        assertTrue(marked.factorEnrolled());
        assertEquals(Set.of("pwd"), marked.amr(), "enrolling proves no sign-in");
    }

    @Test
    void endingASessionQueuesOneBackchannelLogoutPerClientWithAUri() {
        SsoSessionRepository.Started laptop = sessions.start("u1", null, "back", "192.0.2.1", AuthMethods.of("pwd"), false);
        sessions.noteClient(laptop.session(), "front");
        sessions.noteClient(laptop.session(), "gone");
        sessions.noteClient(laptop.session(), "back-no-sid");
        SsoSessionRepository.Started other = sessions.start("u2", null, "back", "192.0.2.2", AuthMethods.of("pwd"), false);

        sessions.end(laptop.cookieValue());

        List<LogoutDeliveryRepository.Delivery> back = deliveries.pendingFor("back");
        assertEquals(1, back.size(), "one for the ended session, none for u2's that lives");
        assertEquals("u1", back.get(0).subject());
        assertEquals(laptop.session().sid(), back.get(0).sid());
        assertEquals(NOW.plusSeconds(600), back.get(0).giveUpAt());
        assertEquals(1, deliveries.pendingFor("back-no-sid").size());
        assertEquals(List.of(), deliveries.pendingFor("front"), "a client without a back-channel URI gets none");
        assertEquals(List.of(), deliveries.pendingFor("gone"), "nor a deleted client");
        assertEquals(2, deliveries.countPending());
        assertEquals(List.of(new BackchannelLogoutsQueued(2)), queued.fired, "the sender is told once");

        sessions.end(laptop.cookieValue());
        assertEquals(2, deliveries.countPending(), "a session ends once");
        assertEquals(1, queued.fired.size(), "nothing queued, nobody woken");
        assertTrue(sessions.findLive(other.cookieValue()).isPresent());
    }

    @Test
    void everyWayOfEndingSessionsQueuesTheirLogoutsAndReturnsWhatItDidBefore() {
        SsoSessionRepository.Started a = sessions.start("u1", null, "back", null, AuthMethods.of("pwd"), false);
        SsoSessionRepository.Started b = sessions.start("u1", null, "back", null, AuthMethods.of("pwd"), false);
        SsoSessionRepository.Started c = sessions.start("u1", null, "back", null, AuthMethods.of("pwd"), false);
        SsoSessionRepository.Started d = sessions.start("u1", null, "back", null, AuthMethods.of("pwd"), false);
        SsoSessionRepository.Started e = sessions.start("u2", null, "back", null, AuthMethods.of("pwd"), false);

        assertEquals(1, sessions.endBySid(a.session().sid()));
        assertEquals(Optional.of("u1"), sessions.endById(b.session().sessionId()));
        assertEquals(1, sessions.endOthersOf("u1", d.session()));
        assertEquals(1, sessions.endAllOf("u1"));
        assertEquals(0, sessions.endAllOf("u1"));
        assertEquals(Set.of(a.session().sid(), b.session().sid(), c.session().sid(), d.session().sid()),
                Set.copyOf(deliveries.pendingFor("back").stream().map(LogoutDeliveryRepository.Delivery::sid).toList()));
        assertEquals(4, deliveries.countPending());
        assertEquals(List.of(List.of(a.session().sid()), List.of(b.session().sid()), List.of(c.session().sid()),
                List.of(d.session().sid())), ended.fired.stream().map(SsoSessionsEnded::sids).toList(),
                "each end names the ended sessions, so their token families end too");
        assertTrue(sessions.findLive(e.cookieValue()).isPresent());
    }

    @Test
    void aSessionWithoutSidIsToldOnlyToClientsThatDoNotRequireIt() {
        SsoSessionRepository.Started old = sessions.start("u1", null, "back", null, AuthMethods.of("pwd"), false);
        sessions.noteClient(old.session(), "back-no-sid");
        db.jdbc.update("UPDATE sso_sessions SET sid = NULL");

        assertEquals(1, sessions.endAllOf("u1"));
        assertEquals(List.of(), deliveries.pendingFor("back"));
        assertEquals(null, deliveries.pendingFor("back-no-sid").get(0).sid());
        assertEquals(List.of(), ended.fired, "no sid, no token family bound to it");
    }

    @Test
    void theSameUserSigningInAgainKeepsTheSidAndClientsAndTellsNobody() {
        SsoSessionRepository.Started first = sessions.start("u1", null, "back", null, AuthMethods.of("pwd"), false);
        sessions.noteClient(first.session(), "front");

        SsoSessionRepository.Started again = sessions.start(Optional.of(first.cookieValue()), "u1", null, "back-no-sid", null,
                AuthMethods.of("pwd", "otp"), true);

        assertEquals(first.session().sid(), again.session().sid(), "its relying parties know this sid");
        assertEquals(Set.of("back", "front", "back-no-sid"), again.session().clients());
        assertTrue(sessions.findLive(first.cookieValue()).isEmpty(), "the earlier cookie no longer signs in");
        assertEquals(Set.of("back", "front", "back-no-sid"),
                sessions.findLive(again.cookieValue()).orElseThrow().clients());
        assertEquals(0, deliveries.countPending(), "no relying party is logged out");
        assertEquals(List.of(), ended.fired, "no token family ends");

        assertEquals(1, sessions.endAllOf("u1"));
        assertEquals(List.of(first.session().sid()),
                deliveries.pendingFor("back").stream().map(LogoutDeliveryRepository.Delivery::sid).toList(),
                "the final logout reaches the first client under the sid it was given");
    }

    @Test
    void anotherUserSigningInEndsTheEarlierSessionWithItsNotifications() {
        SsoSessionRepository.Started first = sessions.start("u1", null, "back", null, AuthMethods.of("pwd"), false);

        SsoSessionRepository.Started other = sessions.start(Optional.of(first.cookieValue()), "u2", null, "back", null,
                AuthMethods.of("pwd"), false);

        assertNotEquals(first.session().sid(), other.session().sid());
        assertEquals(Set.of("back"), other.session().clients());
        assertTrue(sessions.findLive(first.cookieValue()).isEmpty());
        assertEquals(List.of(first.session().sid()),
                deliveries.pendingFor("back").stream().map(LogoutDeliveryRepository.Delivery::sid).toList());
        assertEquals(List.of(List.of(first.session().sid())), ended.fired.stream().map(SsoSessionsEnded::sids).toList());
    }

    @Test
    void anUnknownOrMalformedEarlierCookieStartsAFreshSession() {
        SsoSessionRepository.Started a = sessions.start(Optional.of("not-a-cookie"), "u1", null, "back", null,
                AuthMethods.of("pwd"), false);
        SsoSessionRepository.Started b = sessions.start(Optional.of(Secrets.newSecret()), "u1", null, "back", null,
                AuthMethods.of("pwd"), false);
        assertNotEquals(a.session().sid(), b.session().sid());
        assertEquals(0, deliveries.countPending());
    }
}
