package dev.portcullis.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.portcullis.client.Scopes;
import dev.portcullis.config.TestSettings;
import dev.portcullis.protocol.OAuthError;
import dev.portcullis.protocol.OAuthException;
import java.time.Instant;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ResourceIndicatorServiceTest {

    private static final String PAYROLL = "https://payroll-api.corp.example";

    /** The apis table as a list, counting its reads. */
    static final class Table extends ApiRepository {
        final List<Api> rows = new java.util.ArrayList<>();
        int reads;

        @Override
        public List<Api> all() {
            reads++;
            return rows;
        }
    }

    private final Table table = new Table();
    private final ResourceIndicatorService indicators = new ResourceIndicatorService();

    ResourceIndicatorServiceTest() {
        table.rows.add(new Api("a1", PAYROLL, "Payroll", new LinkedHashSet<>(List.of("payroll.read", "payroll.write")),
                "RS256", Instant.EPOCH));
        indicators.apis = table;
        indicators.tokenSettings = TestSettings.tokens(Map.of("portcullis.issuer", "https://id.example"));
    }

    @Test
    void builtInScopesWithoutResourcesAreDecidedWithoutReadingTheTable() {
        AccessTokenAudience t = indicators.forToken(List.of(), List.of(), Scopes.parse("openid profile"),
                Scopes.parse("openid offline_access profile"), Scopes.parse("openid profile"));
        assertEquals(List.of("https://id.example/api"), t.audience());
        assertEquals("openid profile offline_access", t.scope());
        assertNull(t.signingAlg());
        assertEquals(0, table.reads);
        assertEquals(List.of("https://id.example/api"), indicators.forNewAuthorization(List.of(),
                Scopes.parse("api"), Scopes.parse("api")).token().audience());
        assertEquals(0, table.reads);
    }

    @Test
    void anApisScopeOrAResourceReadsTheRegistryAsItIsNow() {
        AccessTokenAudience t = indicators.forToken(List.of(), List.of(), Scopes.parse("openid payroll.read"),
                Scopes.parse("openid payroll.read"), Scopes.parse("openid payroll.read"));
        assertEquals(List.of(PAYROLL), t.audience());
        assertEquals("RS256", t.signingAlg());
        assertEquals(1, table.reads);

        ResourceIndicatorService.Selection s = indicators.forNewAuthorization(List.of(PAYROLL),
                Scopes.parse("read_user payroll.write"), Scopes.parse("read_user payroll.write"));
        assertEquals(List.of(PAYROLL), s.resources());
        assertEquals("payroll.write", s.token().scope());

        OAuthException mixed = assertThrows(OAuthException.class, () -> indicators.forToken(List.of(), List.of(),
                Scopes.parse("openid profile payroll.read"), Scopes.parse("openid profile payroll.read"),
                Scopes.parse("openid profile payroll.read")));
        assertEquals(OAuthError.INVALID_SCOPE, mixed.error(), "a code or refresh without resource, two APIs");
        mixed = assertThrows(OAuthException.class, () -> indicators.forNewAuthorization(List.of(),
                Scopes.parse("read_user payroll.write"), Scopes.parse("read_user payroll.write")));
        assertEquals(OAuthError.INVALID_SCOPE, mixed.error(), "client credentials without resource, two APIs");

        table.rows.clear(); // deleted on another instance
        OAuthException e = assertThrows(OAuthException.class, () -> indicators.forToken(List.of(), List.of(PAYROLL),
                Scopes.parse("payroll.read"), Scopes.parse("payroll.read"), Scopes.parse("payroll.read")));
        assertEquals(OAuthError.INVALID_TARGET, e.error());
    }
}
