package dev.portcullis.directory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.LDAPURL;
import com.unboundid.util.ssl.PEMFileTrustManager;
import com.unboundid.util.ssl.SSLUtil;
import dev.portcullis.config.DirectorySettings;
import dev.portcullis.testing.TestDirectory;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The directory client against a real LDAP server over TCP ({@link TestDirectory}): the OpenLDAP-shaped tree over
 * StartTLS with groups from a group search, the Active Directory-shaped tree over LDAPS with nested memberOf and
 * account states, failover, filter injection, a certificate from another CA, and an outage.
 */
class DirectoryTest {

    private static TestDirectory openLdap;
    private static TestDirectory ad;

    @BeforeAll
    static void start() {
        openLdap = TestDirectory.openLdap();
        ad = TestDirectory.activeDirectory();
    }

    @AfterAll
    static void stop() {
        openLdap.close();
        ad.close();
    }

    private static DirectorySettings settings(TestDirectory d, List<String> urls, boolean startTls, Path ca,
                                              String userFilter, DirectorySettings.Attributes attributes,
                                              Optional<String> groupBase, boolean memberOf,
                                              Optional<String> adminGroup) {
        List<LDAPURL> parsed = urls.stream().map(u -> {
            try {
                return new LDAPURL(u);
            } catch (LDAPException e) {
                throw new IllegalArgumentException(e);
            }
        }).toList();
        return new DirectorySettings(parsed, startTls, Optional.of(ca),
                Optional.of(TestDirectory.SERVICE_DN + "," + d.baseDn), Optional.of(TestDirectory.SERVICE_PASSWORD),
                d.baseDn, userFilter, attributes, groupBase, "(member={dn})", "cn", memberOf, Duration.ofSeconds(2),
                Duration.ofSeconds(5), 2, true, Duration.ofMinutes(15), adminGroup);
    }

    private static Directory openLdapOverStartTls() {
        return openLdapOverStartTls(Optional.empty());
    }

    private static Directory openLdapOverStartTls(Optional<String> adminGroup) {
        return new Directory(settings(openLdap, List.of("ldap://127.0.0.1:" + openLdap.ldapPort), true,
                TestDirectory.CA_FILE, "(uid={0})",
                new DirectorySettings.Attributes("entryUUID", "uid", "cn", "givenName", "sn", "mail"),
                Optional.of("ou=groups," + openLdap.baseDn), false, adminGroup));
    }

    private static Directory activeDirectoryOverLdaps(String... urls) {
        return activeDirectoryOverLdaps(Optional.empty(), urls);
    }

    private static Directory activeDirectoryOverLdaps(Optional<String> adminGroup, String... urls) {
        return new Directory(settings(ad, List.of(urls), false, TestDirectory.CA_FILE,
                "(&(objectClass=user)(|(sAMAccountName={0})(userPrincipalName={0})))",
                new DirectorySettings.Attributes("objectGUID", "sAMAccountName", "displayName", "givenName", "sn",
                        "mail"), Optional.empty(), true, adminGroup));
    }

    /** Whether {@code username} signs in as an administrator with {@code portcullis.ldap.admin-group} set so. */
    private static boolean administrator(Directory d, String username) {
        boolean administrator = d.authenticate(username, TestDirectory.PASSWORD).entry().orElseThrow().administrator();
        d.close();
        return administrator;
    }

    @Test
    void theAdminGroupIsMatchedByNameInAnyCaseOrByDnAsADn() {
        assertTrue(administrator(openLdapOverStartTls(Optional.of("STAFF")), "alice"), "by name, any case");
        assertTrue(administrator(openLdapOverStartTls(Optional.of("CN=Staff, OU=Groups," + openLdap.baseDn)),
                "alice"), "by DN, any case and spacing");
        assertFalse(administrator(openLdapOverStartTls(Optional.of("cn=staff,ou=elsewhere," + openLdap.baseDn)),
                "alice"), "a group of that name elsewhere is another group");
        assertFalse(administrator(openLdapOverStartTls(Optional.of("staf")), "alice"), "no partial match");
        assertFalse(administrator(openLdapOverStartTls(Optional.empty()), "alice"), "no setting, nobody");
        assertTrue(administrator(activeDirectoryOverLdaps(Optional.of("cn=Engineering,ou=Groups," + ad.baseDn),
                "ldaps://127.0.0.1:" + ad.ldapsPort), "carol"), "a nested group counts (memberOf walk)");
    }

    @Test
    void openLdapUserSignsInOverStartTlsWithClaimsAndGroupsFromAGroupSearch() {
        Directory d = openLdapOverStartTls();
        Directory.Authentication a = d.authenticate("alice", TestDirectory.PASSWORD);
        assertEquals(Directory.Outcome.AUTHENTICATED, a.outcome());
        DirectoryEntry e = a.entry().orElseThrow();
        assertTrue(e.subject().matches("[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"), e.subject());
        assertEquals("uid=alice,ou=people,dc=example,dc=org", e.dn());
        assertEquals(new DirectoryEntry(e.subject(), e.dn(), "alice", "Alice Liddell", "Alice", "Liddell",
                "alice@example.org", List.of("engineers", "staff")), e);
        assertEquals(Optional.of(e), d.findEnabled(e.subject()), "the re-check finds it by its entryUUID");
        d.close();
    }

