package dev.portcullis.crypto;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.UUID;
import org.junit.jupiter.api.Test;

class SplitTokenTest {

    @Test
    void anIssuedTokenIsAUuidV7IdAndA256BitSecretAndParsesBack() {
        SplitToken issued = SplitToken.issue();
        String value = issued.value();
        assertTrue(value.matches("[0-9a-f-]{36}\\.[A-Za-z0-9_-]{43}"), value);
        UUID id = UUID.fromString(issued.id());
        assertEquals(7, id.version());
        assertEquals(2, id.variant());

        SplitToken presented = SplitToken.parse(value);
        assertEquals(issued.id(), presented.id());
        assertTrue(presented.matches(issued.secretHash()));
        assertFalse(value.contains(issued.secretHash()), "the stored form is not the secret");
    }

    @Test
    void idsCarryTheTimeOfIssueSoTheySortByIt() {
        long before = System.currentTimeMillis();
        String previous = SplitToken.issue().id();
        for (int i = 0; i < 10_000; i++) {
            String next = SplitToken.issue().id();
            // the first 48 bits (12 hex digits around one dash) are Unix milliseconds: never decreasing
            assertTrue(millisPrefix(next).compareTo(millisPrefix(previous)) >= 0, previous + " then " + next);
            previous = next;
        }
        long millis = Long.parseLong(millisPrefix(previous).replace("-", ""), 16);
        assertTrue(millis >= before && millis <= System.currentTimeMillis(), "the id's milliseconds: " + millis);
    }

    private static String millisPrefix(String id) {
        return id.substring(0, 13);
    }

    @Test
    void anotherSecretWithTheSameIdDoesNotMatch() {
        SplitToken issued = SplitToken.issue();
        assertFalse(SplitToken.parse(issued.id() + "." + Secrets.newSecret()).matches(issued.secretHash()));
        assertFalse(SplitToken.parse(issued.id() + ".").matches(issued.secretHash()));
        assertFalse(SplitToken.parse(issued.id()).matches(issued.secretHash()), "the id alone");
    }

    @Test
    void aValueIssuedBeforeV3IsFoundByItsHashAndMatchesOnlyARowWithoutSecretHash() {
        String earlier = Secrets.newSecret();
        SplitToken presented = SplitToken.parse(earlier);
        assertEquals(Secrets.hash(earlier), presented.id());
        assertTrue(presented.matches(null));
        assertFalse(presented.matches(Secrets.hash(earlier)), "never against a current row");
        assertFalse(SplitToken.parse(presented.id() + "." + Secrets.newSecret()).matches(null),
                "a current-form value never matches an earlier row");
    }
}
