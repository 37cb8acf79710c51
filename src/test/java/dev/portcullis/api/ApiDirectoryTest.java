package dev.portcullis.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.portcullis.client.Scopes;
import dev.portcullis.protocol.OAuthError;
import dev.portcullis.protocol.OAuthException;
import java.util.List;
import java.util.Set;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

class ApiDirectoryTest {

    private static final String OWN = "https://id.example/api";
    private static final String PAYROLL = "https://payroll-api.corp.example";
    private static final String LEDGER = "https://ledger.corp.example";
    private static final String SIGNED = "https://signed.corp.example";

    private final ApiDirectory apis = new ApiDirectory(OWN, List.of(
            new RegisteredApi(PAYROLL, Set.of("payroll.read", "payroll.write"), null),
            new RegisteredApi(LEDGER, Set.of("ledger.read"), null),
            new RegisteredApi(SIGNED, Set.of("signed.read"), "RS256")));

    private static Set<String> scopes(String s) {
        return Scopes.parse(s);
    }

    private static String invalidTarget(Supplier<?> decision) {
        OAuthException e = assertThrows(OAuthException.class, decision::get);
        assertEquals(OAuthError.INVALID_TARGET, e.error());
        return e.description();
    }

    @Test
    void aRequestedResourceIsRegisteredAndUsableByTheClient() {
        assertEquals(List.of(PAYROLL, OWN), ApiDirectory.identifiers(apis.requested(List.of(PAYROLL, OWN, PAYROLL),
                scopes("openid payroll.read"))));
        assertTrue(invalidTarget(() -> apis.requested(List.of("https://unknown.example"), scopes("payroll.read")))
                .contains("Unknown resource"));
        assertTrue(invalidTarget(() -> apis.requested(List.of(LEDGER), scopes("openid payroll.read")))
                .contains("may not use"));
        invalidTarget(() -> apis.requested(List.of(PAYROLL + "#x"), scopes("payroll.read")));
        invalidTarget(() -> apis.requested(List.of("payroll"), scopes("payroll.read")));
        List<String> tooMany = java.util.stream.IntStream.rangeClosed(0, ApiDirectory.MAX_RESOURCES)
                .mapToObj(i -> "https://r" + i + ".example").toList();
        invalidTarget(() -> apis.requested(tooMany, scopes("payroll.read")));
    }

    @Test
    void resourcesNarrowTheScopeAndMakeTheAudience() {
        AccessTokenAudience t = apis.accessToken(apis.requested(List.of(PAYROLL), scopes("payroll.read")),
                scopes("openid profile payroll.read payroll.write ledger.read"), "ES256");
        assertEquals(List.of(PAYROLL), t.audience());
        assertEquals("payroll.read payroll.write", t.scope());
        assertNull(t.signingAlg(), "the default algorithm");

        AccessTokenAudience two = apis.accessToken(apis.requested(List.of(LEDGER, PAYROLL),
                scopes("payroll.read ledger.read")), scopes("openid ledger.read payroll.read"), "ES256");
        assertEquals(List.of(LEDGER, PAYROLL), two.audience());
        assertEquals("ledger.read payroll.read", two.scope());

        AccessTokenAudience own = apis.accessToken(apis.requested(List.of(OWN), scopes("openid")),
                scopes("openid profile payroll.read"), "ES256");
        assertEquals(List.of(OWN), own.audience());
        assertEquals("openid profile", own.scope());
    }

    @Test
    void aResourceThatWouldBeGrantedNothingIsRefused() {
        assertTrue(invalidTarget(() -> apis.accessToken(apis.requested(List.of(PAYROLL, LEDGER),
                scopes("payroll.read ledger.read")), scopes("openid payroll.read"), "ES256")).contains(LEDGER));
    }

