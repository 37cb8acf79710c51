package dev.portcullis.account;

import dev.portcullis.audit.AuditEvent;
import dev.portcullis.admin.Refusal;
import dev.portcullis.audit.AuditLog;
import dev.portcullis.config.DirectorySettings;
import dev.portcullis.directory.DirectoryEntry;
import dev.portcullis.metrics.Metrics;
import dev.portcullis.protocol.LogText;
import dev.portcullis.protocol.Username;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Event;
import jakarta.inject.Inject;
import jakarta.transaction.Transactional;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.logging.Logger;

/**
 * The rows of directory users: created at the first sign-in and updated at every one with what the directory says,
 * and their access ended when the directory's re-check refuses the entry. The directory stays the owner of their
 * password, groups and account state.
 */
@ApplicationScoped
@Transactional
public class DirectorySyncService {

    private static final Logger LOG = Logger.getLogger(DirectorySyncService.class.getName());
    /** The groups column: names joined by line breaks, at most this many characters. */
    static final int MAX_GROUPS_TEXT = 65_535;

    @Inject
    UserRepository users;

    @Inject
    Metrics metrics;

    @Inject
    Clock clock;

    @Inject
    Event<DirectoryEntryRefused> directoryEntryRefused;

    @Inject
    AuditLog audit;

    @Inject
    Optional<DirectorySettings> directory;

    /**
     * The row of a directory user who has just been authenticated (or re-checked), created at the first sign-in and
     * updated with the directory's current username, DN, claims and groups. Empty, with a log line for the operator,
     * when the entry cannot have a row: its username is not a valid username, or belongs to another account (a
     * local user, or an earlier entry that has since been deleted or renamed: delete that row to free the name), or
     * its id is a local user's.
     */
    public Optional<User> syncDirectoryUser(DirectoryEntry e) {
        String dn = LogText.escape(e.dn());
        if (!Username.isWellFormed(e.username()) || e.dn().length() > 1024) {
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
        String email = UserAdminService.isEmailAddress(e.email()) ? e.email() : null;
        Set<String> supplied = directoryClaims(directory);
        Map<String, String> claims = new HashMap<>();
        supplied.forEach(claim -> claims.put(claim, usable(dn, claim, e.claims().get(claim))));
        Instant now = clock.instant();
        u.copyFromDirectory(e.username(), e.dn(), cut(e.name()),
                supplied.contains("given_name") ? claims.get("given_name") : u.givenName(),
                supplied.contains("family_name") ? claims.get("family_name") : u.familyName(), email,
                fitting(e.groups()), e.administrator(), now);
        claims.forEach((claim, value) -> {
            if (!Objects.equals(u.claim(claim), value)) {
                u.changeClaim(claim, value, now);
            }
        });
        if (row.isEmpty()) {
            users.add(u);
        }
        return Optional.of(u);
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
            metrics.logout(Metrics.LogoutTrigger.DIRECTORY);
        });
        return user.isPresent();
    }

    /**
     * The claims the directory supplies to its users ({@code portcullis.ldap.claim-attributes}), none of them an
     * administrator's to change; without a directory, the defaults.
     */
    static Set<String> directoryClaims(Optional<DirectorySettings> directory) {
        return directory.map(d -> d.attributes().claims().keySet())
                .orElseGet(DirectorySettings::defaultDirectoryClaims);
    }

    /**
     * A directory value as the claim's rule takes it, or null (logged, naming the claim but not the value) when the
     * rule refuses it: names are cut to their length, a phone number loses the spaces, dots, dashes and brackets
     * directories write it with ({@code +49 30 1234-567} is {@code +49301234567}).
     */
    static String usable(String dn, String claim, String value) {
        if (value == null || value.isBlank()) {
            return null;
        }
        String v = value.strip();
        boolean address = claim.startsWith(StandardClaims.ADDRESS + ".");
        String leaf = address ? claim.substring(StandardClaims.ADDRESS.length() + 1) : claim;
        if (claim.equals(StandardClaims.PHONE_NUMBER)) {
            v = v.replaceAll("[\\s().-]", "");
        } else if (Set.of("given_name", "family_name", "middle_name", "nickname").contains(claim)) {
            v = v.length() <= StandardClaims.maxLength(claim) ? v : v.substring(0, StandardClaims.maxLength(claim));
        }
        try {
            if (address) {
                StandardClaims.checkAddressMember(leaf, v);
            } else {
                StandardClaims.check(claim, v);
            }
            return v;
        } catch (Refusal r) {
            LOG.warning(() -> "LDAP entry " + dn + ": its value for " + claim + " is not usable (" + r.getMessage()
                    + "); the claim is left out");
            return null;
        }
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
}