    @Test
    void findPrincipalMapsAKerberosPrincipalWithItsAccountStateAndBindsNothing() {
        Directory d = activeDirectoryOverLdaps("ldaps://127.0.0.1:" + ad.ldapsPort);
        String byName = "(&(objectClass=user)(sAMAccountName={1}))";
        String byUpn = "(&(objectClass=user)(userPrincipalName={0}))";
        int before = ad.binds.size();
        Directory.Authentication carol = d.findPrincipal(byName, "carol@CORP.EXAMPLE.COM", "carol");
        assertEquals(Directory.Outcome.AUTHENTICATED, carol.outcome());
        assertEquals(TestDirectory.CAROL_GUID, carol.entry().orElseThrow().subject());
        assertEquals(TestDirectory.CAROL_GUID, d.findPrincipal(byUpn, "carol@corp.example.com", "carol").entry()
                .orElseThrow().subject());
        assertEquals(Directory.Outcome.DISABLED, d.findPrincipal(byName, "dave@X", "dave").outcome());
        assertEquals(Directory.Outcome.LOCKED, d.findPrincipal(byName, "erin@X", "erin").outcome());
        for (String[] p : new String[][] {{"zed@X", "zed"}, {"*@X", "*"}, {"carol)(x=*@X", "carol)(x=*"}}) {
            assertEquals(Directory.Outcome.INVALID, d.findPrincipal(byName, p[0], p[1]).outcome(), p[0]);
            assertEquals(Directory.Outcome.INVALID, d.findPrincipal(byUpn, p[0], p[1]).outcome(), p[0]);
        }
        assertEquals(List.of(), ad.userBindsSince(before));
        d.close();
    }

    @Test
    void wrongPasswordBindsAsTheUserAndIsRefused() {
        Directory d = openLdapOverStartTls();
        int before = openLdap.binds.size();
        assertEquals(Directory.Outcome.INVALID, d.authenticate("bob", "wrong password").outcome());
        assertEquals(List.of("uid=bob,ou=people,dc=example,dc=org"), openLdap.userBindsSince(before));
        d.close();
    }

    @Test
    void unknownUsersInjectionsAndEmptyPasswordsAreRefusedWithoutBindingAsAnyone() {
        Directory d = openLdapOverStartTls();
        int before = openLdap.binds.size();
        for (String name : List.of("nobody", "*", "a*", "admin)(uid=*", "*)(uid=*))(|(uid=*", "admin)", "(", "\\",
                "admin\u0000", "\u0000")) {
            for (String password : List.of(TestDirectory.PASSWORD, "admin password 1")) {
                assertEquals(Directory.Outcome.INVALID, d.authenticate(name, password).outcome(), name);
            }
        }
        assertEquals(Directory.Outcome.INVALID, d.authenticate("alice", "").outcome());
        assertEquals(List.of(), openLdap.userBindsSince(before));
        d.close();
    }

    /** Carol's values of the default claim attributes, as the directory holds them: mobile for the phone. */
    private static final Map<String, String> CAROLS_CLAIMS = Map.of("given_name", "Carol", "family_name", "Jones",
            "phone_number", "+49 170 1234567", "address.street_address", "1 Main St", "address.locality",
            "Springfield", "address.region", "CA", "address.postal_code", "94105", "address.country", "US",
            "locale", "en-US");

    @Test
    void activeDirectoryUserSignsInOverLdapsAfterTheFirstServerFailsWithNestedGroupsAndTheGuidAsSubject() {
        Directory d = activeDirectoryOverLdaps("ldaps://127.0.0.1:" + TestDirectory.deadPort(),
                "ldaps://127.0.0.1:" + ad.ldapsPort);
        for (String name : List.of("carol", "CAROL", "carol@corp.example.com")) {
            DirectoryEntry e = d.authenticate(name, TestDirectory.PASSWORD).entry().orElseThrow();
            assertEquals(new DirectoryEntry(TestDirectory.CAROL_GUID, "cn=Carol Jones,cn=Users," + ad.baseDn, "carol",
                    "Carol Jones", "carol@corp.example.com", CAROLS_CLAIMS, List.of("Developers", "Engineering"),
                    false), e);
        }
        d.close();
    }

    @Test
    void activeDirectoryAccountStatesAreToldApartAfterTheBind() {
        Directory d = activeDirectoryOverLdaps("ldaps://127.0.0.1:" + ad.ldapsPort);
        assertEquals(Directory.Outcome.DISABLED, d.authenticate("dave", TestDirectory.PASSWORD).outcome());
        assertEquals(Directory.Outcome.LOCKED, d.authenticate("erin", TestDirectory.PASSWORD).outcome());
        assertEquals(Directory.Outcome.PASSWORD_EXPIRED, d.authenticate("frank", TestDirectory.PASSWORD).outcome());
        assertEquals(Directory.Outcome.INVALID, d.authenticate("dave", "wrong password").outcome(),
                "the state is told only to someone who knows the password");
        d.close();
    }

