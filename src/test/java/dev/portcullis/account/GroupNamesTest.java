package dev.portcullis.account;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.portcullis.admin.Refusal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A local user's groups: the names an administrator may give, and which groups a user's tokens carry. */
class GroupNamesTest {

    private static final Instant NOW = Instant.parse("2026-11-25T06:00:00Z");

    @Test
    void namesAreStrippedSortedAndDuplicatesCollapse() {
        assertEquals(List.of("payroll-admins", "staff"),
                UserAdminService.groupNames(List.of(" staff", "payroll-admins", "staff ")));
    }

    @Test
    void aNameWithCommasAndSpacesIsOneName() {
        assertEquals(List.of("cn=Payroll Admins,ou=groups"),
                UserAdminService.groupNames(List.of("cn=Payroll Admins,ou=groups")));
    }

    @Test
    void emptyLongOrControlCharacterNamesAreRefused() {
        for (String bad : new String[] {"", "   ", "a".repeat(UserAdminService.MAX_GROUP_NAME + 1), "two\nlines",
                "tab\there", "nul\u0000"}) {
            Refusal e = assertThrows(Refusal.class, () -> UserAdminService.groupNames(Arrays.asList(bad)), bad);
            assertTrue(e.getMessage().startsWith("groups: "), e.getMessage());
        }
        assertEquals(List.of("a".repeat(UserAdminService.MAX_GROUP_NAME)),
                UserAdminService.groupNames(List.of("a".repeat(UserAdminService.MAX_GROUP_NAME))));
    }

    @Test
    void atMostOneHundredDistinctGroups() {
        List<String> names = new ArrayList<>();
        for (int i = 0; i < UserAdminService.MAX_GROUPS; i++) {
            names.add("g" + i);
        }
        names.add("g0");
        assertEquals(UserAdminService.MAX_GROUPS, UserAdminService.groupNames(names).size(), "a duplicate does not count");
        names.add("one-too-many");
        assertThrows(Refusal.class, () -> UserAdminService.groupNames(names));
    }

    @Test
    void aLocalUserCarriesTheGroupsAnAdministratorSetAndNoneAfterClearing() {
        User local = new User("u1", "lena", null, null, "hash", NOW);
        assertEquals(List.of(), local.groups());
        local.changeGroups(List.of("payroll-admins", "staff"), NOW);
        assertEquals(List.of("payroll-admins", "staff"), local.groups());
        local.changeGroups(List.of(), NOW);
        assertEquals(List.of(), local.groups());
    }

    @Test
    void aDirectoryUserCarriesTheDirectorysGroupsOnly() {
        User dora = User.newFromDirectory("3f2504e0-4f89-11d3-9a0c-0305e82c3301", NOW);
        dora.changeGroups(List.of("set-locally"), NOW);
        dora.copyFromDirectory("dora", "uid=dora,ou=people,dc=example,dc=org", "Dora", null, null, null,
                List.of("developers"), false, NOW);
        assertEquals(List.of("developers"), dora.groups());
    }
}
