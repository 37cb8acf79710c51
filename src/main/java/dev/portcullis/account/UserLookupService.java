package dev.portcullis.account;

import dev.portcullis.admin.Refusal;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.transaction.Transactional;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Finding users: by id or username, a search, their number, and whether one may open the console. */
@ApplicationScoped
@Transactional
public class UserLookupService {

    /** The longest text a user search looks for. */
    public static final int MAX_SEARCH_TEXT = 200;

    @Inject
    UserRepository users;

    public Optional<User> findById(String userId) {
        return users.findById(userId);
    }

    public Optional<User> findByUsername(String username) {
        return users.findByUsername(username);
    }

    /**
     * A page of users in username order, after {@code after}, whose username, e-mail or name contains {@code text}
     * (any case; blank or null: every user).
     *
     * @throws Refusal when {@code text} is longer than {@link #MAX_SEARCH_TEXT} (the admin API's 400)
     */
    public List<User> search(String text, String after, int limit) {
        String t = text == null || text.isBlank() ? null : text.strip();
        if (t != null && t.length() > MAX_SEARCH_TEXT) {
            throw Refusal.invalid("q", "must be at most " + MAX_SEARCH_TEXT + " characters");
        }
        return users.search(t, after, limit);
    }

    /** How many users there are. */
    public long count() {
        return users.count();
    }

    /** User id → username of those of {@code userIds} that exist (one query). */
    public Map<String, String> usernamesOf(Collection<String> userIds) {
        return users.usernamesOf(userIds);
    }

    /** Whether the user exists, is enabled and is an administrator ({@link User#isAdministrator}; the console's door). */
    public boolean isAdmin(String userId) {
        return users.findById(userId).filter(User::enabled).map(User::isAdministrator).orElse(false);
    }
}
