package dev.portcullis.account;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Who may use the admin console: the admin role, or a directory user's membership of the admin group. */
class UserAdministratorTest {

    private static final Instant NOW = Instant.parse("2026-11-24T06:00:00Z");

    private static User directoryUser(boolean inAdminGroup) {
        User u = User.newFromDirectory("3f2504e0-4f89-11d3-9a0c-0305e82c3301", NOW);
        u.copyFromDirectory("dora", "uid=dora,ou=people,dc=example,dc=org", "Dora", null, null, null,
                List.of("staff"), inAdminGroup, NOW);
        return u;
    }

    @Test
    void aDirectoryUserInTheAdminGroupIsAnAdministratorAndLosesItWhenLeavingTheGroup() {
        User u = directoryUser(true);
        assertTrue(u.isAdministrator());
        assertTrue(u.isDirectoryAdministrator());
        assertFalse(u.hasRole(User.ADMIN), "the group grants no role: roles stay the admin API's");
        u.copyFromDirectory("dora", "uid=dora,ou=people,dc=example,dc=org", "Dora", null, null, null,
                List.of("staff"), false, NOW);
        assertFalse(u.isAdministrator(), "re-checked out of the group");
    }

    @Test
    void theAdminRoleMakesAnyUserAnAdministratorAndNothingElseDoes() {
        User local = new User("u1", "lena", null, null, "hash", NOW);
        assertFalse(local.isAdministrator());
        local.changeRoles(Set.of(User.ADMIN), NOW);
        assertTrue(local.isAdministrator());
        assertFalse(local.isDirectoryAdministrator());
        User outsider = directoryUser(false);
        assertFalse(outsider.isAdministrator());
        outsider.changeRoles(Set.of(User.ADMIN), NOW);
        assertTrue(outsider.isAdministrator());
    }
}
