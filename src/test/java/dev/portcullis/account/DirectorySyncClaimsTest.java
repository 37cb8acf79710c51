package dev.portcullis.account;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.portcullis.config.DirectorySettings;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** How a directory's attribute values become claims: each claim's rule, with the directories' usual spellings. */
class DirectorySyncClaimsTest {

    @Test
    void everyStoredClaimAndNoOtherMayComeFromTheDirectory() {
        List<String> stored = new ArrayList<>(StandardClaims.TEXTS);
        StandardClaims.ADDRESS_MEMBERS.forEach(m -> stored.add(StandardClaims.ADDRESS + "." + m));
        assertEquals(stored, DirectorySettings.DIRECTORY_CLAIMS);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "phone_number|+49 30 1234-567|+49301234567",
        "phone_number|+1 (415) 555.0100|+14155550100",
        "phone_number|+14155550100;ext=12|+14155550100;ext=12",
        "locale|  de-DE |de-DE",
        "address.country|DE|DE",
        "address.locality|Berlin|Berlin",
        "given_name|Ada|Ada"})
    void aValueFollowingTheRuleIsTakenInItsCanonicalForm(String claim, String value, String claimed) {
        assertEquals(claimed, DirectorySyncService.usable("cn=x", claim, value));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "phone_number|030 1234567", "phone_number|+49 30 CALL-ME", "locale|not a locale!", "website|ftp://x.example",
        "birthdate|1990-02-30", "zoneinfo|Mars/Olympus", "address.country|' '", "given_name|''"})
    void aValueBreakingTheRuleIsLeftOut(String claim, String value) {
        assertNull(DirectorySyncService.usable("cn=x", claim, value));
    }

    @Test
    void aLongNameIsCutToItsLengthAndALongAddressMemberLeftOut() {
        assertEquals("x".repeat(200), DirectorySyncService.usable("cn=x", "given_name", "x".repeat(300)));
        assertNull(DirectorySyncService.usable("cn=x", "address.postal_code", "1".repeat(41)));
    }

    @Test
    void anAbsentValueIsNoClaim() {
        assertNull(DirectorySyncService.usable("cn=x", "locale", null));
    }
}
