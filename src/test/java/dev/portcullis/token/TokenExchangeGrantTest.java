package dev.portcullis.token;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.portcullis.api.ApiDirectory;
import dev.portcullis.api.RegisteredApi;
import dev.portcullis.client.Client;
import dev.portcullis.client.TestClients;
import dev.portcullis.protocol.OAuthError;
import dev.portcullis.protocol.OAuthException;
import dev.portcullis.protocol.ProtocolParameters;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The checks of the token exchange grant, each on its own, without a server. */
class TokenExchangeGrantTest {

    private static final String ORDERS = "https://orders.corp.example";
    private static final String PAYROLL = "https://payroll.corp.example";
    private static final String AT = TokenExchangeGrant.ACCESS_TOKEN_TYPE;

    /** The backend of the orders API, conf-1 (TestClients' confidential client), which may call payroll. */
    private final Client backend = TestClients.confidential("orders.read payroll.read payroll.write",
            "https://orders.example.com/cb");

    private final ApiDirectory apis = new ApiDirectory("https://issuer.example/api", List.of(
            new RegisteredApi(ORDERS, Set.of("orders.read"), null, "conf-1"),
            new RegisteredApi(PAYROLL, Set.of("payroll.read", "payroll.write"), null, "other-backend")));

    private static OAuthError refusal(Runnable check) {
        return assertThrows(OAuthException.class, check::run).error();
    }

    private static ProtocolParameters form(String body) {
        return ProtocolParameters.fromForm(body);
    }

    private static TokenExchangeGrant.Subject subjectFor(String... audience) {
        return new TokenExchangeGrant.Subject(new AccessTokenVerifier.VerifiedAccessToken("j1", "u1", "frontend",
                Set.of("orders.read"), Instant.EPOCH, "g1", "u1", List.of(audience)), grant("openid orders.read "
                + "payroll.read"), null);
    }

    private static TokenGrant grant(String scope) {
        return new TokenGrant("g1", "frontend", "u1", scope, Instant.EPOCH, Instant.EPOCH, null, Set.of("pwd"));
    }

    @Test
    void aPublicClientIsUnauthorized() {
        Client pub = TestClients.publicClient("orders.read", "https://app.example.com/cb");
        assertEquals(OAuthError.UNAUTHORIZED_CLIENT, refusal(() -> TokenExchangeGrant.clientIsConfidential(pub)));
    }

    @Test
    void anActorTokenIsAnInvalidRequest() {
        assertEquals(OAuthError.INVALID_REQUEST,
                refusal(() -> TokenExchangeGrant.noActorToken(form("actor_token=x&actor_token_type=" + AT))));
        assertEquals(OAuthError.INVALID_REQUEST,
                refusal(() -> TokenExchangeGrant.noActorToken(form("actor_token_type=" + AT))));
        TokenExchangeGrant.noActorToken(form("subject_token=x"));
    }

    @Test
    void onlyAccessTokensAreTakenAndIssued() {
        TokenExchangeGrant.tokenTypesAreAccessTokens(form("subject_token_type=" + AT));
        TokenExchangeGrant.tokenTypesAreAccessTokens(form("subject_token_type=" + AT + "&requested_token_type=" + AT));
        for (String body : List.of("", "subject_token_type=urn:ietf:params:oauth:token-type:id_token",
                "subject_token_type=urn:ietf:params:oauth:token-type:refresh_token",
                "subject_token_type=" + AT + "&requested_token_type=urn:ietf:params:oauth:token-type:jwt",
                "subject_token_type=" + AT + "&requested_token_type=urn:ietf:params:oauth:token-type:refresh_token")) {
            assertEquals(OAuthError.INVALID_REQUEST,
                    refusal(() -> TokenExchangeGrant.tokenTypesAreAccessTokens(form(body))), body);
        }
    }

