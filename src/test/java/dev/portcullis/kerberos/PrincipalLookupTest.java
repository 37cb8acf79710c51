package dev.portcullis.kerberos;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import dev.portcullis.config.KerberosSettings;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * {@link PrincipalLookup} by class of input: the realm (home, listed without and with a filter of its own, not listed,
 * in another case), the name (plain, with an instance, an enterprise name, escapes), with and without a directory.
 */
class PrincipalLookupTest {

    private static final String MAPPED_FILTER = "(&(objectClass=user)(altSecurityIdentities=Kerberos:{0}))";
    private static final KerberosSettings SETTINGS = new KerberosSettings(Path.of("/unused.keytab"),
            "HTTP/sso.corp.example@CORP.EXAMPLE", Optional.empty(), List.of("CORP.EXAMPLE", "PARTNER.EXAMPLE",
            "MAPPED.EXAMPLE"), KerberosSettings.DEFAULT_USER_FILTER, Map.of("MAPPED.EXAMPLE", MAPPED_FILTER),
            List.of());

    private static PrincipalLookup withoutDirectory(String principal) {
        return PrincipalLookup.of(principal, SETTINGS, false);
    }

    private static PrincipalLookup withDirectory(String principal) {
        return PrincipalLookup.of(principal, SETTINGS, true);
    }

    private static void assertNobody(String reasonStart, PrincipalLookup lookup) {
        PrincipalLookup.Nobody nobody = assertInstanceOf(PrincipalLookup.Nobody.class, lookup);
        assertEquals(true, nobody.reason().startsWith(reasonStart), nobody::reason);
    }

    @Test
    void withoutADirectoryOnlyTheHomeRealmIsALocalUser() {
        assertEquals(new PrincipalLookup.LocalUser("carol"), withoutDirectory("carol@CORP.EXAMPLE"));
        assertEquals(new PrincipalLookup.LocalUser("carol"), withoutDirectory("Carol@CORP.EXAMPLE"),
                "local usernames are lower case");
        assertNobody("is not of the home realm CORP.EXAMPLE", withoutDirectory("carol@PARTNER.EXAMPLE"));
        assertNobody("is not of the home realm CORP.EXAMPLE", withoutDirectory("carol@MAPPED.EXAMPLE"));
    }

    @Test
    void withADirectoryEachRealmHasItsFilterAndOnlyTheHomeRealmsDefaultHasShortNames() {
        PrincipalLookup.DirectoryEntry home = assertInstanceOf(PrincipalLookup.DirectoryEntry.class,
                withDirectory("carol@CORP.EXAMPLE"));
        assertEquals(KerberosSettings.DEFAULT_USER_FILTER, home.filter());
        assertEquals(new KerberosPrincipalName("carol@CORP.EXAMPLE", "carol", "CORP.EXAMPLE"), home.name());
        PrincipalLookup.DirectoryEntry partner = assertInstanceOf(PrincipalLookup.DirectoryEntry.class,
                withDirectory("carol@PARTNER.EXAMPLE"));
        assertEquals("(userPrincipalName={0})", partner.filter(), "the whole name: never the home realm's carol");
        assertEquals("carol@PARTNER.EXAMPLE", partner.name().principal());
        assertEquals(MAPPED_FILTER, assertInstanceOf(PrincipalLookup.DirectoryEntry.class,
                withDirectory("carol@MAPPED.EXAMPLE")).filter());
    }

    @Test
    void aRealmNotListedInAnyCaseFindsNobody() {
        for (String principal : List.of("carol@corp.example", "carol@Corp.Example", "carol@OTHER.EXAMPLE",
            "carol@CORP.EXAMPLE.", "carol@EXAMPLE", "carol@CORP.EXAMPLE.EVIL", "carol@ CORP.EXAMPLE")) {
            assertNobody("is not of an accepted realm", withDirectory(principal));
            assertNobody("is not of an accepted realm", withoutDirectory(principal));
        }
    }

    @Test
    void aNameThatIsNotAPlainUserPrincipalFindsNobody() {
        for (String principal : List.of("carol/admin@CORP.EXAMPLE", "HTTP/sso.corp.example@CORP.EXAMPLE",
            "krbtgt/CORP.EXAMPLE@PARTNER.EXAMPLE", "carol\\@corp.example@CORP.EXAMPLE",
            "carol\\@partner.example@CORP.EXAMPLE", "carol@partner.example@CORP.EXAMPLE", "carol",
            "@CORP.EXAMPLE", "carol@", "ca\\/rol@CORP.EXAMPLE", "ca\0rol@CORP.EXAMPLE")) {
            assertNobody("is not a user principal", withDirectory(principal));
            assertNobody("is not a user principal", withoutDirectory(principal));
        }
    }
}
