package dev.portcullis.account;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.portcullis.admin.Refusal;
import dev.portcullis.audit.Actor;
import dev.portcullis.testing.FiredEvents;
import dev.portcullis.testing.RecordingAudit;
import jakarta.enterprise.event.Event;
import jakarta.enterprise.event.NotificationOptions;
import jakarta.enterprise.util.TypeLiteral;
import java.lang.annotation.Annotation;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletionStage;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The rules {@link UserAdminService#update} applies whoever calls it: the admin API and the console alike. */
class UserAdminServiceTest {

    private static final UserAdminService.UserPatch DISABLE = UserAdminService.UserPatch.patch().enabled(false).build();

    private final Map<String, User> rows = new HashMap<>();
    private final RecordingAudit audit = new RecordingAudit();
    private final FiredEvents<UserDisabled> disabledEvents = new FiredEvents<>();
    private final List<UserDisabled> disabled = disabledEvents.fired;
    private UserAdminService service;

    @BeforeEach
    void setUp() {
        service = new UserAdminService();
        service.users = new UserRepository() {
            @Override
            public Optional<User> findForChange(String username) {
                return Optional.ofNullable(rows.get(username.toLowerCase(Locale.ROOT)));
            }
        };
        service.clock = Clock.fixed(Instant.parse("2026-11-26T06:00:00Z"), ZoneOffset.UTC);
        service.audit = audit;
        service.userDisabled = disabledEvents;
        rows.put("admin", TestUsers.user("u-admin", "admin", null, null));
        rows.put("lena", TestUsers.user("u-lena", "lena", null, null));
    }

    @Test
    void anAdministratorCannotDisableThemselfWhateverTheSpellingOfTheirUsername() {
        Actor self = Actor.administrator("u-admin", "192.0.2.1").within("in the console");
        for (String spelling : List.of("admin", "ADMIN")) {
            Refusal e = assertThrows(Refusal.class, () -> service.update(spelling, DISABLE, self),
                    spelling);
            assertInstanceOf(Refusal.OwnAccountDisabled.class, e.reason(), spelling);
            assertEquals(400, e.status());
            assertEquals("invalid_request", e.error());
        }
        assertTrue(rows.get("admin").enabled());
        assertTrue(disabled.isEmpty());
        assertTrue(audit.lines.isEmpty(), audit.lines::toString);
    }

    @Test
    void anotherAdministratorOrTheAdminTokenMayDisableThem() {
        service.update("ADMIN", DISABLE, Actor.administrator("u-lena", "192.0.2.1"));
        assertFalse(rows.get("admin").enabled());
        rows.get("admin").changeEnabled(true, Instant.EPOCH);
        service.update("admin", DISABLE, Actor.adminToken("192.0.2.1"));
        assertFalse(rows.get("admin").enabled(), "the token is nobody's account");
        assertEquals(2, disabled.size());
    }

    @Test
    void anAdministratorMayStillEnableThemself() {
        Actor self = Actor.administrator("u-admin", "192.0.2.1");
        assertTrue(service.update("Admin", UserAdminService.UserPatch.patch().enabled(true).build(), self).isPresent());
        assertEquals(List.of("USER_UPDATED admin no change"), audit.lines);
    }
}
