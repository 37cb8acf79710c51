package dev.portcullis.account;

import java.time.Instant;
import java.util.List;

/** Users for plain unit tests (the row constructor is package-private). */
public final class TestUsers {

    private TestUsers() {
    }

    public static User user(String userId, String username, String email, String name) {
        return new User(userId, username, email, name, "$argon2id$not-a-real-hash", Instant.EPOCH);
    }

    /** The user, disabled by an administrator. */
    public static User disabled(User user) {
        user.changeEnabled(false, Instant.EPOCH);
        return user;
    }

    /** A local user with the groups an administrator gave them. */
    public static User withGroups(User user, List<String> groups) {
        user.changeGroups(groups, Instant.EPOCH);
        return user;
    }
}
