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
import java.util.Set;
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
        assertEquals(Set.of("CORP.EXAMPLE"), s.realms());
        assertEquals("(|(userPrincipalName={0})(sAMAccountName={1})(uid={1}))", s.userFilter());
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
        assertEquals(Set.of("CORP.EXAMPLE", "EU.CORP.EXAMPLE"), s.realms());
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
    void loadWhenBadNetworkOrFilterOrKrb5ConfThenRefused() {
        refused("portcullis.kerberos.networks", minimal("portcullis.kerberos.networks", "10.0.0.0/33"));
        refused("portcullis.kerberos.user-filter", minimal("portcullis.kerberos.user-filter", "uid={1}"));
        refused("portcullis.kerberos.user-filter", minimal("portcullis.kerberos.user-filter", "(objectClass=user)"));
        refused("portcullis.kerberos.krb5-conf", minimal("portcullis.kerberos.krb5-conf",
                dir.resolve("no-krb5.conf").toString()));
    }
}
