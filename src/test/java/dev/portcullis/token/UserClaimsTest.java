package dev.portcullis.token;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.portcullis.account.TestUsers;
import dev.portcullis.account.User;
import dev.portcullis.protocol.ClaimsRequest;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The claims each scope releases, for the ID token and the userinfo endpoint alike (OIDC Core 5.4). */
class UserClaimsTest {

    private final User alice = TestUsers.user("u-1", "alice", "alice@example.com", "Alice Liddell");

    @Test
    void openidAloneReleasesNothingBeyondSub() {
        assertEquals(Map.of(), UserClaims.of(alice, Set.of("openid")));
    }

    @Test
    void profileReleasesUsernameAndName() {
        assertEquals(Map.of("preferred_username", "alice", "name", "Alice Liddell", "updated_at", 0L),
                UserClaims.of(alice, Set.of("openid", "profile")));
    }

    @Test
    void emailReleasesTheAddressAsUnverified() {
        assertEquals(Map.of("email", "alice@example.com", "email_verified", false),
                UserClaims.of(alice, Set.of("openid", "email")));
    }

    @Test
    void everyScopeInAStableOrder() {
        assertEquals(List.of("preferred_username", "name", "updated_at", "email", "email_verified"),
                List.copyOf(UserClaims.of(alice, Set.of("openid", "profile", "email")).keySet()));
    }

    @Test
    void absentNameAndEmailAreLeftOut() {
        User bob = TestUsers.user("u-2", "bob", null, null);
        assertEquals(Map.of("preferred_username", "bob", "updated_at", 0L),
                UserClaims.of(bob, Set.of("openid", "profile", "email")));
    }

    @Test
    void theIdTokenCarriesOnlyWhatTheClaimsParameterAsksThereUnlessTheClientWantsTheScopesClaims() {
        ClaimsRequest asks = ClaimsRequest.parse(Optional.of("{\"id_token\":{\"email\":null,"
                + "\"name\":{\"value\":\"Someone Else\"},\"no_such_claim\":null}}"));
        assertEquals(Map.of("email", "alice@example.com"),
                UserClaims.inIdToken(alice, Set.of("openid", "profile"), asks, false));
        assertEquals(Map.of(), UserClaims.inIdToken(alice, Set.of("openid", "profile"), ClaimsRequest.NONE, false));
        assertEquals(List.of("preferred_username", "name", "updated_at", "email"), List.copyOf(
                UserClaims.inIdToken(alice, Set.of("openid", "profile"), asks, true).keySet()));
        assertEquals(Map.of("email", "alice@example.com"),
                UserClaims.atUserinfo(alice, Set.of("openid"), ClaimsRequest.parse(Optional.of(
                        "{\"userinfo\":{\"email\":{\"essential\":true},\"phone_number\":null}}"))),
                "asked one by one: released when the user has it");
    }

    @Test
    void groupsReleasesALocalUsersGroupsAndAnEmptyListForNone() {
        User carol = TestUsers.withGroups(TestUsers.user("u-3", "carol", null, null),
                List.of("payroll-admins", "staff"));
        assertEquals(Map.of("groups", List.of("payroll-admins", "staff")),
                UserClaims.of(carol, Set.of("openid", "groups")));
        assertFalse(UserClaims.of(carol, Set.of("openid", "profile")).containsKey("groups"), "not without the scope");
        assertEquals(Map.of("groups", List.of()), UserClaims.of(alice, Set.of("openid", "groups")));
    }
}