    @Test
    void theSubjectTokenMustBeForAnApiWhoseBackendIsTheClient() {
        TokenExchangeGrant.subjectTokenIsForClient(apis, subjectFor(ORDERS), backend);
        TokenExchangeGrant.subjectTokenIsForClient(apis, subjectFor(PAYROLL, ORDERS), backend);
        for (String[] audience : List.of(new String[] {PAYROLL}, new String[] {"https://issuer.example/api"},
                new String[] {"conf-1"}, new String[] {"https://unknown.corp.example"})) {
            assertEquals(OAuthError.INVALID_REQUEST,
                    refusal(() -> TokenExchangeGrant.subjectTokenIsForClient(apis, subjectFor(audience), backend)),
                    List.of(audience).toString());
        }
        ApiDirectory noBackend = new ApiDirectory("https://issuer.example/api",
                List.of(new RegisteredApi(ORDERS, Set.of("orders.read"), null)));
        assertEquals(OAuthError.INVALID_REQUEST, refusal(
                () -> TokenExchangeGrant.subjectTokenIsForClient(noBackend, subjectFor(ORDERS), backend)));
    }

    @Test
    void theTargetIsRequiredAndMustBeARegisteredApiTheClientMayUse() {
        assertEquals(List.of(PAYROLL), ApiDirectory.identifiers(
                TokenExchangeGrant.targetsAreAllowed(apis, backend, List.of(PAYROLL), Optional.empty())));
        assertEquals(List.of(PAYROLL), ApiDirectory.identifiers(
                TokenExchangeGrant.targetsAreAllowed(apis, backend, List.of(), Optional.of(PAYROLL))));
        assertEquals(List.of(PAYROLL), ApiDirectory.identifiers(
                TokenExchangeGrant.targetsAreAllowed(apis, backend, List.of(PAYROLL), Optional.of(PAYROLL))));
        assertEquals(OAuthError.INVALID_REQUEST, refusal(
                () -> TokenExchangeGrant.targetsAreAllowed(apis, backend, List.of(), Optional.empty())));
        assertEquals(OAuthError.INVALID_TARGET, refusal(
                () -> TokenExchangeGrant.targetsAreAllowed(apis, backend, List.of(), Optional.of("payroll"))));
        assertEquals(OAuthError.INVALID_TARGET, refusal(() -> TokenExchangeGrant.targetsAreAllowed(apis, backend,
                List.of("https://unknown.corp.example"), Optional.empty())));
        Client ordersOnly = TestClients.confidential("orders.read", "https://orders.example.com/cb");
        assertEquals(OAuthError.INVALID_TARGET, refusal(() -> TokenExchangeGrant.targetsAreAllowed(apis, ordersOnly,
                List.of(PAYROLL), Optional.empty())));
    }

    @Test
    void theScopeIsWithinWhatTheUserAuthorizedAndTheClientHolds() {
        TokenGrant subject = grant("openid orders.read payroll.read");
        assertEquals(Set.of("orders.read", "payroll.read"),
                TokenExchangeGrant.scopeIsWithinSubject(subject, backend, Optional.empty()));
        assertEquals(Set.of("payroll.read"),
                TokenExchangeGrant.scopeIsWithinSubject(subject, backend, Optional.of("payroll.read")));
        for (String wider : List.of("payroll.write", "payroll.read payroll.write", "openid", "api", " ")) {
            assertEquals(OAuthError.INVALID_SCOPE, refusal(
                    () -> TokenExchangeGrant.scopeIsWithinSubject(subject, backend, Optional.of(wider))), wider);
        }
        assertEquals(OAuthError.INVALID_SCOPE, refusal(() -> TokenExchangeGrant.scopeIsWithinSubject(
                grant("openid profile"), backend, Optional.empty())));
    }

    @Test
    void theClientActsAndAnEarlierActorIsNestedInside() {
        assertEquals(Map.of("sub", "conf-1"), TokenExchangeGrant.actor(backend, null));
        assertEquals(Map.of("sub", "conf-1", "act", Map.of("sub", "first", "act", Map.of("sub", "zeroth"))),
                TokenExchangeGrant.actor(backend, Map.of("sub", "first", "act", Map.of("sub", "zeroth"))));
    }
}