    @Test
    void resourcesSignedDifferentlyAreRefusedAndOneAlgorithmIsPassedOn() {
        assertTrue(invalidTarget(() -> apis.accessToken(apis.requested(List.of(PAYROLL, SIGNED),
                scopes("payroll.read signed.read")), scopes("payroll.read signed.read"), "ES256"))
                .contains("different algorithms"));
        AccessTokenAudience same = apis.accessToken(apis.requested(List.of(PAYROLL, SIGNED),
                scopes("payroll.read signed.read")), scopes("payroll.read signed.read"), "RS256");
        assertEquals("RS256", same.signingAlg(), "the default is RS256 too: one algorithm");
        assertEquals("RS256", apis.accessToken(apis.requested(List.of(SIGNED), scopes("signed.read")),
                scopes("signed.read"), "ES256").signingAlg());
    }

    /** One token, one header: APIs whose tokens are typed differently are never served by one token. */
    @Test
    void resourcesTypedDifferentlyAreRefusedAndOneTypIsPassedOn() {
        String plain = "https://plain.corp.example";
        String plain2 = "https://plain2.corp.example";
        ApiDirectory typed = new ApiDirectory(OWN, List.of(
                new RegisteredApi(PAYROLL, Set.of("payroll.read"), null),
                new RegisteredApi(plain, Set.of("plain.read"), null, null, Set.of(), "JWT"),
                new RegisteredApi(plain2, Set.of("plain2.read"), null, null, Set.of(), "JWT")));
        assertTrue(invalidTarget(() -> typed.accessToken(typed.requested(List.of(PAYROLL, plain),
                scopes("payroll.read plain.read")), scopes("payroll.read plain.read"), "RS256"))
                .contains("typed differently (at+jwt, JWT)"));
        assertEquals("JWT", typed.accessToken(typed.requested(List.of(plain, plain2),
                scopes("plain.read plain2.read")), scopes("plain.read plain2.read"), "RS256").typ());
        assertEquals("JWT", typed.accessToken(List.of(), scopes("openid plain.read"), "RS256").typ(),
                "the one API of the scopes");
        assertEquals("at+jwt", typed.accessToken(List.of(), scopes("openid payroll.read"), "RS256").typ());
        assertEquals("at+jwt", typed.accessToken(List.of(), scopes("openid profile"), "RS256").typ(),
                "Portcullis's own API");
    }

    private static String invalidScope(Supplier<?> decision) {
        OAuthException e = assertThrows(OAuthException.class, decision::get);
        assertEquals(OAuthError.INVALID_SCOPE, e.error());
        return e.description();
    }

    @Test
    void withoutResourcesTheOneApiOfTheScopesIsTheAudience() {
        AccessTokenAudience one = apis.accessToken(List.of(), scopes("openid offline_access payroll.read"), "ES256");
        assertEquals(List.of(PAYROLL), one.audience());
        assertEquals("openid offline_access payroll.read", one.scope(), "not narrowed");
        assertEquals("RS256", apis.accessToken(List.of(), scopes("signed.read"), "ES256").signingAlg());
        assertEquals(List.of(OWN), apis.accessToken(List.of(), scopes("openid"), "ES256").audience());
        assertEquals(List.of(OWN), apis.accessToken(List.of(), scopes("offline_access"), "ES256").audience());
        AccessTokenAudience own = apis.accessToken(List.of(), scopes("openid profile read_user"), "ES256");
        assertEquals(List.of(OWN), own.audience());
        assertEquals("openid profile read_user", own.scope());
        assertNull(own.signingAlg());
    }

    @Test
    void withoutResourcesScopesOfMoreThanOneApiAreRefused() {
        for (String mixed : List.of("openid profile payroll.read", "payroll.read ledger.read", "read_user ledger.read",
                "payroll.write signed.read", "api payroll.read offline_access", "ledger.read email")) {
            String why = invalidScope(() -> apis.accessToken(List.of(), scopes(mixed), "ES256"));
            assertTrue(why.contains("more than one API") && why.contains("resource"), mixed + ": " + why);
        }
        assertTrue(invalidScope(() -> apis.accessToken(List.of(), scopes("openid gone.read"), "ES256"))
                .contains("gone.read belongs to no API"), "a scope no API has any more is not guessed");
        // with resources the scope is narrowed instead: nothing to refuse
        assertEquals("payroll.read", apis.accessToken(apis.requested(List.of(PAYROLL), scopes("payroll.read")),
                scopes("openid profile payroll.read ledger.read"), "ES256").scope());
    }

