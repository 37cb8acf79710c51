package dev.portcullis.account;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** The search text goes into LIKE as a literal: its wildcards and the escape character match only themselves. */
class UserRepositoryTest {

    @Test
    void likeWildcardsInSearchTextAreEscaped() {
        assertEquals("100!% sure!_x!!", UserRepository.likeLiteral("100% sure_x!"));
        assertEquals("plain", UserRepository.likeLiteral("plain"));
    }
}
