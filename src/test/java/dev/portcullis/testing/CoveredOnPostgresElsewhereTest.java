package dev.portcullis.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class CoveredOnPostgresElsewhereTest {

    private static final String SELECTION = "SignInBrowserIT, AdminApiIT,"
            + "HostileRequestLimitsIT#oversized*+everyMethodOnEveryPath*,HostileProtocolInputIT#tokenEndpoint+userinfo";

    @Test
    void aWholeClassIsCoveredWithEveryMethod() {
        CoveredOnPostgresElsewhere.Selection admin = CoveredOnPostgresElsewhere.parse(SELECTION).get(1);
        assertTrue(admin.covers("AdminApiIT", null));
        assertTrue(admin.covers("AdminApiIT", "anything"));
        assertFalse(admin.covers("AdminApiITs", null));
        assertFalse(admin.covers("ConsoleIT", "anything"));
    }

    @Test
    void aFilteredClassKeepsItsOtherMethodsAndItsClassDescriptor() {
        List<CoveredOnPostgresElsewhere.Selection> s = CoveredOnPostgresElsewhere.parse(SELECTION);
        CoveredOnPostgresElsewhere.Selection limits = s.get(2);
        assertTrue(limits.covers("HostileRequestLimitsIT", "oversizedBodiesAnswer413"));
        assertTrue(limits.covers("HostileRequestLimitsIT", "everyMethodOnEveryPathAnswers"));
        assertFalse(limits.covers("HostileRequestLimitsIT", "chunkedFormsWithinTheLimit"));
        assertFalse(limits.covers("HostileRequestLimitsIT", null));
        CoveredOnPostgresElsewhere.Selection protocol = s.get(3);
        assertTrue(protocol.covers("HostileProtocolInputIT", "userinfo"));
        assertFalse(protocol.covers("HostileProtocolInputIT", "userinfoAgain"), "no pattern without * is a prefix");
    }

    @Test
    void anEmptySelectionCoversNothing() {
        assertEquals(List.of(), CoveredOnPostgresElsewhere.parse(""));
        assertEquals(List.of(), CoveredOnPostgresElsewhere.parse(" , "));
    }
}
