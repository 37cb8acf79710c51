package dev.portcullis.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The username rule by class of input: case and spaces, length, characters, and the first character. */
class UsernameTest {

    @Test
    void whatWasTypedIsStrippedAndLowerCased() {
        assertEquals(Optional.of(new Username("alice.b+x@corp-1_a")), Username.parse("  Alice.B+X@Corp-1_a \t"));
        assertEquals("alice", Username.parse("ALICE").orElseThrow().toString());
    }

    @Test
    void oneToAHundredCharactersStartingWithALetterOrDigit() {
        assertTrue(Username.parse("a".repeat(Username.MAX_LENGTH)).isPresent());
        assertTrue(Username.parse("7").isPresent());
        for (String bad : new String[] {null, "", "   ", "a".repeat(Username.MAX_LENGTH + 1), ".alice", "-alice",
            "al ice", "al\u0000ice", "al\nice", "al%ice", "al*ice", "älice", "al/ice"}) {
            assertEquals(Optional.empty(), Username.parse(bad), String.valueOf(bad));
        }
    }

    @Test
    void theShapeCheckLowerCasesNothing() {
        assertTrue(Username.isWellFormed("alice"));
        assertFalse(Username.isWellFormed("Alice"));
        assertFalse(Username.isWellFormed(" alice"));
        assertFalse(Username.isWellFormed(null));
        assertThrows(IllegalArgumentException.class, () -> new Username("Alice"));
    }
}
