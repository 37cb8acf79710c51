package dev.portcullis.account;

import dev.portcullis.audit.Actor;
import dev.portcullis.audit.AuditEvent;
import dev.portcullis.audit.AuditLog;
import dev.portcullis.audit.ChangeRefused;
import dev.portcullis.crypto.Secrets;
import dev.portcullis.directory.DirectoryEntry;
import dev.portcullis.protocol.LogText;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Event;
import jakarta.inject.Inject;
import jakarta.persistence.PersistenceException;
import jakarta.transaction.Transactional;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.logging.Logger;
import java.util.regex.Pattern;

/** User accounts: creation, password changes, deletion, and the credential check used by sign-in. */
@ApplicationScoped
@Transactional
public class UserService {

    private static final Logger LOG = Logger.getLogger(UserService.class.getName());
    private static final SecureRandom RANDOM = new SecureRandom();
    public static final int MAX_USERNAME = 100;
    /** The longest text a user search looks for. */
    public static final int MAX_SEARCH_TEXT = 200;
    static final int MAX_GROUPS_TEXT = 65_535;
    /** A local user's groups: at most this many names of at most {@link #MAX_GROUP_NAME} characters. */
    public static final int MAX_GROUPS = 100;
    public static final int MAX_GROUP_NAME = 256;
    public static final int MIN_PASSWORD = 8;
    /** Upper bound so a megabyte "password" cannot make the slow hash slower (NIST 800-63B allows a cap). */
    public static final int MAX_PASSWORD = 1024;
    private static final Pattern USERNAME = Pattern.compile("[a-z0-9][a-z0-9._@+-]{0,99}");
    private static final Pattern EMAIL = Pattern.compile("[^@\\s]{1,64}@[^@\\s]{1,189}");

    @Inject
    UserRepository users;

    @Inject
    PasswordHasher hasher;

    @Inject
    Clock clock;

    @Inject
    Event<PasswordChanged> passwordChanged;

    @Inject
    Event<UserDisabled> userDisabled;

    @Inject
    Event<DirectoryEntryRefused> directoryEntryRefused;

    @Inject
    Event<UserDeleted> userDeleted;

    @Inject
    SignInThrottle throttle;

    @Inject
    SecondFactorThrottle factorThrottle;

    @Inject
    AuditLog audit;

    /**
     * A merge patch of a user (RFC 7396) as the services read it: a null field is left as it is; for the texts an
     * empty Optional removes the value; {@code roles} and {@code groups} replace the whole set (an empty
     * {@code groups} removes every group). Built by {@link #patch()}, naming only the fields that change.
     */
    public record UserPatch(Optional<String> email, Optional<String> name, Boolean enabled, Set<String> roles,
                            List<String> groups) {

        /** A patch that changes nothing until a field is named. */
        public static Builder patch() {
            return new Builder();
        }

        /** Names the fields of a {@link UserPatch}; a field not named (or named null) is left as it is. */
        public static final class Builder {
            private Optional<String> email;
            private Optional<String> name;
            private Boolean enabled;
            private Set<String> roles;
            private List<String> groups;

            private Builder() {
            }

            /** An empty Optional removes it. */
            public Builder email(Optional<String> email) {
                this.email = email;
                return this;
            }

            /** An empty Optional removes it. */
            public Builder name(Optional<String> name) {
                this.name = name;
                return this;
            }

            public Builder enabled(Boolean enabled) {
                this.enabled = enabled;
                return this;
            }

            public Builder roles(Set<String> roles) {
                this.roles = roles;
                return this;
            }

            /** An empty list removes every group. */
            public Builder groups(List<String> groups) {
                this.groups = groups;
                return this;
            }

            public UserPatch build() {
                return new UserPatch(email, name, enabled, roles, groups);
            }
        }
    }

    /** {@code groups} may be empty, never null. */
    public record NewUser(String username, String password, String email, String name, List<String> groups) {

        public NewUser(String username, String password, String email, String name) {
            this(username, password, email, name, List.of());
        }
    }

    /**
     * Creates a user as {@code actor}'s change, audited as {@code USER_CREATED}.
     *
     * @throws ChangeRefused when a value is not valid or the username is taken (nothing created)
     */
    public User create(NewUser n, Actor actor) {
        User user = createWithId(Secrets.newId(), n);
        audit.change(AuditEvent.Type.USER_CREATED, actor, null, user.username(), null);
        return user;
    }

