package dev.portcullis.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.portcullis.admin.Refusal;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ApiRulesTest {

    private static String refusal(Runnable check) {
        Refusal e = assertThrows(Refusal.class, check::run);
        assertEquals(400, e.status());
        return ((Refusal.InvalidField) e.reason()).field();
    }

    @Test
    void anIdentifierIsAnAbsoluteHttpsUriWithoutFragment() {
        assertEquals("https://payroll-api.corp.example", ApiRules.identifier("https://payroll-api.corp.example"));
        assertEquals("https://corp.example/apis/payroll", ApiRules.identifier("https://corp.example/apis/payroll"));
        assertEquals("http://localhost:8081/api", ApiRules.identifier("http://localhost:8081/api"));
        assertEquals("http://127.0.0.1:8081", ApiRules.identifier("http://127.0.0.1:8081"));
        assertEquals("http://[::1]:8081", ApiRules.identifier("http://[::1]:8081"));
        for (String bad : List.of("", "payroll", "/payroll", "https://corp.example/api#part", "http://corp.example",
                "http://localhost.corp.example", "ftp://corp.example", "urn:payroll", "https:///path",
                "https://corp.example/a b", "https://user@corp.example", "https://corp.example/\u00e9",
                "https://corp.example/" + "a".repeat(ApiRules.MAX_IDENTIFIER))) {
            assertEquals("identifier", refusal(() -> ApiRules.identifier(bad)), bad);
        }
        assertThrows(Refusal.class, () -> ApiRules.identifier(null));
    }

    @Test
    void aResourceHasTheFormOfAnAbsoluteUriWithoutFragment() {
        assertTrue(ApiRules.isResourceUri("https://payroll-api.corp.example"));
        assertTrue(ApiRules.isResourceUri("http://corp.example/api"), "http is a form question here, not a rule");
        assertFalse(ApiRules.isResourceUri("https://payroll-api.corp.example#x"));
        assertFalse(ApiRules.isResourceUri("https://payroll-api.corp.example#"));
        assertFalse(ApiRules.isResourceUri("payroll"));
        assertFalse(ApiRules.isResourceUri("urn:ietf:x"));
        assertFalse(ApiRules.isResourceUri("https://a b"));
        assertFalse(ApiRules.isResourceUri(null));
    }

    @Test
    void scopesHaveTheRfcSyntaxAndCollideWithNothing() {
        assertEquals(List.of("payroll.read", "payroll.write"),
                List.copyOf(ApiRules.scopes(List.of("payroll.read", "payroll.write"), Set.of("ledger.read"))));
        assertEquals("scopes", refusal(() -> ApiRules.scopes(List.of(), Set.of())));
        assertEquals("scopes", refusal(() -> ApiRules.scopes(List.of("payroll read"), Set.of())));
        assertEquals("scopes", refusal(() -> ApiRules.scopes(List.of("payroll\"read"), Set.of())));
        assertEquals("scopes", refusal(() -> ApiRules.scopes(List.of("payroll\\read"), Set.of())));
        assertEquals("scopes", refusal(() -> ApiRules.scopes(List.of("x".repeat(ApiRules.MAX_SCOPE + 1)), Set.of())));
        assertEquals("scopes", refusal(() -> ApiRules.scopes(List.of("openid"), Set.of())));
        assertEquals("scopes", refusal(() -> ApiRules.scopes(List.of("api"), Set.of())));
        assertEquals("scopes", refusal(() -> ApiRules.scopes(List.of("offline_access"), Set.of())));
        assertEquals("scopes", refusal(() -> ApiRules.scopes(List.of("ledger.read"), Set.of("ledger.read"))));
        assertEquals("scopes", refusal(() -> ApiRules.scopes(List.of("a.read", "a.read"), Set.of())));
        assertEquals("scopes", refusal(() -> ApiRules.scopes(
                java.util.stream.IntStream.rangeClosed(0, ApiRules.MAX_SCOPES).mapToObj(i -> "s" + i).toList(),
                Set.of())));
    }

    @Test
    void exchangeScopesAreOtherApisScopesNeverBuiltInOnes() {
        Set<String> own = Set.of("orders.read");
        Set<String> others = Set.of("payroll.read", "payroll.write", "ledger.read");
        assertEquals(List.of("payroll.read", "ledger.read"), List.copyOf(ApiRules.exchangeScopes(
                List.of("payroll.read", "ledger.read"), own, others)));
        assertEquals(Set.of(), ApiRules.exchangeScopes(null, own, others), "absent: none");
        assertEquals(Set.of(), ApiRules.exchangeScopes(List.of(), own, others));
        for (String bad : List.of("openid", "profile", "email", "groups", "read_user", "api", "offline_access",
                "orders.read", "unknown.read", "", "payroll read", "x".repeat(ApiRules.MAX_SCOPE + 1))) {
            assertEquals("exchange_scopes", refusal(() -> ApiRules.exchangeScopes(List.of(bad), own, others)), bad);
        }
        assertEquals("exchange_scopes", refusal(() -> ApiRules.exchangeScopes(List.of("ledger.read", "ledger.read"),
                own, others)));
        java.util.List<String> many = java.util.stream.IntStream.rangeClosed(0, ApiRules.MAX_SCOPES)
                .mapToObj(i -> "s" + i).toList();
        assertEquals("exchange_scopes", refusal(() -> ApiRules.exchangeScopes(many, own, Set.copyOf(many))));
        java.util.List<String> withNull = new java.util.ArrayList<>();
        withNull.add(null);
        assertEquals("exchange_scopes", refusal(() -> ApiRules.exchangeScopes(withNull, own, others)));
    }

    @Test
    void theSigningAlgorithmIsOneOfThreeOrTheDefault() {
        assertNull(ApiRules.signingAlg(null));
        assertEquals("PS256", ApiRules.signingAlg("PS256"));
        assertEquals("RS256", ApiRules.signingAlg("RS256"));
        assertEquals("ES256", ApiRules.signingAlg("ES256"));
        for (String bad : List.of("HS256", "none", "rs256", "", "EdDSA")) {
            assertEquals("access_token_signing_alg", refusal(() -> ApiRules.signingAlg(bad)), bad);
        }
    }

    @Test
    void aNameIsShortAndNotBlank() {
        assertEquals("Payroll API", ApiRules.name("  Payroll API "));
        assertEquals("name", refusal(() -> ApiRules.name(" ")));
        assertEquals("name", refusal(() -> ApiRules.name("n".repeat(ApiRules.MAX_NAME + 1))));
    }
}
