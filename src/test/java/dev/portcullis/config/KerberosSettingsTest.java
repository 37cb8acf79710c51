package dev.portcullis.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code portcullis.kerberos.*}, with keytabs written by MIT {@code ktutil} (no KDC needed to make one). */
class KerberosSettingsTest {

    private static final String SERVICE = "HTTP/sso.corp.example@CORP.EXAMPLE";

    @TempDir
    Path dir;

    private Path keytab;

    @BeforeEach
    void keytab() throws Exception {
        keytab = ktutil("service.keytab", SERVICE);
    }

    /** A keytab holding one AES key of {@code principal}, made by ktutil from a password on stdin. */
    private Path ktutil(String file, String principal) throws IOException, InterruptedException {
        Path out = dir.resolve(file);
        Process p = new ProcessBuilder("ktutil").redirectErrorStream(true).start();
        p.getOutputStream().write(("addent -password -p " + principal + " -k 1 -e aes256-cts-hmac-sha1-96\n"
                + "a service password\nwkt " + out + "\nquit\n").getBytes(StandardCharsets.UTF_8));
        p.getOutputStream().close();
        String log = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(30, TimeUnit.SECONDS) && Files.size(out) > 0, log);
        return out;
    }

    private static Optional<KerberosSettings> load(Map<String, String> values) {
        return TestSettings.kerberos(values);
    }

    private Map<String, String> minimal(String... more) {
        Map<String, String> m = new HashMap<>(Map.of("portcullis.kerberos.keytab", keytab.toString(),
                "portcullis.kerberos.principal", SERVICE));
        for (int i = 0; i < more.length; i += 2) {
            m.put(more[i], more[i + 1]);
        }
        return m;
    }

    /** {@link #minimal} with a directory (realm filters need one). */
    private Map<String, String> withDirectory(String... more) {
        Map<String, String> m = minimal(more);
        m.putAll(Map.of("portcullis.ldap.url", "ldap://dc.corp.example", "portcullis.ldap.allow-plaintext", "true",
                "portcullis.ldap.user-base-dn", "cn=Users,dc=corp,dc=example"));
        return m;
    }

    private static ConfigurationException refused(String key, Map<String, String> values) {
        ConfigurationException e = assertThrows(ConfigurationException.class, () -> load(values));
        assertTrue(e.getMessage().contains(key + " ("), e::getMessage);
        return e;
    }

    @Test
    void loadWhenNoKeytabThenKerberosIsOff() {
        assertEquals(Optional.empty(), load(Map.of("portcullis.kerberos.principal", SERVICE)));
    }

    @Test
    void loadWhenMinimalThenTheDocumentedDefaults() {
        KerberosSettings s = load(minimal()).orElseThrow();
        assertEquals(keytab.toAbsolutePath(), s.keytab());
        assertEquals(SERVICE, s.principal());
        assertEquals(List.of("CORP.EXAMPLE"), s.realms());
        assertEquals("CORP.EXAMPLE", s.homeRealm());
        assertEquals("(|(userPrincipalName={0})(sAMAccountName={1})(uid={1}))", s.userFilter());
        assertEquals(Map.of(), s.realmFilters());
        assertEquals(List.of(), s.networks());
        assertEquals(Optional.empty(), s.krb5Conf());
        assertTrue(s.offeredTo("203.0.113.9"));
        assertTrue(s.acceptsRealm("CORP.EXAMPLE"));
        assertFalse(s.acceptsRealm("corp.example"));
        assertFalse(s.acceptsRealm("OTHER.EXAMPLE"));
    }

    @Test
    void loadWhenRealmsNetworksAndFilterThenParsed() {
        KerberosSettings s = load(minimal("portcullis.kerberos.realms", " CORP.EXAMPLE  EU.CORP.EXAMPLE ",
                "portcullis.kerberos.networks", "10.0.0.0/8, 192.168.1.0/24 2001:db8::/32",
                "portcullis.kerberos.user-filter", "(&(objectClass=user)(userPrincipalName={0}))")).orElseThrow();
        assertEquals(List.of("CORP.EXAMPLE", "EU.CORP.EXAMPLE"), s.realms());
        assertEquals("CORP.EXAMPLE", s.homeRealm(), "the first listed");
        assertEquals("(&(objectClass=user)(userPrincipalName={0}))", s.userFilter());
        assertTrue(s.offeredTo("10.1.2.3"));
        assertTrue(s.offeredTo("192.168.1.200"));
        assertTrue(s.offeredTo("2001:db8::1"));
        assertFalse(s.offeredTo("192.168.2.1"));
        assertFalse(s.offeredTo("203.0.113.9"));
        assertFalse(s.offeredTo("not-an-address"));
    }

    @Test
    void loadWhenPrincipalMissingOrWithoutRealmThenRefused() {
        Map<String, String> noPrincipal = minimal();
        noPrincipal.remove("portcullis.kerberos.principal");
        refused("portcullis.kerberos.principal", noPrincipal);
        refused("portcullis.kerberos.principal", minimal("portcullis.kerberos.principal", "HTTP/sso.corp.example"));
        refused("portcullis.kerberos.principal", minimal("portcullis.kerberos.principal", "a@B@C"));
    }

    @Test
    void loadWhenKeytabUnreadableThenRefusedNamingFileAndPrincipal() {
        Path missing = dir.resolve("missing.keytab");
        ConfigurationException e = refused("portcullis.kerberos.keytab",
                minimal("portcullis.kerberos.keytab", missing.toString()));
        assertTrue(e.getMessage().contains(missing.toString()) && e.getMessage().contains(SERVICE), e::getMessage);
    }

    @Test
    void loadWhenKeytabIsNotAKeytabThenRefusedNamingFileAndPrincipal() throws IOException {
        Path garbage = Files.writeString(dir.resolve("garbage.keytab"), "not a keytab");
        ConfigurationException e = refused("portcullis.kerberos.keytab",
                minimal("portcullis.kerberos.keytab", garbage.toString()));
        assertTrue(e.getMessage().contains(garbage.toString()) && e.getMessage().contains(SERVICE), e::getMessage);
    }

    @Test
    void loadWhenKeytabHoldsAnotherPrincipalThenRefusedNamingFileAndPrincipal() throws Exception {
        Path other = ktutil("other.keytab", "HTTP/other.corp.example@CORP.EXAMPLE");
        ConfigurationException e = refused("portcullis.kerberos.keytab",
                minimal("portcullis.kerberos.keytab", other.toString()));
        assertTrue(e.getMessage().contains(other.toString()) && e.getMessage().contains(SERVICE), e::getMessage);
    }

    @Test
    void loadWhenHomeRealmIsNotTheServicesThenTheFirstListedIsHome() {
        KerberosSettings s = load(minimal("portcullis.kerberos.realms", "ACCOUNTS.CORP.EXAMPLE CORP.EXAMPLE"))
                .orElseThrow();
        assertEquals("ACCOUNTS.CORP.EXAMPLE", s.homeRealm());
    }

    @Test
    void directoryFilterWhenHomeThenUserFilterWhenListedThenUpnOrItsOwnWhenNotListedThenNone() {
        KerberosSettings s = load(withDirectory(
                "portcullis.kerberos.realms", "CORP.EXAMPLE PARTNER.EXAMPLE MAPPED.EXAMPLE",
                "portcullis.kerberos.realm-filters", "MAPPED.EXAMPLE=(&(objectClass=user)(sAMAccountName={1}))"))
                .orElseThrow();
        assertEquals(Optional.of(KerberosSettings.DEFAULT_USER_FILTER), s.directoryFilter("CORP.EXAMPLE"));
        assertEquals(Optional.of("(userPrincipalName={0})"), s.directoryFilter("PARTNER.EXAMPLE"),
                "another realm's default holds no short name");
        assertEquals(Optional.of("(&(objectClass=user)(sAMAccountName={1}))"), s.directoryFilter("MAPPED.EXAMPLE"));
        for (String notListed : List.of("corp.example", "Corp.Example", "OTHER.EXAMPLE", "CORP.EXAMPLE.", "",
            "CORP")) {
            assertEquals(Optional.empty(), s.directoryFilter(notListed), notListed);
        }
    }

    @Test
    void loadWhenRealmFiltersThenEachAWholeFilterWithSpacesAndCommas() {
        KerberosSettings s = load(withDirectory(
                "portcullis.kerberos.realms", "CORP.EXAMPLE A.EXAMPLE B.EXAMPLE",
                "portcullis.kerberos.realm-filters", "  A.EXAMPLE=(&(objectClass=user)(memberOf=CN=Partner users,"
                        + "OU=Groups,DC=corp,DC=example)(sAMAccountName={1}))\n\tB.EXAMPLE=(altSecurityIdentities="
                        + "Kerberos:{0}) ")).orElseThrow();
        assertEquals(Map.of("A.EXAMPLE", "(&(objectClass=user)(memberOf=CN=Partner users,OU=Groups,DC=corp,"
                + "DC=example)(sAMAccountName={1}))", "B.EXAMPLE", "(altSecurityIdentities=Kerberos:{0})"),
                s.realmFilters());
    }

    @Test
    void loadWhenRealmFiltersMalformedOrForAnUnlistedOrTheHomeRealmThenRefused() {
        Map<String, String> base = withDirectory(
                "portcullis.kerberos.realms", "CORP.EXAMPLE PARTNER.EXAMPLE");
        for (String bad : List.of("PARTNER.EXAMPLE", "PARTNER.EXAMPLE=", "PARTNER.EXAMPLE=uid={1}",
            "PARTNER.EXAMPLE=(uid={1}", "PARTNER.EXAMPLE=(uid={1}))", "PARTNER.EXAMPLE=(uid={1})x",
            "PARTNER.EXAMPLE=(objectClass=user)", "PARTNER.EXAMPLE=(uid={1})(cn={1})", "=(uid={1})",
            "PARTNER.EXAMPLE =(uid={1})", "PARTNER.EXAMPLE=(uid={1}) PARTNER.EXAMPLE=(cn={1})",
            "partner.example=(uid={1})", "OTHER.EXAMPLE=(uid={1})", "CORP.EXAMPLE=(uid={1})",
            "PARTNER.EXAMPLE=(&(uid={1})(", "PARTNER.EXAMPLE=(uid={1}) (cn={1})", "PARTNER.EXAMPLE=(!!uid={1})")) {
            Map<String, String> values = new HashMap<>(base);
            values.put("portcullis.kerberos.realm-filters", bad);
            refused("portcullis.kerberos.realm-filters", values);
        }
    }

    @Test
    void loadWhenRealmFiltersWithoutADirectoryThenRefused() {
        ConfigurationException e = refused("portcullis.kerberos.realm-filters", minimal("portcullis.kerberos.realms",
                "CORP.EXAMPLE PARTNER.EXAMPLE", "portcullis.kerberos.realm-filters", "PARTNER.EXAMPLE=(uid={1})"));
        assertTrue(e.getMessage().contains("portcullis.ldap.url"), e::getMessage);
    }

    @Test
    void loadWhenRealmsRepeatOrAreNotNamesThenRefused() {
        refused("portcullis.kerberos.realms", minimal("portcullis.kerberos.realms", "CORP.EXAMPLE CORP.EXAMPLE"));
        refused("portcullis.kerberos.realms", minimal("portcullis.kerberos.realms", "CORP.EXAMPLE=PARTNER.EXAMPLE"));
        refused("portcullis.kerberos.realms", minimal("portcullis.kerberos.realms", "carol@CORP.EXAMPLE"));
    }

    @Test
    void loadWhenBadNetworkOrFilterOrKrb5ConfThenRefused() {
        refused("portcullis.kerberos.networks", minimal("portcullis.kerberos.networks", "10.0.0.0/33"));
        refused("portcullis.kerberos.user-filter", minimal("portcullis.kerberos.user-filter", "uid={1}"));
        refused("portcullis.kerberos.user-filter", minimal("portcullis.kerberos.user-filter", "(objectClass=user)"));
        refused("portcullis.kerberos.user-filter", minimal("portcullis.kerberos.user-filter", "(uid={1})(cn={1})"));
        refused("portcullis.kerberos.krb5-conf", minimal("portcullis.kerberos.krb5-conf",
                dir.resolve("no-krb5.conf").toString()));
    }
}
