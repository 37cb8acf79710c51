package dev.portcullis.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.portcullis.testing.TestDirectory;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DirectorySettingsTest {

    @TempDir
    Path dir;

    private static Optional<DirectorySettings> load(Map<String, String> values) {
        return TestSettings.load(values).directory;
    }

    private static Map<String, String> minimal(String... more) {
        Map<String, String> m = new HashMap<>(Map.of("portcullis.ldap.url", "ldap://a.example.com ldap://b.example.com:3389",
                "portcullis.ldap.user-base-dn", "ou=people,dc=example,dc=org", "portcullis.ldap.allow-plaintext", "true"));
        for (int i = 0; i < more.length; i += 2) {
            m.put(more[i], more[i + 1]);
        }
        return m;
    }

    private static void refused(String key, Map<String, String> values) {
        ConfigurationException e = assertThrows(ConfigurationException.class, () -> load(values));
        assertTrue(e.getMessage().contains(key + " ("), e::getMessage);
    }

    @Test
    void loadWhenNoUrlThenNoDirectory() {
        assertEquals(Optional.empty(), load(Map.of("portcullis.ldap.user-base-dn", "dc=x")));
    }

    @Test
    void loadWhenMinimalThenTheDocumentedDefaults() {
        DirectorySettings s = load(minimal()).orElseThrow();
        assertEquals(2, s.urls().size());
        assertEquals(3389, s.urls().get(1).getPort());
        assertEquals("(uid={0})", s.userFilter());
        assertEquals(new DirectorySettings.Attributes("entryUUID", "uid", "cn", "givenName", "sn", "mail"),
                s.attributes());
        assertEquals("(member={dn})", s.groupFilter());
        assertEquals("cn", s.groupNameAttribute());
        assertFalse(s.groupsFromMemberOf());
        assertFalse(s.startTls());
        assertEquals(Duration.ofSeconds(5), s.connectTimeout());
        assertEquals(Duration.ofSeconds(10), s.responseTimeout());
        assertEquals(4, s.poolSize());
        assertTrue(s.localUsers());
        assertEquals(Duration.ofMinutes(15), s.recheckInterval());
        assertFalse(s.toString().contains("secret"));
    }

    @Test
    void loadWhenLdapWithoutStartTlsThenRefusedUnlessPlaintextIsAllowed() {
        Map<String, String> plain = minimal();
        plain.remove("portcullis.ldap.allow-plaintext");
        ConfigurationException e = assertThrows(ConfigurationException.class, () -> load(plain));
        assertTrue(e.getMessage().contains("portcullis.ldap.url (PORTCULLIS_LDAP_URL)"), e::getMessage);
        assertTrue(e.getMessage().contains("portcullis.ldap.allow-plaintext=true (PORTCULLIS_LDAP_ALLOW_PLAINTEXT)"),
                e::getMessage);
        plain.put("portcullis.ldap.allow-plaintext", "false");
        refused("portcullis.ldap.url", plain);
        plain.put("portcullis.ldap.allow-plaintext", "yes");
        refused("portcullis.ldap.allow-plaintext", plain);
        assertTrue(load(minimal()).isPresent(), "allowed explicitly");
        Path ca = TestDirectory.otherCaFile();
        for (Map<String, String> tls : List.of(
                Map.of("portcullis.ldap.url", "ldaps://a.example.com"),
                Map.of("portcullis.ldap.url", "ldap://a.example.com", "portcullis.ldap.start-tls", "true"))) {
            Map<String, String> m = new HashMap<>(tls);
            m.put("portcullis.ldap.user-base-dn", "dc=example,dc=org");
            m.put("portcullis.ldap.ca-file", ca.toString());
            assertTrue(load(m).isPresent(), "TLS needs no permission: " + tls);
        }
    }

    @Test
    void loadWhenPlaintextIsAllowedThenAWarningAtEveryStart() {
        Logger logger = Logger.getLogger(DirectorySettings.class.getName());
        List<LogRecord> records = new ArrayList<>();
        Handler handler = new Handler() {
            @Override
            public void publish(LogRecord r) {
                records.add(r);
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        logger.addHandler(handler);
        try {
            load(minimal());
            load(minimal());
            Map<String, String> tls = minimal("portcullis.ldap.url", "ldaps://a.example.com",
                    "portcullis.ldap.ca-file", TestDirectory.otherCaFile().toString());
            tls.remove("portcullis.ldap.allow-plaintext");
            load(tls);
        } finally {
            logger.removeHandler(handler);
        }
        List<String> warnings = records.stream().filter(r -> r.getLevel() == Level.WARNING)
                .map(r -> r.getMessage()).toList();
        assertEquals(2, warnings.size(), "one per start with plaintext allowed, none with TLS: " + warnings);
        assertTrue(warnings.get(0).startsWith("LDAP without TLS (portcullis.ldap.allow-plaintext=true)"),
                warnings::toString);
    }

    @Test
    void loadWhenUrlIsNotLdapThenRefusedNamingTheKey() {
        refused("portcullis.ldap.url", minimal("portcullis.ldap.url", "http://a.example.com"));
        refused("portcullis.ldap.url", minimal("portcullis.ldap.url", "ldap://a.example.com/dc=x"));
        refused("portcullis.ldap.url", minimal("portcullis.ldap.url", "ldap://a ldaps://b"));
    }

    @Test
    void loadWhenTlsWithoutCaFileOrWithAFileThatIsNoCertificateThenRefused() throws IOException {
        refused("portcullis.ldap.ca-file", minimal("portcullis.ldap.url", "ldaps://a.example.com"));
        refused("portcullis.ldap.ca-file", minimal("portcullis.ldap.start-tls", "true"));
        refused("portcullis.ldap.ca-file", minimal("portcullis.ldap.start-tls", "true",
                "portcullis.ldap.ca-file", dir.resolve("missing.pem").toString()));
        Path junk = Files.writeString(dir.resolve("junk.pem"), "not a certificate");
        refused("portcullis.ldap.ca-file", minimal("portcullis.ldap.start-tls", "true",
                "portcullis.ldap.ca-file", junk.toString()));
    }

    @Test
    void loadWhenStartTlsOnLdapsThenRefused() {
        refused("portcullis.ldap.start-tls", minimal("portcullis.ldap.url", "ldaps://a.example.com",
                "portcullis.ldap.start-tls", "true"));
        refused("portcullis.ldap.start-tls", minimal("portcullis.ldap.start-tls", "yes"));
    }

    @Test
    void loadWhenBindDnWithoutPasswordOrTheOtherWayThenRefused() {
        refused("portcullis.ldap.bind-password", minimal("portcullis.ldap.bind-dn", "cn=svc,dc=example,dc=org"));
        refused("portcullis.ldap.bind-dn", minimal("portcullis.ldap.bind-password", "secret"));
        refused("portcullis.ldap.bind-dn", minimal("portcullis.ldap.bind-dn", "not a dn",
                "portcullis.ldap.bind-password", "secret"));
    }

    @Test
    void loadWhenAdminGroupIsABrokenDnThenRefusedAndANameOrDnIsMatchedAsDocumented() {
        refused("portcullis.ldap.admin-group", minimal("portcullis.ldap.admin-group", "cn=admins,=x"));
        assertEquals(Optional.empty(), load(minimal()).orElseThrow().adminGroup(), "default: none");
        DirectorySettings byName = load(minimal("portcullis.ldap.admin-group", " Portcullis-Admins ")).orElseThrow();
        assertTrue(byName.isAdminGroup("cn=portcullis-admins,ou=groups,dc=example,dc=org", "PORTCULLIS-ADMINS"));
        assertFalse(byName.isAdminGroup("cn=x,dc=example,dc=org", "portcullis-admins-2"));
        DirectorySettings byDn = load(minimal("portcullis.ldap.admin-group",
                "cn=Admins,ou=Groups,dc=example,dc=org")).orElseThrow();
        assertTrue(byDn.isAdminGroup("CN=admins, OU=groups, DC=example, DC=org", "whatever"));
        assertFalse(byDn.isAdminGroup("cn=admins,ou=other,dc=example,dc=org", "admins"));
        assertFalse(load(minimal()).orElseThrow().isAdminGroup("cn=admins,ou=groups,dc=example,dc=org", "admins"));
    }

    @Test
    void loadWhenBaseDnMissingOrFiltersBrokenThenRefused() {
        Map<String, String> noBase = minimal();
        noBase.remove("portcullis.ldap.user-base-dn");
        refused("portcullis.ldap.user-base-dn", noBase);
        refused("portcullis.ldap.user-filter", minimal("portcullis.ldap.user-filter", "(uid=alice)"));
        refused("portcullis.ldap.user-filter", minimal("portcullis.ldap.user-filter", "(uid={0}"));
        refused("portcullis.ldap.group-filter", minimal("portcullis.ldap.group-filter", "member={dn})("));
        refused("portcullis.ldap.group-base-dn", minimal("portcullis.ldap.group-base-dn", "=x"));
    }

    @Test
    void loadWhenAttributeNameOrNumberOutOfRangeThenRefused() {
        refused("portcullis.ldap.attribute.subject", minimal("portcullis.ldap.attribute.subject", "entry UUID"));
        refused("portcullis.ldap.attribute.email", minimal("portcullis.ldap.attribute.email", "mail)(x"));
        refused("portcullis.ldap.pool-size", minimal("portcullis.ldap.pool-size", "0"));
        refused("portcullis.ldap.connect-timeout", minimal("portcullis.ldap.connect-timeout", "5s"));
        refused("portcullis.ldap.response-timeout", minimal("portcullis.ldap.response-timeout", "301"));
        refused("portcullis.ldap.recheck-interval", minimal("portcullis.ldap.recheck-interval", "-1"));
        refused("portcullis.ldap.local-users", minimal("portcullis.ldap.local-users", "no"));
    }

    @Test
    void loadWhenClaimAttributesUnsetThenTheDocumentedDefaults() {
        Map<String, List<String>> claims = load(minimal()).orElseThrow().attributes().claims();
        assertEquals(Map.of("given_name", List.of("givenName"), "family_name", List.of("sn"),
                "middle_name", List.of("middleName"), "locale", List.of("preferredLanguage"),
                "phone_number", List.of("telephoneNumber", "mobile"),
                "address.street_address", List.of("street", "streetAddress"), "address.locality", List.of("l"),
                "address.region", List.of("st"), "address.postal_code", List.of("postalCode"),
                "address.country", List.of("c")), claims);
        assertEquals(claims.keySet(), DirectorySettings.defaultDirectoryClaims());
    }

    @Test
    void loadWhenClaimAttributesSetThenEachEntryReplacesOrTurnsOffItsClaimAndTheRestStay() {
        Map<String, List<String>> claims = load(minimal("portcullis.ldap.attribute.given-name", "gn",
                "portcullis.ldap.claim-attributes", " phone_number = mobile ,locale=,nickname=displayName|cn,"
                        + "family_name=surname")).orElseThrow().attributes().claims();
        assertEquals(List.of("mobile"), claims.get("phone_number"));
        assertFalse(claims.containsKey("locale"), "an empty value turns the claim off");
        assertEquals(List.of("displayName", "cn"), claims.get("nickname"));
        assertEquals(List.of("gn"), claims.get("given_name"), "attribute.given-name when the map does not name it");
        assertEquals(List.of("surname"), claims.get("family_name"), "the map wins over attribute.family-name");
        assertEquals(List.of("l"), claims.get("address.locality"));
        assertTrue(load(minimal("portcullis.ldap.claim-attributes", "")).orElseThrow().attributes().claims()
                .containsKey("phone_number"), "empty: the defaults");
    }

    @Test
    void loadWhenClaimAttributesMalformedThenRefusedNamingTheEntry() {
        for (String bad : List.of("phone_number", "=mobile", "email=mail", "sub=uid", "address=street",
                "phone_number=mobile,phone_number=telephoneNumber", "locale=pre ferred", "locale=a||b", "locale=|a",
                "locale=en,", ",locale=en", "locale=a;b")) {
            ConfigurationException e = assertThrows(ConfigurationException.class,
                    () -> load(minimal("portcullis.ldap.claim-attributes", bad)), bad);
            assertTrue(e.getMessage().contains("portcullis.ldap.claim-attributes (PORTCULLIS_LDAP_CLAIM_ATTRIBUTES)"),
                    e::getMessage);
        }
    }

    @Test
    void loadWhenActiveDirectoryExampleThenAccepted() {
        DirectorySettings s = load(minimal("portcullis.ldap.user-filter",
                "(&(objectClass=user)(|(sAMAccountName={0})(userPrincipalName={0})))",
                "portcullis.ldap.attribute.subject", "objectGUID", "portcullis.ldap.attribute.username",
                "sAMAccountName", "portcullis.ldap.group-filter", "(member:1.2.840.113556.1.4.1941:={dn})",
                "portcullis.ldap.group-base-dn", "dc=corp,dc=example,dc=com", "portcullis.ldap.local-users", "false"))
                .orElseThrow();
        assertEquals("objectGUID", s.attributes().subject());
        assertFalse(s.localUsers());
    }
}