    /**
     * Creates a user under a fixed id at start-up (demo mode's user, recognisable by it: random ids are 22
     * characters), not audited; otherwise exactly as {@link #create(NewUser, Actor)}.
     */
    public User createWithId(String userId, NewUser n) {
        String username = normalizeUsername(n.username());
        checkPassword(n.password());
        checkEmail(n.email());
        checkName(n.name());
        List<String> groups = groupNames(n.groups());
        if (users.findByUsername(username).isPresent()) {
            throw new ChangeRefused(new ChangeRefused.UsernameTaken(username));
        }
        User user = new User(userId, username, n.email(), n.name(), hasher.hash(n.password()), clock.instant());
        user.changeGroups(groups, clock.instant());
        try {
            users.add(user); // flushes: a concurrent duplicate surfaces here as 409, not at commit
        } catch (PersistenceException e) {
            throw new ChangeRefused(new ChangeRefused.UsernameTaken(username));
        }
        return user;
    }

    public Optional<User> findByUsername(String username) {
        return users.findByUsername(username);
    }

    /**
     * A page of users in username order, after {@code after}, whose username, e-mail or name contains {@code text}
     * (any case; blank or null: every user).
     *
     * @throws ChangeRefused when {@code text} is longer than {@link #MAX_SEARCH_TEXT} (the admin API's 400)
     */
    public List<User> search(String text, String after, int limit) {
        String t = text == null || text.isBlank() ? null : text.strip();
        if (t != null && t.length() > MAX_SEARCH_TEXT) {
            throw ChangeRefused.invalid("q", "must be at most " + MAX_SEARCH_TEXT + " characters");
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

    /**
     * Applies a merge patch and audits it as {@code actor}'s change. Disabling ends the user's sessions, codes and
     * token families in this transaction ({@link UserDisabled}). Empty when there is no such user.
     *
     * @throws ChangeRefused when a value is not valid, {@code groups} is given for a directory user (the directory
     *                       owns their groups), or an administrator disables their own account; nothing is changed
     */
    public Optional<User> update(String username, UserPatch patch, Actor actor) {
        if (patch.email() != null) {
            patch.email().ifPresent(UserService::checkEmail);
        }
        if (patch.name() != null) {
            patch.name().ifPresent(UserService::checkName);
        }
        if (patch.roles() != null) {
            for (String role : patch.roles()) {
                if (!User.ROLES.contains(role)) {
                    throw ChangeRefused.invalid("roles", "unknown role; known roles are "
                            + String.join(" ", new TreeSet<>(User.ROLES)));
                }
            }
        }
        List<String> groups = patch.groups() == null ? null : groupNames(patch.groups());
        Optional<User> found = users.findForChange(username);
        if (groups != null && found.filter(User::fromDirectory).isPresent()) {
            throw ChangeRefused.invalid("groups", "a directory user's groups are the directory's");
        }
        if (Boolean.FALSE.equals(patch.enabled()) && found.isPresent()
                && actor.userId().filter(found.get().userId()::equals).isPresent()) {
            throw new ChangeRefused(new ChangeRefused.OwnAccountDisabled(found.get().username()));
        }
        found.ifPresent(u -> {
            Instant now = clock.instant();
            List<String> changed = new ArrayList<>();
            if (patch.email() != null || patch.name() != null) {
                u.changeProfile(patch.email() == null ? u.email() : patch.email().orElse(null),
                        patch.name() == null ? u.name() : patch.name().orElse(null), now);
                if (patch.email() != null) {
                    changed.add("email");
                }
                if (patch.name() != null) {
                    changed.add("name");
                }
            }
            if (patch.roles() != null && !patch.roles().equals(u.roles())) {
                u.changeRoles(patch.roles(), now);
                changed.add("roles=[" + String.join(" ", u.roles()) + "]");
            }
            if (groups != null && !groups.equals(u.groups())) {
                u.changeGroups(groups, now);
                changed.add("groups");
            }
            if (patch.enabled() != null && patch.enabled() != u.enabled()) {
                u.changeEnabled(patch.enabled(), now);
                String what = "enabled=" + patch.enabled();
                if (!patch.enabled()) {
                    UserDisabled disabled = new UserDisabled(u.userId());
                    userDisabled.fire(disabled);
                    what += " (" + disabled.consequences() + ")";
                }
                changed.add(what);
            }
            audit.change(AuditEvent.Type.USER_UPDATED, actor, null, u.username(),
                    changed.isEmpty() ? "no change" : String.join(", ", changed));
        });
        return found;
    }

    /**
     * Ends everything a directory user's sign-ins opened (SSO sessions, codes, token families:
     * {@link DirectoryEntryRefused}) because the directory's re-check refused the entry (gone, disabled or no longer
     * matching), audited in the same transaction. False when there is no such directory user.
     */
    public boolean endDirectoryAccess(String userId, String ip) {
        Optional<User> user = users.findByIdForChange(userId).filter(User::fromDirectory);
        user.ifPresent(u -> {
            DirectoryEntryRefused refused = new DirectoryEntryRefused(u.userId());
            directoryEntryRefused.fire(refused);
            audit.success(AuditEvent.Type.SESSION_ENDED, null, u.userId(), ip, "directory re-check: the entry is "
                    + "gone, disabled or no longer matches (" + refused.consequences() + ")");
        });
        return user.isPresent();
    }

    /**
     * Clears the sign-in and second-factor throttles of an existing account (either lock ends at once); false when
     * there is no such user.
     */
    public boolean unlock(String username, Actor actor) {
        Optional<User> user = users.findByUsername(username);
        user.ifPresent(u -> {
            boolean passwords = throttle.clear(u.username());
            boolean factors = factorThrottle.clear(u.userId());
            audit.change(AuditEvent.Type.USER_UNLOCKED, actor, null, u.username(),
                    passwords || factors ? "throttle cleared" : "was not throttled");
        });
        return user.isPresent();
    }

    public Optional<User> findById(String userId) {
        return users.findById(userId);
    }

    /**
     * An administrator's setting of a user's password, as {@code actor}'s change audited as
     * {@code USER_PASSWORD_CHANGED}: it ends the user's SSO sessions and token families ({@link #changePassword}).
     * False when there is no such user.
     *
     * @throws ChangeRefused when the password is refused (length, or a directory user's)
     */
    public boolean setPassword(String username, String password, Actor actor) {
        return changePassword(username, password).map(changed -> {
            audit.change(AuditEvent.Type.USER_PASSWORD_CHANGED, actor, null, username.toLowerCase(Locale.ROOT),
                    changed.consequences());
            return changed;
        }).isPresent();
    }

    /**
     * An administrator's reset to a generated password (120 random bits), shown once to the administrator and never
     * stored in clear or logged; otherwise as {@link #setPassword}. Empty when there is no such user.
     *
     * @throws ChangeRefused for a directory user
     */
    public Optional<String> resetPassword(String username, Actor actor) {
        String password = generatedPassword();
        return changePassword(username, password).map(changed -> {
            audit.change(AuditEvent.Type.USER_PASSWORD_CHANGED, actor, null, username.toLowerCase(Locale.ROOT),
                    "generated" + (actor.where() == null ? "" : " " + actor.where()) + "; " + changed.consequences());
            return password;
        });
    }

    /**
     * A user's change of their own password, once {@link SignInService#changeOwnPassword} has checked the current
     * one: audited as {@code USER_PASSWORD_CHANGED} of the user at {@code clientId} (the account page). Package-private
     * so that nothing reaches it without that check.
     */
    Optional<PasswordChanged> changeOwnPassword(String username, String password, String clientId,
                                                       Actor actor) {
        Optional<PasswordChanged> changed = changePassword(username, password);
        changed.ifPresent(c -> audit.success(AuditEvent.Type.USER_PASSWORD_CHANGED, clientId, c.userId(), actor.ip(),
                "by the user" + (actor.where() == null ? "" : " " + actor.where()) + "; " + c.consequences()));
        return changed;
    }

    /**
     * Sets a user's password and, in the same transaction, ends their SSO sessions and revokes their token families
     * ({@link PasswordChanged}). Empty when there is no such user; otherwise what was ended, for the audit trail.
     */
    private Optional<PasswordChanged> changePassword(String username, String password) {
        checkPassword(password);
        Optional<User> user = users.findForChange(username);
        if (user.isPresent() && user.get().fromDirectory()) {
            throw new ChangeRefused(new ChangeRefused.PasswordRefused(ChangeRefused.PasswordProblem.DIRECTORY_USER,
                    username + " is a directory user; the password is changed in the directory"));
        }
        return user.map(u -> {
            u.changePasswordHash(hasher.hash(password), clock.instant());
            PasswordChanged changed = new PasswordChanged(u.userId());
            passwordChanged.fire(changed);
            return changed;
        });
    }

    /**
     * Deletes the user as {@code actor}'s change, audited as {@code USER_DELETED}; sessions, consents, codes, grants
     * and tokens go with it (ON DELETE CASCADE). False when there is no such user.
     */
    public boolean delete(String username, Actor actor) {
        boolean deleted = deleteSeeded(username);
        if (deleted) {
            audit.change(AuditEvent.Type.USER_DELETED, actor, null, username.toLowerCase(Locale.ROOT), null);
        }
        return deleted;
    }

    /** Deletes a user that start-up code created (demo mode's, once demo mode is off), not audited, as its creation. */
    public boolean deleteSeeded(String username) {
        Optional<User> user = users.findForChange(username);
        user.ifPresent(u -> {
            // the sessions end through their owner first, which queues their back-channel logouts
            userDeleted.fire(new UserDeleted(u.userId()));
            users.remove(u);
        });
        return user.isPresent();
    }

    static String generatedPassword() {
        byte[] bytes = new byte[15];
        RANDOM.nextBytes(bytes);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }

    /**
     * The credential check of sign-in: the user (read-only) when the password is right, else empty. Unknown usernames
     * cost the same hash as known ones, so timing does not reveal which exist. Outside any transaction, so no
     * database connection waits while the hash is computed; the caller replaces a hash made with other parameters
     * ({@link #replaceOutdatedHash}).
     *
     * @throws PasswordHasher.BusyException when no hash could start in time (nothing was checked)
     */
    @Transactional(Transactional.TxType.NOT_SUPPORTED)
    public Optional<User> checkCredentials(String username, String password) {
        if (password == null || password.length() > MAX_PASSWORD) {
            hasher.verifyAgainstDummy("");
            return Optional.empty();
        }
        Optional<User> user = users.findByUsername(username).filter(u -> !u.fromDirectory());
        if (user.isEmpty()) {
            hasher.verifyAgainstDummy(password);
            return Optional.empty();
        }
        return hasher.verify(password, user.get().passwordHash()) ? user : Optional.empty();
    }

    /**
     * The row of a directory user who has just been authenticated (or re-checked), created at the first sign-in and
     * updated with the directory's current username, DN, claims and groups. Empty, with a log line for the operator,
     * when the entry cannot have a row: its username is not a valid username, or belongs to another account (a
     * local user, or an earlier entry that has since been deleted or renamed: delete that row to free the name), or
     * its id is a local user's.
     */
    public Optional<User> syncDirectoryUser(DirectoryEntry e) {
        String dn = LogText.escape(e.dn());
        if (!isWellFormedUsername(e.username()) || e.dn().length() > 1024) {
            LOG.warning(() -> "LDAP entry " + dn + ": username '" + LogText.escape(e.username()) + "' is not a valid "
                    + "Portcullis username (or the DN is longer than 1024 characters); it cannot sign in");
            return Optional.empty();
        }
        Optional<User> byName = users.findForChange(e.username());
        if (byName.isPresent() && !byName.get().userId().equals(e.subject())) {
            LOG.warning(() -> "LDAP entry " + dn + ": username " + e.username() + " belongs to another account ("
                    + byName.get().source() + " user " + byName.get().userId() + "); it cannot sign in");
            return Optional.empty();
        }
        Optional<User> row = users.findByIdForChange(e.subject());
        if (row.isPresent() && !row.get().fromDirectory()) {
            LOG.severe(() -> "LDAP entry " + dn + ": its id " + LogText.escape(e.subject())
                    + " is a local user's; it cannot sign in");
            return Optional.empty();
        }
        User u = row.orElseGet(() -> User.newFromDirectory(e.subject(), clock.instant()));
        String email = e.email() != null && e.email().length() <= 254 && EMAIL.matcher(e.email()).matches()
                ? e.email() : null;
        u.copyFromDirectory(e.username(), e.dn(), cut(e.name()), cut(e.givenName()), cut(e.familyName()), email,
                fitting(e.groups()), e.administrator(), clock.instant());
        if (row.isEmpty()) {
            users.add(u);
        }
        return Optional.of(u);
    }

    private static String cut(String s) {
        return s == null || s.length() <= 200 ? s : s.substring(0, 200);
    }

    /** The groups that fit the column, in order; a name with a line break (the separator) is left out. */
    private static List<String> fitting(List<String> groups) {
        List<String> kept = new ArrayList<>();
        int length = 0;
        for (String g : groups) {
            if (g.indexOf('\n') >= 0 || g.indexOf('\r') >= 0 || g.isEmpty()) {
                continue;
            }
            length += g.length() + 1;
            if (length > MAX_GROUPS_TEXT) {
                break;
            }
            kept.add(g);
        }
        return kept;
    }

    /** Stores {@code fresh} (the same password, hashed as configured) unless the password changed meanwhile. */
    public void replaceOutdatedHash(String username, String outdated, String fresh) {
        users.findForChange(username).filter(u -> outdated.equals(u.passwordHash()))
                .ifPresent(u -> u.changePasswordHash(fresh, clock.instant()));
    }

    /** Whether {@code lowerCased} has the shape of a username (what {@link #normalizeUsername} accepts). */
    static boolean isWellFormedUsername(String lowerCased) {
        return lowerCased != null && USERNAME.matcher(lowerCased).matches();
    }

    static String normalizeUsername(String raw) {
        String u = raw == null ? "" : raw.strip().toLowerCase(Locale.ROOT);
        if (!USERNAME.matcher(u).matches()) {
            throw ChangeRefused.invalid("username", "1 to " + MAX_USERNAME
                    + " characters of letters, digits and . _ @ + - (starting with a letter or digit)");
        }
        return u;
    }

    private static void checkEmail(String email) {
        if (email != null && (email.length() > 254 || !EMAIL.matcher(email).matches()
                || email.codePoints().anyMatch(Character::isISOControl))) {
            throw ChangeRefused.invalid("email", "not an email address");
        }
    }

    private static void checkName(String name) {
        if (name != null && name.length() > 200) {
            throw ChangeRefused.invalid("name", "must be at most 200 characters");
        }
        if (name != null && name.codePoints().anyMatch(Character::isISOControl)) {
            throw ChangeRefused.invalid("name", "must not contain control characters");
        }
    }

    /**
     * A local user's group names as stored and released: each stripped, then sorted without duplicates like a
     * directory user's, so the claim does not depend on the order an administrator typed them in.
     *
     * @throws ChangeRefused when a name is empty, longer than {@link #MAX_GROUP_NAME} or holds a control character
     *                       (a line break would split it), or there are more than {@link #MAX_GROUPS}
     */
    static List<String> groupNames(Collection<String> groups) {
        Set<String> names = new TreeSet<>();
        for (String g : groups) {
            String name = g == null ? "" : g.strip();
            if (name.isEmpty()) {
                throw ChangeRefused.invalid("groups", "a group name must not be empty");
            }
            if (name.length() > MAX_GROUP_NAME) {
                throw ChangeRefused.invalid("groups", "a group name must be at most " + MAX_GROUP_NAME
                        + " characters");
            }
            if (name.codePoints().anyMatch(Character::isISOControl)) {
                throw ChangeRefused.invalid("groups", "a group name must not contain control characters");
            }
            names.add(name);
        }
        if (names.size() > MAX_GROUPS) {
            throw ChangeRefused.invalid("groups", "at most " + MAX_GROUPS + " groups");
        }
        return List.copyOf(names);
    }

    static void checkPassword(String password) {
        if (password == null || password.length() < MIN_PASSWORD || password.length() > MAX_PASSWORD) {
            throw new ChangeRefused(new ChangeRefused.PasswordRefused(ChangeRefused.PasswordProblem.LENGTH,
                    "must be " + MIN_PASSWORD + " to " + MAX_PASSWORD + " characters"));
        }
    }
}
