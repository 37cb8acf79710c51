package dev.portcullis.kerberos;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Optional;
import org.junit.jupiter.api.Test;

class KerberosPrincipalNameTest {

    @Test
    void parseWhenUserPrincipalThenAccountAndRealm() {
        assertEquals(Optional.of(new KerberosPrincipalName("carol@CORP.EXAMPLE", "carol", "CORP.EXAMPLE")),
                KerberosPrincipalName.parse("carol@CORP.EXAMPLE"));
        assertEquals("O'Brien", KerberosPrincipalName.parse("O'Brien@CORP.EXAMPLE").orElseThrow().account());
    }

    @Test
    void parseWhenNotAUserPrincipalThenEmpty() {
        for (String p : new String[] {null, "", "carol", "@CORP.EXAMPLE", "carol@", "carol@A@B",
            "HTTP/host@CORP.EXAMPLE", "carol/admin@CORP.EXAMPLE", "ca\\@rol@CORP.EXAMPLE", "ca\nrol@CORP.EXAMPLE",
            "carol\\@corp.example@CORP.EXAMPLE", "carol@corp.example@CORP.EXAMPLE", "carol\\/admin@CORP.EXAMPLE",
            "a".repeat(300) + "@CORP.EXAMPLE"}) {
            assertEquals(Optional.empty(), KerberosPrincipalName.parse(p), String.valueOf(p));
        }
    }
}
