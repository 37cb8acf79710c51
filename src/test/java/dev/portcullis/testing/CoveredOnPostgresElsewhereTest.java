package dev.portcullis.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Set;
import org.junit.jupiter.api.Test;

class CoveredOnPostgresElsewhereTest {

    @Test
    void onlyClassesWildFlyRunsWholeAreCovered() {
        assertEquals(Set.of("SignInBrowserIT", "AdminApiIT"), CoveredOnPostgresElsewhere.wholeClasses(
                "SignInBrowserIT, AdminApiIT,HostileRequestLimitsIT#oversized*+everyMethodOnEveryPath*,"
                        + "HostileProtocolInputIT#tokenEndpoint+userinfo"));
    }

    @Test
    void anEmptySelectionCoversNothing() {
        assertEquals(Set.of(), CoveredOnPostgresElsewhere.wholeClasses(""));
        assertEquals(Set.of(), CoveredOnPostgresElsewhere.wholeClasses(" , "));
    }
}
