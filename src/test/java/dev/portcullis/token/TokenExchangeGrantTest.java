package dev.portcullis.token;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.MACSigner;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import dev.portcullis.account.TestUsers;
import dev.portcullis.account.User;
import dev.portcullis.account.UserRepository;
import dev.portcullis.api.AccessTokenAudience;
import dev.portcullis.api.ApiDirectory;
import dev.portcullis.api.RegisteredApi;
import dev.portcullis.client.Client;
import dev.portcullis.client.TestClients;
import dev.portcullis.protocol.OAuthError;
import dev.portcullis.protocol.OAuthException;
import dev.portcullis.protocol.ProtocolParameters;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The checks of the token exchange grant, each on its own and in {@link TokenExchangeGrant#handle}, serverless. */
class TokenExchangeGrantTest {

    private static final String ORDERS = "https://orders.corp.example";
    private static final String PAYROLL = "https://payroll.corp.example";
    private static final String LEDGER = "https://ledger.corp.example";
    private static final String OWN = GrantFakes.Apis.OWN_API;
    private static final String AT = TokenExchangeGrant.ACCESS_TOKEN_TYPE;

    /** The backend of the orders API, conf-1 (TestClients' confidential client), which may call payroll. */
    private final Client backend = TestClients.confidential("orders.read payroll.read payroll.write ledger.read "
            + "openid profile", "https://orders.example.com/cb");

    /** Orders' backend may obtain payroll.read; payroll's backend may obtain ledger.read. */
    private final RegisteredApi orders = new RegisteredApi(ORDERS, Set.of("orders.read"), null, "conf-1",
            Set.of("payroll.read"));
    private final RegisteredApi payroll = new RegisteredApi(PAYROLL, Set.of("payroll.read", "payroll.write"), null,
            "other-backend", Set.of("ledger.read"));
    private final RegisteredApi ledger = new RegisteredApi(LEDGER, Set.of("ledger.read"), null);
    private final ApiDirectory apis = new ApiDirectory(OWN, List.of(orders, payroll, ledger));

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
        assertEquals(Set.of("payroll.read"), TokenExchangeGrant.subjectTokenIsForClient(apis, subjectFor(ORDERS),
                backend), "what the orders API's exchange_scopes let its backend obtain");
        assertEquals(Set.of("payroll.read"), TokenExchangeGrant.subjectTokenIsForClient(apis,
                subjectFor(PAYROLL, ORDERS), backend), "payroll's decision is for payroll's backend, not this one");
        for (String[] audience : List.of(new String[] {PAYROLL}, new String[] {OWN}, new String[] {"conf-1"},
                new String[] {"https://unknown.corp.example"})) {
            assertEquals(OAuthError.INVALID_REQUEST,
                    refusal(() -> TokenExchangeGrant.subjectTokenIsForClient(apis, subjectFor(audience), backend)),
                    List.of(audience).toString());
        }
        ApiDirectory noBackend = new ApiDirectory(OWN, List.of(new RegisteredApi(ORDERS, Set.of("orders.read"),
                null)));
        assertEquals(OAuthError.INVALID_REQUEST, refusal(
                () -> TokenExchangeGrant.subjectTokenIsForClient(noBackend, subjectFor(ORDERS), backend)));
        ApiDirectory noDecision = new ApiDirectory(OWN, List.of(new RegisteredApi(ORDERS, Set.of("orders.read"),
                null, "conf-1")));
        assertEquals(Set.of(), TokenExchangeGrant.subjectTokenIsForClient(noDecision, subjectFor(ORDERS), backend),
                "a backend without exchange_scopes may obtain nothing");
    }

    @Test
    void theTargetIsRequiredAndMustBeARegisteredApiTheClientMayUseNeverPortcullisOwn() {
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
        for (List<String> resources : List.of(List.of(OWN), List.of(PAYROLL, OWN))) {
            assertEquals(OAuthError.INVALID_TARGET, refusal(() -> TokenExchangeGrant.targetsAreAllowed(apis, backend,
                    resources, Optional.empty())), "Portcullis's own API: " + resources);
        }
        assertEquals(OAuthError.INVALID_TARGET, refusal(() -> TokenExchangeGrant.targetsAreAllowed(apis, backend,
                List.of(), Optional.of(OWN))));
    }

    @Test
    void theScopeIsWithinTheApisDecisionWhatTheUserAuthorizedAndTheClientHolds() {
        TokenGrant consented = grant("openid profile orders.read payroll.read payroll.write ledger.read");
        List<RegisteredApi> toPayroll = List.of(payroll);
        Set<String> decision = Set.of("payroll.read");
        assertEquals(Set.of("payroll.read"), TokenExchangeGrant.scopeIsWithinDecisionAndConsent(decision, consented,
                backend, toPayroll, Optional.empty()));
        assertEquals(Set.of("payroll.read"), TokenExchangeGrant.scopeIsWithinDecisionAndConsent(decision, consented,
                backend, toPayroll, Optional.of("payroll.read")));
        for (String wider : List.of("payroll.write", "payroll.read payroll.write", "ledger.read", "orders.read",
                "openid", "profile", "openid payroll.read", "offline_access", " ")) {
            assertEquals(OAuthError.INVALID_SCOPE, refusal(() -> TokenExchangeGrant.scopeIsWithinDecisionAndConsent(
                    decision, consented, backend, toPayroll, Optional.of(wider))), wider);
        }
        // the user did not authorize it: the decision alone is not enough
        assertEquals(OAuthError.INVALID_SCOPE, refusal(() -> TokenExchangeGrant.scopeIsWithinDecisionAndConsent(
                decision, grant("openid orders.read"), backend, toPayroll, Optional.empty())));
        // the client does not hold it
        Client narrow = TestClients.confidential("orders.read payroll.write", "https://orders.example.com/cb");
        assertEquals(OAuthError.INVALID_SCOPE, refusal(() -> TokenExchangeGrant.scopeIsWithinDecisionAndConsent(
                decision, consented, narrow, toPayroll, Optional.of("payroll.read"))));
        // nothing decided: nothing obtained, however much the user authorized
        assertEquals(OAuthError.INVALID_SCOPE, refusal(() -> TokenExchangeGrant.scopeIsWithinDecisionAndConsent(
                Set.of(), consented, backend, toPayroll, Optional.empty())));
        // a decision that names a built-in scope (not accepted by the admin API) still yields none
        assertEquals(OAuthError.INVALID_SCOPE, refusal(() -> TokenExchangeGrant.scopeIsWithinDecisionAndConsent(
                Set.of("openid", "profile"), consented, backend, toPayroll, Optional.of("profile"))));
        // without scope: the allowed scopes of the target only
        assertEquals(Set.of("payroll.read"), TokenExchangeGrant.scopeIsWithinDecisionAndConsent(
                Set.of("payroll.read", "ledger.read"), consented, backend, toPayroll, Optional.empty()));
        assertEquals(OAuthError.INVALID_SCOPE, refusal(() -> TokenExchangeGrant.scopeIsWithinDecisionAndConsent(
                Set.of("ledger.read"), consented, backend, toPayroll, Optional.empty())));
    }

    @Test
    void theClientActsAndAnEarlierActorIsNestedInside() {
        assertEquals(Map.of("sub", "conf-1"), TokenExchangeGrant.actor(backend, null));
        assertEquals(Map.of("sub", "conf-1", "act", Map.of("sub", "first", "act", Map.of("sub", "zeroth"))),
                TokenExchangeGrant.actor(backend, Map.of("sub", "first", "act", Map.of("sub", "zeroth"))));
    }

    @Test
    void aChainHasAtMostTenExchanges() {
        TokenExchangeGrant.chainIsNotTooLong(null);
        Map<String, Object> act = null;
        for (int links = 1; links < TokenExchangeGrant.MAX_CHAIN; links++) {
            act = TokenExchangeGrant.actor(backend, act);
            TokenExchangeGrant.chainIsNotTooLong(act);
        }
        Map<String, Object> longest = TokenExchangeGrant.actor(backend, act);
        assertEquals(OAuthError.INVALID_REQUEST, refusal(() -> TokenExchangeGrant.chainIsNotTooLong(longest)));
    }

    // ---------------------------------------------------------------- handle(): the checks in place

    /** handle() with its collaborators in memory; the subject token is for {@link #subjectAudience}. */
    private final class Exchange {
        final TokenExchangeGrant grant = new TokenExchangeGrant();
        final List<String> subjectAudience = new ArrayList<>(List.of(ORDERS));
        final String subjectScope = "orders.read";
        TokenGrant authorization = grant("openid profile orders.read payroll.read payroll.write");
        User user = TestUsers.user("u1", "alice", "alice@example.com", "Alice");
        AccessTokenAudience issued;
        int issues;

        Exchange() {
            grant.verifier = new AccessTokenVerifier() {
                @Override
                public Optional<VerifiedAccessToken> checkAnyAudience(String token) {
                    return Optional.of(new VerifiedAccessToken("j1", "u1", "frontend", Set.of(subjectScope),
                            GrantFakes.NOW.plusSeconds(300), "g1", "u1", List.copyOf(subjectAudience)));
                }
            };
            grant.grants = new TokenGrantRepository() {
                @Override
                public Optional<AccessTokenStatus> accessTokenStatus(String jti) {
                    return Optional.of(new AccessTokenStatus(new AccessTokenRecord("j1", "g1", subjectScope,
                            GrantFakes.NOW, GrantFakes.NOW.plusSeconds(300), null, null), authorization));
                }

                @Override
                Optional<TokenGrant> originalAuthorizationOf(String grantId) {
                    return Optional.of(authorization);
                }
            };
            grant.users = new UserRepository() {
                @Override
                public Optional<User> findById(String userId) {
                    return Optional.ofNullable(user).filter(u -> u.userId().equals(userId));
                }
            };
            GrantFakes.Apis directory = new GrantFakes.Apis();
            directory.registered.addAll(List.of(orders, payroll, ledger));
            grant.resourceIndicators = directory;
            grant.issuer = new TokenIssuer() {
                @Override
                public TokenResponse exchange(Client client, TokenGrant subject, String subjectJti,
                                              String rootGrantId, AccessTokenAudience audience,
                                              List<String> resources, Instant notAfter, Map<String, Object> act,
                                              String ip, String dpopJkt) {
                    issued = audience;
                    issues++;
                    return GrantFakes.ISSUED;
                }
            };
        }

        TokenResponse handle(String extra) {
            return grant.handle(backend, form("subject_token=" + subjectToken() + "&subject_token_type=" + AT
                    + extra), "192.0.2.1", null);
        }

        OAuthError refused(String extra) {
            OAuthError error = assertThrows(OAuthException.class, () -> handle(extra)).error();
            assertEquals(0, issues, "nothing issued");
            return error;
        }
    }

    /** A JWT that parses (handle reads its act claim); the verifier fake decides whether it is active. */
    private static String subjectToken() {
        try {
            SignedJWT jwt = new SignedJWT(new JWSHeader(JWSAlgorithm.HS256), new JWTClaimsSet.Builder().subject("u1")
                    .build());
            jwt.sign(new MACSigner(new byte[32]));
            return jwt.serialize();
        } catch (com.nimbusds.jose.JOSEException e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void handleIssuesWithinTheDecisionForTheTarget() {
        Exchange x = new Exchange();
        x.handle("&resource=" + PAYROLL);
        assertEquals(1, x.issues);
        assertEquals(List.of(PAYROLL), x.issued.audience());
        assertEquals("payroll.read", x.issued.scope(), "the decision, not everything the user authorized");
    }

    @Test
    void handleAppliesTheAudienceRule() {
        Exchange x = new Exchange();
        x.subjectAudience.set(0, PAYROLL); // a token for payroll, whose backend is another client
        assertEquals(OAuthError.INVALID_REQUEST, x.refused("&resource=" + PAYROLL));
        x.subjectAudience.set(0, OWN);
        assertEquals(OAuthError.INVALID_REQUEST, x.refused("&resource=" + PAYROLL));
    }

    @Test
    void handleRefusesADisabledOrDeletedUser() {
        Exchange x = new Exchange();
        x.user = TestUsers.disabled(x.user);
        assertEquals(OAuthError.INVALID_REQUEST, x.refused("&resource=" + PAYROLL));
        x.user = null;
        assertEquals(OAuthError.INVALID_REQUEST, x.refused("&resource=" + PAYROLL));
    }

    @Test
    void handleNeverWidensNorReachesPortcullisOwnApi() {
        Exchange x = new Exchange();
        assertEquals(OAuthError.INVALID_SCOPE, x.refused("&resource=" + PAYROLL + "&scope=payroll.write"),
                "the user authorized it, the API's decision does not name it");
        assertEquals(OAuthError.INVALID_SCOPE, x.refused("&resource=" + LEDGER), "ledger: nothing decided");
        assertEquals(OAuthError.INVALID_TARGET, x.refused("&resource=" + OWN + "&scope=openid+profile"));
        assertEquals(OAuthError.INVALID_TARGET, x.refused("&audience=" + OWN));
        x.authorization = grant("openid orders.read");
        assertEquals(OAuthError.INVALID_SCOPE, x.refused("&resource=" + PAYROLL),
                "the decision names it, the user did not authorize it");
        assertNull(x.issued);
        assertTrue(x.issues == 0);
    }
}
