package dev.portcullis.account;

import java.time.Instant;

/** Users for plain unit tests (the row constructor is package-private). */
public final class TestUsers {

    private TestUsers() {
    }

    public static User user(String userId, String username, String email, String name) {
        return new User(userId, username, email, name, "$argon2id$not-a-real-hash", Instant.EPOCH);
    }
}