    @Test
    void builtInScopesAloneNeedNoRegisteredApi() {
        assertTrue(ApiDirectory.builtInOnly(scopes("openid profile email groups read_user api offline_access")));
        assertTrue(ApiDirectory.builtInOnly(scopes("")));
        assertFalse(ApiDirectory.builtInOnly(scopes("openid payroll.read")));
        assertFalse(ApiDirectory.builtInOnly(scopes("gone.read")));
    }

    @Test
    void theExchangeScopesAreThoseOfTheSubjectTokensApisTheClientIsTheBackendOf() {
        ApiDirectory chain = new ApiDirectory(OWN, List.of(
                new RegisteredApi(PAYROLL, Set.of("payroll.read"), null, "payroll-backend", Set.of("ledger.read")),
                new RegisteredApi(LEDGER, Set.of("ledger.read"), null, "ledger-backend", Set.of()),
                new RegisteredApi(SIGNED, Set.of("signed.read"), null, "payroll-backend", Set.of("signed2.read"))));
        assertEquals(java.util.Optional.of(Set.of("ledger.read")), chain.exchangeScopesOf(List.of(PAYROLL),
                "payroll-backend"));
        assertEquals(java.util.Optional.of(Set.of("ledger.read", "signed2.read")), chain.exchangeScopesOf(
                List.of(PAYROLL, SIGNED), "payroll-backend"), "every API of the token this client serves");
        assertEquals(java.util.Optional.of(Set.of("ledger.read")), chain.exchangeScopesOf(List.of(PAYROLL, LEDGER),
                "payroll-backend"), "not the decision on an API another client serves");
        assertEquals(java.util.Optional.of(Set.of()), chain.exchangeScopesOf(List.of(LEDGER), "ledger-backend"),
                "its backend, with nothing decided");
        assertTrue(chain.exchangeScopesOf(List.of(LEDGER), "payroll-backend").isEmpty());
        assertTrue(chain.exchangeScopesOf(List.of(OWN), "payroll-backend").isEmpty());
        assertTrue(chain.exchangeScopesOf(List.of("https://unknown.example"), "payroll-backend").isEmpty());
        assertTrue(chain.exchangeScopesOf(List.of(), "payroll-backend").isEmpty());
    }

    @Test
    void aTokenRequestNarrowsWithinTheAuthorizedResources() {
        Set<String> client = scopes("openid payroll.read ledger.read");
        assertEquals(List.of(PAYROLL, LEDGER), ApiDirectory.identifiers(apis.within(List.of(), List.of(PAYROLL,
                LEDGER), scopes("payroll.read ledger.read"), client)));
        assertEquals(List.of(LEDGER), ApiDirectory.identifiers(apis.within(List.of(LEDGER), List.of(PAYROLL,
                LEDGER), scopes("payroll.read ledger.read"), client)));
        assertTrue(invalidTarget(() -> apis.within(List.of(LEDGER), List.of(PAYROLL), scopes("payroll.read ledger.read"),
                client)).contains("not among"));
        // an authorization that named none covers the APIs its scope reaches
        assertEquals(List.of(PAYROLL), ApiDirectory.identifiers(apis.within(List.of(PAYROLL), List.of(),
                scopes("openid payroll.read"), client)));
        invalidTarget(() -> apis.within(List.of(LEDGER), List.of(), scopes("openid payroll.read"), client));
        assertEquals(List.of(), apis.within(List.of(), List.of(), scopes("openid payroll.read"), client));
        // an API deleted since the authorization
        invalidTarget(() -> apis.within(List.of(), List.of("https://deleted.corp.example"), scopes("payroll.read"),
                client));
    }
}