    @Test
    void recheckWhenTheEntryIsDisabledThenEmpty() {
        Directory d = activeDirectoryOverLdaps("ldaps://127.0.0.1:" + ad.ldapsPort);
        String carol = "cn=Carol Jones,cn=Users," + ad.baseDn;
        assertTrue(d.findEnabled(TestDirectory.CAROL_GUID).isPresent());
        try {
            ad.replace(carol, "userAccountControl", "514");
            assertEquals(Optional.empty(), d.findEnabled(TestDirectory.CAROL_GUID));
        } finally {
            ad.replace(carol, "userAccountControl", "512");
        }
        assertEquals(Optional.empty(), d.findEnabled("00000000-0000-0000-0000-00000000ffff"));
        d.close();
    }

    @Test
    void certificateFromAnotherCaIsNeverTrusted() {
        Directory d = new Directory(settings(ad, List.of("ldaps://127.0.0.1:" + ad.ldapsPort), false,
                TestDirectory.otherCaFile(), "(sAMAccountName={0})",
                new DirectorySettings.Attributes("objectGUID", "sAMAccountName", "cn", "givenName", "sn", "mail"),
                Optional.empty(), false, Optional.empty()));
        assertThrows(DirectoryUnavailableException.class, () -> d.authenticate("carol", TestDirectory.PASSWORD));
        d.close();
    }

    @Test
    void certificateForAnotherHostNameIsRefusedOverLdapsAndStartTlsBeforeAnyBind() throws Exception {
        try (TestDirectory elsewhere = TestDirectory.openLdap(TestDirectory.Tls.ANOTHER_HOST)) {
            Path ca = TestDirectory.anotherHostCaFile();
            try (LDAPConnection trustedButUnchecked = new LDAPConnection(new SSLUtil(new PEMFileTrustManager(
                    ca.toFile())).createSSLSocketFactory(), "127.0.0.1", elsewhere.ldapsPort)) {
                assertTrue(trustedButUnchecked.isConnected(), "the CA file is right: only the host name is wrong");
            }
            int before = elsewhere.binds.size();
            // by name: UnboundID's host name check takes any certificate from a numeric loopback address
            for (String url : List.of("ldaps://localhost:" + elsewhere.ldapsPort,
                    "ldap://localhost:" + elsewhere.ldapPort)) {
                Directory d = openLdapAt(elsewhere, url, url.startsWith("ldap:"), ca);
                try {
                    assertThrows(DirectoryUnavailableException.class,
                            () -> d.authenticate("alice", TestDirectory.PASSWORD), url);
                    assertThrows(DirectoryUnavailableException.class, d::ping, url);
                } finally {
                    d.close();
                }
            }
            assertEquals(List.of(), elsewhere.binds.subList(before, elsewhere.binds.size()),
                    "not even the service account's password was sent");
        }
    }

    @Test
    void serverThatRefusesStartTlsIsNeverUsedInPlainText() {
        try (TestDirectory plain = TestDirectory.openLdap(TestDirectory.Tls.NO_START_TLS)) {
            int before = plain.binds.size();
            Directory d = openLdapAt(plain, "ldap://127.0.0.1:" + plain.ldapPort, true, TestDirectory.CA_FILE);
            try {
                assertThrows(DirectoryUnavailableException.class,
                        () -> d.authenticate("alice", TestDirectory.PASSWORD));
                assertThrows(DirectoryUnavailableException.class, () -> d.accountName("alice"));
                assertThrows(DirectoryUnavailableException.class, d::ping);
            } finally {
                d.close();
            }
            assertEquals(List.of(), plain.binds.subList(before, plain.binds.size()),
                    "no bind (no password at all) went over the connection that stayed plain");
        }
    }

    /** The OpenLDAP-shaped tree of {@code d} at one URL, StartTLS or not, trusting {@code ca}. */
    private static Directory openLdapAt(TestDirectory d, String url, boolean startTls, Path ca) {
        return new Directory(settings(d, List.of(url), startTls, ca, "(uid={0})",
                new DirectorySettings.Attributes("entryUUID", "uid", "cn", "givenName", "sn", "mail"),
                Optional.of("ou=groups," + d.baseDn), false, Optional.empty()));
    }

    @Test
    void directoryDownIsUnavailableAndItsReturnIsNoticed() {
        Directory d = openLdapOverStartTls();
        assertEquals(Directory.Outcome.AUTHENTICATED, d.authenticate("bob", TestDirectory.PASSWORD).outcome());
        openLdap.stop();
        try {
            assertThrows(DirectoryUnavailableException.class, () -> d.authenticate("bob", TestDirectory.PASSWORD));
            assertThrows(DirectoryUnavailableException.class, d::ping);
        } finally {
            openLdap.start();
        }
        d.ping();
        assertEquals(Directory.Outcome.AUTHENTICATED, d.authenticate("bob", TestDirectory.PASSWORD).outcome());
        d.close();
    }
}
