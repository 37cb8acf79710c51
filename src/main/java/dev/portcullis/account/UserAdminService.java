package dev.portcullis.account;

import dev.portcullis.admin.Refusal;
import dev.portcullis.audit.Actor;
import dev.portcullis.audit.AuditEvent;
import dev.portcullis.audit.AuditLog;
import dev.portcullis.config.DirectorySettings;
import dev.portcullis.crypto.Secrets;
import dev.portcullis.protocol.Username;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Event;
import jakarta.inject.Inject;
import jakarta.persistence.PersistenceException;
import jakarta.transaction.Transactional;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * What an administrator does to a user account (the admin API and the console alike): create, change (a merge
 * patch), unlock and delete, each validated, audited as the administrator's change and committed by one method.
 * Passwords are {@link CredentialService}'s.
 */
@ApplicationScoped
@Transactional
public class UserAdminService {

    /** A local user's groups: at most this many names of at most {@link #MAX_GROUP_NAME} characters. */
    public static final int MAX_GROUPS = 100;
    public static final int MAX_GROUP_NAME = 256;
    private static final Pattern EMAIL = Pattern.compile("[^@\\s]{1,64}@[^@\\s]{1,189}");

    @Inject
    UserRepository users;

    @Inject
    CredentialService credentials;

    @Inject
    Clock clock;

    @Inject
    Event<UserDisabled> userDisabled;

    @Inject
    Event<UserDeleted> userDeleted;

    @Inject
    SignInThrottle throttle;

    @Inject
    SecondFactorThrottle factorThrottle;

    @Inject
    Optional<DirectorySettings> directory;

    @Inject
    AuditLog audit;

