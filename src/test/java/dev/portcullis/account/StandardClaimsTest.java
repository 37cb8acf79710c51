package dev.portcullis.account;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.portcullis.admin.Refusal;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Each standard claim's rule, by class of input: accepted shapes, then each way a value is refused. */
class StandardClaimsTest {

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "given_name|Ada", "family_name|Lovelace", "middle_name|Byron", "nickname|ada",
        "picture|https://example.com/a.png", "website|http://example.org/", "gender|female",
        "birthdate|1815", "birthdate|1815-12-10", "birthdate|0000-02-29", "birthdate|2000-02-29",
        "zoneinfo|Europe/London", "zoneinfo|America/Argentina/Buenos_Aires", "locale|en-GB", "locale|de",
        "locale|zh-Hant-TW", "phone_number|+442071838750", "phone_number|+14155550100;ext=123"})
    void checkWhenValueFollowsTheRuleThenAccepts(String claim, String value) {
        assertDoesNotThrow(() -> StandardClaims.check(claim, value));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "picture|javascript:alert(1)", "picture|ftp://example.com/a.png", "picture|/relative.png",
        "website|https://user:pw@example.com/", "website|https://", "website|not a url",
        "birthdate|1815-13-01", "birthdate|1815-02-30", "birthdate|1999-02-29", "birthdate|15-12-10",
        "birthdate|0000", "birthdate|1815-1-1",
        "zoneinfo|Mars/Olympus", "zoneinfo|GMT+5", "zoneinfo|europe/london",
        "locale|en_US", "locale|english-language-tag", "locale|123",
        "phone_number|4155550100", "phone_number|+0155550100", "phone_number|+1 415 555 0100",
        "phone_number|+1234567890123456", "gender|' '", "unknown_claim|x"})
    void checkWhenValueBreaksTheRuleThenRefuses(String claim, String value) {
        assertThrows(Refusal.class, () -> StandardClaims.check(claim, value));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {"given_name|201", "nickname|201", "website|2001", "gender|51",
        "phone_number|41"})
    void checkWhenValueIsTooLongThenRefuses(String claim, int length) {
        String value = claim.equals("website") ? "https://example.com/" + "a".repeat(length - 20)
                : claim.equals("phone_number") ? "+1" + "5".repeat(length - 2) : "a".repeat(length);
        assertThrows(Refusal.class, () -> StandardClaims.check(claim, value));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {"given_name", "nickname", "gender"})
    void checkWhenTextHasAControlCharacterThenRefuses(String claim) {
        assertThrows(Refusal.class, () -> StandardClaims.check(claim, "a\u0085b"));
        assertThrows(Refusal.class, () -> StandardClaims.check(claim, "a\nb"));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {"formatted", "street_address"})
    void checkAddressMemberWhenMultilineMemberHasLinesThenAccepts(String member) {
        assertDoesNotThrow(() -> StandardClaims.checkAddressMember(member, "1 Main St\nFlat 2"));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {"locality|a<LF>b", "postal_code|a<LF>b", "formatted|a<TAB>b", "country|' '",
        "planet|Earth"})
    void checkAddressMemberWhenValueBreaksTheRuleThenRefuses(String member, String value) {
        String text = value.replace("<LF>", "\n").replace("<TAB>", "\t");
        assertThrows(Refusal.class, () -> StandardClaims.checkAddressMember(member, text));
    }
}
