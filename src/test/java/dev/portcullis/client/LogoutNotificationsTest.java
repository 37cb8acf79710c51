package dev.portcullis.client;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.portcullis.admin.Refusal;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** A client's logout notification URIs: what a change does to them, and which URIs may be registered. */
class LogoutNotificationsTest {

    private static final String BACK = "https://payroll.example.com/logout/backchannel";
    private static final String FRONT = "https://payroll.example.com/logout/frontchannel";

    @Test
    void nothingRegisteredAsksForTheSessionByDefault() {
        assertEquals(new LogoutNotifications(null, true, null, true), LogoutNotifications.NONE);
        assertEquals(LogoutNotifications.NONE, LogoutNotifications.NONE.with(LogoutNotifications.Change.NONE));
    }

    @Test
    void aChangeSetsWhatItNamesRemovesWhatItNullsAndKeepsTheRest() {
        LogoutNotifications both = LogoutNotifications.NONE.with(
                new LogoutNotifications.Change(Optional.of(BACK), false, Optional.of(FRONT), null));
        assertEquals(new LogoutNotifications(BACK, false, FRONT, true), both);
        assertEquals(both, both.with(LogoutNotifications.Change.NONE), "a patch without the fields keeps them");
        assertEquals(new LogoutNotifications(null, false, FRONT, false), both.with(
                new LogoutNotifications.Change(Optional.empty(), null, null, false)));
    }

    @ParameterizedTest
    @ValueSource(strings = {"https://rp.example.com/bc", "http://127.0.0.1:8081/bc", "http://localhost/bc",
        "https://rp.example.com/bc?tenant=a"})
    void httpsOrLoopbackUrisAreAccepted(String uri) {
        assertDoesNotThrow(() -> new LogoutNotifications(uri, true, uri, true).check(false));
    }

    @ParameterizedTest
    @ValueSource(strings = {"http://rp.example.com/bc", "https://rp.example.com/bc#x", "/relative",
        "com.example.app:/bc", "https://*.example.com/bc", "https://u:p@rp.example.com/bc", "javascript:alert(1)",
        ""})
    void otherUrisAreRefusedNamingTheField(String uri) {
        Refusal back = assertThrows(Refusal.class,
                () -> new LogoutNotifications(uri, true, null, true).check(false));
        assertTrue(back.getMessage().contains("backchannel_logout_uri"), back::getMessage);
        Refusal front = assertThrows(Refusal.class,
                () -> new LogoutNotifications(null, true, uri, true).check(false));
        assertTrue(front.getMessage().contains("frontchannel_logout_uri"), front::getMessage);
    }

    @Test
    void plainHttpElsewhereOnlyWithTheIntranetSetting() {
        assertDoesNotThrow(() -> new LogoutNotifications("http://rp.corp/bc", true, null, true).check(true));
    }
}
