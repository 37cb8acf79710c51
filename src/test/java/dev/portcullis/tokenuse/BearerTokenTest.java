package dev.portcullis.tokenuse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.portcullis.protocol.OAuthException;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** RFC 6750 2.1: which Authorization headers carry a Bearer token, and which tokens are well-formed b64tokens. */
class BearerTokenTest {

    /** The grammar as a regular expression: the reference the plain scan must agree with. */
    private static final Pattern B64TOKEN = Pattern.compile("[A-Za-z0-9\\-._~+/]+=*");

    @Test
    void acceptsB64TokensAndRejectsEverythingElse() {
        for (String ok : List.of("a", "abc.DEF-123_~+/", "eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJ4In0.c2ln", "x=", "x==",
                "A/+=")) {
            assertEquals(true, BearerToken.isB64Token(ok), ok);
        }
        for (String bad : List.of("", "=", "==", "a=b", "a b", "a,b", "a\"", "ä", "a\u0000", "a\n", "a%20", "=a",
                "a;", "(a)")) {
            assertEquals(false, BearerToken.isB64Token(bad), bad);
        }
    }

    @Test
    void agreesWithTheGrammarOnRandomStrings() {
        Random random = new Random(6750);
        String alphabet = "aZ09-._~+/= ,;\"%\u00e4\t";
        for (int n = 0; n < 20_000; n++) {
            StringBuilder s = new StringBuilder();
            for (int i = random.nextInt(6); i >= 0; i--) {
                s.append(alphabet.charAt(random.nextInt(alphabet.length())));
            }
            String t = s.toString();
            assertEquals(B64TOKEN.matcher(t).matches(), BearerToken.isB64Token(t), t);
        }
    }

    @Test
    void headerParsing() {
        assertEquals(Optional.of("abc"), BearerToken.fromHeader("Bearer abc"));
        assertEquals(Optional.of("abc"), BearerToken.fromHeader("bearer   abc  "));
        assertEquals(Optional.empty(), BearerToken.fromHeader(null));
        assertEquals(Optional.empty(), BearerToken.fromHeader("Basic YTpi"));
        OAuthException e = assertThrows(OAuthException.class, () -> BearerToken.fromHeader("Bearer a b"));
        assertEquals(400, e.status());
        assertThrows(OAuthException.class, () -> BearerToken.fromHeader("Bearer " + "a".repeat(8193)));
    }
}