    /**
     * A merge patch of a user (RFC 7396) as the services read it: a null field is left as it is; for the texts an
     * empty Optional removes the value; {@code roles} and {@code groups} replace the whole set (an empty
     * {@code groups} removes every group). Built by {@link #patch()}, naming only the fields that change.
     */
    public record UserPatch(Optional<String> email, Optional<String> name, Boolean enabled, Set<String> roles,
                            List<String> groups, ClaimChanges claims) {

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
            private ClaimChanges claims = ClaimChanges.NONE;

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

            /** The standard claims to set or remove. */
            public Builder claims(ClaimChanges claims) {
                this.claims = claims;
                return this;
            }

            public UserPatch build() {
                return new UserPatch(email, name, enabled, roles, groups, claims);
            }
        }
    }

    /** {@code groups} may be empty, never null; {@code claims} the standard claims to set. */
    public record NewUser(String username, String password, String email, String name, List<String> groups,
                          ClaimChanges claims) {

        public NewUser(String username, String password, String email, String name, List<String> groups) {
            this(username, password, email, name, groups, ClaimChanges.NONE);
        }

        public NewUser(String username, String password, String email, String name) {
            this(username, password, email, name, List.of());
        }
    }

    /**
     * Creates a user as {@code actor}'s change, audited as {@code USER_CREATED}.
     *
     * @throws Refusal when a value is not valid or the username is taken (nothing created)
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
        String username = Username.parse(n.username())
                .orElseThrow(() -> Refusal.invalid("username", Username.RULE)).value();
        CredentialService.checkPassword(n.password());
        checkEmail(n.email());
        checkName(n.name());
        n.claims().check();
        List<String> groups = groupNames(n.groups());
        if (users.findByUsername(username).isPresent()) {
            throw new Refusal(new Refusal.UsernameTaken(username));
        }
        User user = new User(userId, username, n.email(), n.name(), credentials.hashOfNew(n.password()), clock.instant());
        user.changeGroups(groups, clock.instant());
        changeClaims(user, n.claims(), clock.instant());
        try {
            users.add(user); // flushes: a concurrent duplicate surfaces here as 409, not at commit
        } catch (PersistenceException e) {
            throw new Refusal(new Refusal.UsernameTaken(username));
        }
        return user;
    }

    /**
     * Applies a merge patch and audits it as {@code actor}'s change. Disabling ends the user's sessions, codes and
     * token families in this transaction ({@link UserDisabled}). Empty when there is no such user.
     *
     * @throws Refusal when a value is not valid, {@code groups} is given for a directory user (the directory
     *                       owns their groups), or an administrator disables their own account; nothing is changed
     */
    public Optional<User> update(String username, UserPatch patch, Actor actor) {
        if (patch.email() != null) {
            patch.email().ifPresent(UserAdminService::checkEmail);
        }
        if (patch.name() != null) {
            patch.name().ifPresent(UserAdminService::checkName);
        }
        if (patch.roles() != null) {
            for (String role : patch.roles()) {
                if (!User.ROLES.contains(role)) {
                    throw Refusal.invalid("roles", "unknown role; known roles are "
                            + String.join(" ", new TreeSet<>(User.ROLES)));
                }
            }
        }
        patch.claims().check();
        List<String> groups = patch.groups() == null ? null : groupNames(patch.groups());
        Optional<User> found = users.findForChange(username);
        if (groups != null && found.filter(User::fromDirectory).isPresent()) {
            throw Refusal.invalid("groups", "a directory user's groups are the directory's");
        }
        for (String claim : patch.claims().texts().keySet()) {
            if (found.filter(User::fromDirectory).isPresent() && DirectorySyncService.directoryClaims(directory).contains(claim)) {
                throw Refusal.invalid(claim, "a directory user's " + claim + " is the directory's");
            }
        }
        if (Boolean.FALSE.equals(patch.enabled()) && found.isPresent()
                && actor.userId().filter(found.get().userId()::equals).isPresent()) {
            throw new Refusal(new Refusal.OwnAccountDisabled(found.get().username()));
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
            changed.addAll(changeClaims(u, patch.claims(), now));
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

    /** Applies validated claim changes; the names of the claims that changed, for the audit trail (no values). */
    static List<String> changeClaims(User u, ClaimChanges changes, Instant now) {
        Set<String> changed = new TreeSet<>();
        changes.texts().forEach((name, value) -> {
            String next = value.orElse(null);
            if (!Objects.equals(next, u.claim(name))) {
                u.changeClaim(name, next, now);
                changed.add(name.startsWith(StandardClaims.ADDRESS + ".") ? StandardClaims.ADDRESS : name);
            }
        });
        if (changes.phoneNumberVerified() != null && changes.phoneNumberVerified() != u.phoneNumberVerified()) {
            u.changePhoneNumberVerified(changes.phoneNumberVerified(), now);
            changed.add(StandardClaims.PHONE_NUMBER_VERIFIED + "=" + changes.phoneNumberVerified());
        }
        return List.copyOf(changed);
    }

    /** Whether {@code s} has the shape of an e-mail address (at most 254 characters, one {@code @}, no spaces). */
    static boolean isEmailAddress(String s) {
        return s != null && s.length() <= 254 && EMAIL.matcher(s).matches();
    }

    private static void checkEmail(String email) {
        if (email != null && (!isEmailAddress(email) || email.codePoints().anyMatch(Character::isISOControl))) {
            throw Refusal.invalid("email", "not an email address");
        }
    }

    private static void checkName(String name) {
        if (name != null && name.length() > 200) {
            throw Refusal.invalid("name", "must be at most 200 characters");
        }
        if (name != null && name.codePoints().anyMatch(Character::isISOControl)) {
            throw Refusal.invalid("name", "must not contain control characters");
        }
    }

    /**
     * A local user's group names as stored and released: each stripped, then sorted without duplicates like a
     * directory user's, so the claim does not depend on the order an administrator typed them in.
     *
     * @throws Refusal when a name is empty, longer than {@link #MAX_GROUP_NAME} or holds a control character
     *                       (a line break would split it), or there are more than {@link #MAX_GROUPS}
     */
    static List<String> groupNames(Collection<String> groups) {
        Set<String> names = new TreeSet<>();
        for (String g : groups) {
            String name = g == null ? "" : g.strip();
            if (name.isEmpty()) {
                throw Refusal.invalid("groups", "a group name must not be empty");
            }
            if (name.length() > MAX_GROUP_NAME) {
                throw Refusal.invalid("groups", "a group name must be at most " + MAX_GROUP_NAME
                        + " characters");
            }
            if (name.codePoints().anyMatch(Character::isISOControl)) {
                throw Refusal.invalid("groups", "a group name must not contain control characters");
            }
            names.add(name);
        }
        if (names.size() > MAX_GROUPS) {
            throw Refusal.invalid("groups", "at most " + MAX_GROUPS + " groups");
        }
        return List.copyOf(names);
    }

}
