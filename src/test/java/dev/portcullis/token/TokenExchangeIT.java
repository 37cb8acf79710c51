package dev.portcullis.token;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.jwk.source.ImmutableJWKSet;
import com.nimbusds.jose.proc.DefaultJOSEObjectTypeVerifier;
import com.nimbusds.jose.proc.JWSVerificationKeySelector;
import com.nimbusds.jose.proc.SecurityContext;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.proc.DefaultJWTClaimsVerifier;
import com.nimbusds.jwt.proc.DefaultJWTProcessor;
import dev.portcullis.testing.Admin;
import dev.portcullis.testing.CodeFixture;
import dev.portcullis.testing.Db;
import dev.portcullis.testing.Http;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * RFC 8693 token exchange over HTTP: a user's token for the orders API, issued to a frontend from a real code
 * redemption, exchanged by the orders API's backend for a token for the payroll API, and that one exchanged again by
 * the payroll backend for the ledger API. Every issued token is verified as a backend would, with Nimbus against the
 * published JWKS (signature, typ, iss, aud, sub, act, scope); refusals answer the RFC's errors and issue nothing.
 */
class TokenExchangeIT extends TokenEndpointTestBase {

    private static final String EXCHANGE = "urn:ietf:params:oauth:grant-type:token-exchange";
    private static final String AT = "urn:ietf:params:oauth:token-type:access_token";

    /**
     * Three APIs, the frontend, the backends of orders and payroll, and a user, all new for one test. The
     * administrator decided that orders' backend may obtain payroll's read scope, and payroll's backend both ledger
     * scopes; the user authorized ledger's read scope only.
     */
    private record Chain(String orders, String payroll, String ledger, String ordersScope, String payrollRead,
                         String payrollWrite, String ledgerScope, String ledgerWrite, Admin.TestClient frontend,
                         Admin.TestClient ordersBackend, Admin.TestClient payrollBackend, Admin.TestUser user,
                         String ordersId, String payrollId, String ledgerId) {
    }

    private String api(String identifier, String... scopes) {
        StringBuilder list = new StringBuilder();
        for (String s : scopes) {
            list.append(list.length() == 0 ? "" : ",").append(Http.q(s));
        }
        Http.Res r = admin.post("/admin/apis", "{\"identifier\":" + Http.q(identifier) + ",\"name\":\"API\","
                + "\"scopes\":[" + list + "]}");
        assertEquals(201, r.status(), r::toString);
        assertEquals(List.of(), r.json().get("exchange_scopes"), "none unless decided");
        return r.jsonString("id");
    }

    private Admin.TestClient client(String scopes, String... grantTypes) {
        StringBuilder list = new StringBuilder();
        for (String g : grantTypes) {
            list.append(list.length() == 0 ? "" : ",").append(Http.q(g));
        }
        Http.Res r = admin.post("/admin/clients", "{\"client_name\":\"Exchange test\",\"redirect_uris\":["
                + Http.q(REDIRECT) + "],\"scopes\":" + Http.q(scopes) + ",\"skip_consent\":true,\"grant_types\":["
                + list + "]}");
        assertEquals(201, r.status(), r::toString);
        return new Admin.TestClient(r.jsonString("client_id"), r.jsonString("client_secret"), REDIRECT, "Exchange");
    }

    private void backendOf(String apiId, Admin.TestClient backend) {
        Http.Res r = admin.patch("/admin/apis/" + apiId, "{\"backend_client_id\":" + Http.q(backend.clientId()) + "}");
        assertEquals(200, r.status(), r::toString);
        assertEquals(backend.clientId(), r.jsonString("backend_client_id"));
    }

    /** The administrator's decision: what the backend of {@code apiId} may obtain by exchanging its tokens. */
    private Http.Res exchangeScopes(String apiId, String... scopes) {
        StringBuilder list = new StringBuilder();
        for (String s : scopes) {
            list.append(list.length() == 0 ? "" : ",").append(Http.q(s));
        }
        return admin.patch("/admin/apis/" + apiId, "{\"exchange_scopes\":[" + list + "]}");
    }

    private Chain chain() {
        String n = Long.toHexString(System.nanoTime());
        String orders = "https://orders-" + n + ".corp.example";
        String payroll = "https://payroll-" + n + ".corp.example";
        String ledger = "https://ledger-" + n + ".corp.example";
        String ordersId = api(orders, "orders-" + n + ".read");
        String payrollId = api(payroll, "payroll-" + n + ".read", "payroll-" + n + ".write");
        String ledgerId = api(ledger, "ledger-" + n + ".read", "ledger-" + n + ".write");
        Admin.TestClient frontend = client("openid profile orders-" + n + ".read payroll-" + n + ".read ledger-" + n
                + ".read groups", "authorization_code", "refresh_token");
        // the orders backend's registration is broad (even openid profile): the APIs' decisions bound it
        Admin.TestClient ordersBackend = client("openid profile orders-" + n + ".read payroll-" + n + ".read payroll-"
                + n + ".write ledger-" + n + ".read", EXCHANGE);
        Admin.TestClient payrollBackend = client("payroll-" + n + ".read ledger-" + n + ".read ledger-" + n
                + ".write", EXCHANGE);
        backendOf(ordersId, ordersBackend);
        backendOf(payrollId, payrollBackend);
        Http.Res decided = exchangeScopes(ordersId, "payroll-" + n + ".read");
        assertEquals(200, decided.status(), decided::toString);
        assertEquals(List.of("payroll-" + n + ".read"), decided.json().get("exchange_scopes"));
        assertEquals(200, exchangeScopes(payrollId, "ledger-" + n + ".read", "ledger-" + n + ".write").status());
        return new Chain(orders, payroll, ledger, "orders-" + n + ".read", "payroll-" + n + ".read",
                "payroll-" + n + ".write", "ledger-" + n + ".read", "ledger-" + n + ".write", frontend, ordersBackend,
                payrollBackend, admin.user("correct horse battery"), ordersId, payrollId, ledgerId);
    }

    /** The frontend redeems a code the user authorized for every API, asking for a token for {@code resource}. */
    private String frontendToken(Chain c, String resource) {
        String code = CodeFixture.issue(c.frontend().clientId(), c.user().userId(), REDIRECT, "openid profile "
                + c.ordersScope() + " " + c.payrollRead() + " " + c.ledgerScope(), null, null);
        Http.Res r = http.post("/oauth/token", "application/x-www-form-urlencoded", Http.form(Map.of("grant_type",
                "authorization_code", "code", code, "redirect_uri", REDIRECT)) + "&resource=" + Http.enc(resource),
                "Authorization", basic(c.frontend()));
        assertEquals(200, r.status(), r::toString);
        return r.jsonString("access_token");
    }

    /** The three tokens of a chain: the user's for orders, orders' backend's for payroll, payroll's for ledger. */
    private record Links(String subject, String payroll, String ledger) {
    }

    private Links links(Chain c) {
        String subject = frontendToken(c, c.orders());
        Http.Res payroll = exchange(c.ordersBackend(), subject, "resource", c.payroll());
        assertEquals(200, payroll.status(), payroll::toString);
        Http.Res ledger = exchange(c.payrollBackend(), payroll.jsonString("access_token"), "resource", c.ledger());
        assertEquals(200, ledger.status(), ledger::toString);
        return new Links(subject, payroll.jsonString("access_token"), ledger.jsonString("access_token"));
    }

    /** A token exchange by {@code backend}: {@code extra} pairs added to the usual parameters, null removes one. */
    private Http.Res exchange(Admin.TestClient backend, String subjectToken, String... extra) {
        Map<String, String> p = new LinkedHashMap<>();
        p.put("grant_type", EXCHANGE);
        p.put("subject_token", subjectToken);
        p.put("subject_token_type", AT);
        for (int i = 0; i < extra.length; i += 2) {
            if (extra[i + 1] == null) {
                p.remove(extra[i]);
            } else {
                p.put(extra[i], extra[i + 1]);
            }
        }
        return http.post("/oauth/token", "application/x-www-form-urlencoded", Http.form(p), "Authorization",
                basic(backend));
    }

    private static String basic(Admin.TestClient c) {
        return "Basic " + Base64.getEncoder().encodeToString((Http.enc(c.clientId()) + ":" + Http.enc(c.secret()))
                .getBytes(StandardCharsets.UTF_8));
    }

    /** The token as the backend of {@code audience} checks it with Nimbus: JWKS signature, typ, iss, aud, sub. */
    private static JWTClaimsSet backendAccepts(String accessToken, String audience, String subject) throws Exception {
        DefaultJWTProcessor<SecurityContext> backend = new DefaultJWTProcessor<>();
        backend.setJWSTypeVerifier(new DefaultJOSEObjectTypeVerifier<>(new JOSEObjectType("at+jwt")));
        backend.setJWSKeySelector(new JWSVerificationKeySelector<>(Set.of(JWSAlgorithm.RS256, JWSAlgorithm.ES256,
                JWSAlgorithm.PS256), new ImmutableJWKSet<>(jwks())));
        backend.setJWTClaimsSetVerifier(new DefaultJWTClaimsVerifier<>(audience, new JWTClaimsSet.Builder()
                .issuer(BASE).subject(subject).build(), Set.of("exp", "iat", "jti", "scope", "client_id")));
        return backend.process(accessToken, null);
    }

    private Map<String, Object> introspect(Admin.TestClient c, String token) {
        Http.Res r = http.postForm("/oauth/introspect", Map.of("token", token), "Authorization", basic(c));
        assertEquals(200, r.status(), r::toString);
        return r.json();
    }

    private static long issuedTo(Admin.TestClient c) {
        return Db.count("SELECT COUNT(*) FROM token_grants WHERE client_id = ?", c.clientId());
    }

    @Test
    void aBackendExchangesTheUsersTokenForADownstreamApiAndThatBackendExchangesItAgain() throws Exception {
        Chain c = chain();
        String subject = frontendToken(c, c.orders());

        Http.Res r = exchange(c.ordersBackend(), subject, "resource", c.payroll());
        assertEquals(200, r.status(), r::toString);
        assertNoStore(r);
        assertEquals(AT, r.jsonString("issued_token_type"));
        assertEquals("Bearer", r.jsonString("token_type"));
        assertEquals(c.payrollRead(), r.jsonString("scope"), "what the user authorized, narrowed to payroll");
        assertNull(r.jsonString("refresh_token"));
        assertNull(r.jsonString("id_token"));
        String payrollToken = r.jsonString("access_token");
        JWTClaimsSet claims = backendAccepts(payrollToken, c.payroll(), c.user().userId());
        assertEquals(List.of(c.payroll()), claims.getAudience());
        assertEquals(c.ordersBackend().clientId(), claims.getStringClaim("client_id"));
        assertEquals(Map.of("sub", c.ordersBackend().clientId()), claims.getJSONObjectClaim("act"));
        assertEquals(c.payrollRead(), claims.getStringClaim("scope"));
        assertFalse(claims.getExpirationTime().after(claims(subject).getExpirationTime()),
                "never outlives the subject token");
        assertTrue(((Number) r.json().get("expires_in")).longValue() > 0, r::toString);

        Map<String, Object> introspected = introspect(c.ordersBackend(), payrollToken);
        assertEquals(true, introspected.get("active"), introspected::toString);
        assertEquals(c.ordersBackend().clientId(), introspected.get("client_id"));
        assertEquals(c.user().userId(), introspected.get("sub"));
        assertEquals(c.payroll(), introspected.get("aud"));

        Http.Res again = exchange(c.payrollBackend(), payrollToken, "audience", c.ledger());
        assertEquals(200, again.status(), again::toString);
        JWTClaimsSet nested = backendAccepts(again.jsonString("access_token"), c.ledger(), c.user().userId());
        assertEquals(Map.of("sub", c.payrollBackend().clientId(), "act", Map.of("sub", c.ordersBackend().clientId())),
                nested.getJSONObjectClaim("act"), "the earlier actor nested inside");
        assertEquals(c.ledgerScope(), nested.getStringClaim("scope"));
        assertEquals(c.payrollBackend().clientId(), nested.getStringClaim("client_id"));

        assertEquals(2, Db.count("SELECT COUNT(*) FROM audit_events WHERE event_type = 'TOKEN_EXCHANGED' AND "
                + "subject = ?", c.user().userId()), "each exchange audited");
        assertTrue(discovery().getGrantTypes().stream().anyMatch(g -> g.getValue().equals(EXCHANGE)));
    }

    @Test
    void revokingTheUsersOriginalAuthorizationEndsTheExchangedTokens() throws Exception {
        Chain c = chain();
        Links links = links(c);
        assertEquals(true, introspect(c.payrollBackend(), links.ledger()).get("active"));

        Http.Res withdrawn = admin.delete("/admin/users/" + c.user().username() + "/grants/"
                + c.frontend().clientId());
        assertEquals(204, withdrawn.status(), withdrawn::toString);
        assertEquals(false, introspect(c.ordersBackend(), links.payroll()).get("active"));
        assertEquals(false, introspect(c.payrollBackend(), links.ledger()).get("active"));
        assertError(exchange(c.payrollBackend(), links.payroll(), "resource", c.ledger()), 400, "invalid_request");
    }

    /** Issue 47, fault 3: revoking (RFC 7009) a token that was exchanged further ends what was exchanged from it. */
    @Test
    void revokingAnExchangedTokenEndsTheTokensExchangedFromIt() throws Exception {
        Chain c = chain();
        Links links = links(c);
        Http.Res revoked = http.postForm("/oauth/revoke", Map.of("token", links.payroll()), "Authorization",
                basic(c.ordersBackend()));
        assertEquals(200, revoked.status(), revoked::toString);
        assertEquals(false, introspect(c.payrollBackend(), links.ledger()).get("active"), "exchanged from it");
        assertEquals(true, introspect(c.frontend(), links.subject()).get("active"), "the link above stays");
        assertError(exchange(c.payrollBackend(), links.payroll(), "resource", c.ledger()), 400, "invalid_request");
        assertEquals(true, introspect(c.ordersBackend(), exchange(c.ordersBackend(), links.subject(), "resource",
                c.payroll()).jsonString("access_token")).get("active"), "the user's token exchanges as before");
    }

    /** Issue 47, fault 3: disabling or deleting the client of a link in the middle ends the links below it. */
    @Test
    void disablingOrDeletingTheClientOfAMiddleLinkEndsTheLinksBelowIt() throws Exception {
        for (boolean delete : new boolean[] {false, true}) {
            Chain c = chain();
            Links links = links(c);
            assertEquals(true, introspect(c.payrollBackend(), links.ledger()).get("active"));
            Http.Res ended = delete ? admin.delete("/admin/clients/" + c.ordersBackend().clientId())
                    : admin.patch("/admin/clients/" + c.ordersBackend().clientId(), "{\"enabled\":false}");
            assertEquals(delete ? 204 : 200, ended.status(), ended::toString);
            assertEquals(false, introspect(c.payrollBackend(), links.ledger()).get("active"),
                    (delete ? "deleted" : "disabled") + ": the link below ends");
            assertEquals(false, introspect(c.frontend(), links.payroll()).get("active"));
            assertEquals(true, introspect(c.frontend(), links.subject()).get("active"), "the link above stays");
            assertError(exchange(c.payrollBackend(), links.payroll(), "resource", c.ledger()), 400, "invalid_request");
        }
    }

    /**
     * Exchanges from a token in the middle of a chain racing the disabling of that token's client: whatever the
     * order, no token exchanged from it stays active, and no request fails with a server error (a lock taken in the
     * wrong order would deadlock).
     */
    @Test
    void anExchangeRacingTheEndOfTheLinkAboveItEndsWithIt() throws Exception {
        Chain c = chain();
        String subject = frontendToken(c, c.orders());
        String payrollToken = exchange(c.ordersBackend(), subject, "resource", c.payroll()).jsonString("access_token");
        java.util.concurrent.atomic.AtomicInteger turn = new java.util.concurrent.atomic.AtomicInteger();
        List<Http.Res> results = race(12, () -> turn.getAndIncrement() == 5
                ? admin.patch("/admin/clients/" + c.ordersBackend().clientId(), "{\"enabled\":false}")
                : exchange(c.payrollBackend(), payrollToken, "resource", c.ledger()));
        for (Http.Res r : results) {
            assertTrue(r.status() == 200 || r.status() == 400, r::toString);
            if (r.status() == 400) {
                assertEquals("invalid_request", r.jsonString("error"), r::toString);
            } else if (r.jsonString("access_token") != null) {
                assertEquals(false, introspect(c.payrollBackend(), r.jsonString("access_token")).get("active"),
                        "exchanged before the disabling committed: revoked with it");
            }
        }
        assertEquals(0, Db.count("SELECT COUNT(*) FROM token_grants WHERE client_id = ? AND revoked_at IS NULL",
                c.payrollBackend().clientId()), "no grant below the disabled link is live");
    }

    @Test
    void aSubjectTokenThatIsRevokedExpiredOrOfADisabledUserIsRefused() throws Exception {
        Chain c = chain();
        String revoked = frontendToken(c, c.orders());
        Http.Res rv = http.postForm("/oauth/revoke", Map.of("token", revoked), "Authorization", basic(c.frontend()));
        assertEquals(200, rv.status(), rv::toString);
        assertError(exchange(c.ordersBackend(), revoked, "resource", c.payroll()), 400, "invalid_request");

        String expired = frontendToken(c, c.orders());
        Db.update("UPDATE access_tokens SET expires_at = ? WHERE jti = ?", Instant.now().getEpochSecond() - 1,
                claims(expired).getJWTID());
        assertError(exchange(c.ordersBackend(), expired, "resource", c.payroll()), 400, "invalid_request");

        // both tokens before the user is disabled: a code is not redeemed for a disabled user
        String ofUnrevoked = frontendToken(c, c.orders());
        String ofDisabled = frontendToken(c, c.orders());
        // disabled where no revocation followed (as a directory user is until the next re-check): the exchange
        // reads the user itself
        assertEquals(1, Db.update("UPDATE users SET enabled = FALSE WHERE user_id = ?", c.user().userId()));
        assertError(exchange(c.ordersBackend(), ofUnrevoked, "resource", c.payroll()), 400, "invalid_request");
        assertEquals(1, Db.update("UPDATE users SET enabled = TRUE WHERE user_id = ?", c.user().userId()));

        Http.Res disabled = admin.patch("/admin/users/" + c.user().username(), "{\"enabled\":false}");
        assertEquals(200, disabled.status(), disabled::toString);
        assertTrue(accessTokenRevoked(ofDisabled), "disabling through the admin API revokes the user's tokens");
        assertError(exchange(c.ordersBackend(), ofDisabled, "resource", c.payroll()), 400, "invalid_request");

        assertError(exchange(c.ordersBackend(), "not-a-token", "resource", c.payroll()), 400, "invalid_request");
        assertEquals(0, issuedTo(c.ordersBackend()), "nothing issued");
    }

    @Test
    void aSubjectTokenForAnotherAudienceIsRefused() throws Exception {
        Chain c = chain();
        String forPayroll = frontendToken(c, c.payroll());
        Http.Res r = exchange(c.ordersBackend(), forPayroll, "resource", c.ledger());
        assertError(r, 400, "invalid_request");
        assertTrue(r.jsonString("error_description").contains("backend"), r::toString);
        assertError(exchange(c.ordersBackend(), frontendToken(c, BASE + "/api"), "resource", c.payroll()), 400,
                "invalid_request");
        String forOrders = frontendToken(c, c.orders());
        assertError(exchange(c.payrollBackend(), forOrders, "resource", c.ledger()), 400, "invalid_request");
        assertEquals(0, issuedTo(c.ordersBackend()) + issuedTo(c.payrollBackend()), "nothing issued");
    }

    @Test
    void theTargetAndTheScopeMustBeAllowed() throws Exception {
        Chain c = chain();
        String subject = frontendToken(c, c.orders());
        Admin.TestClient ordersOnly = client(c.ordersScope(), EXCHANGE);
        String ordersId = (String) Db.rows("SELECT api_id FROM apis WHERE identifier = ?", c.orders()).get(0)
                .get("api_id");
        backendOf(ordersId, ordersOnly);
        assertError(exchange(ordersOnly, subject, "resource", c.payroll()), 400, "invalid_target");
        backendOf(ordersId, c.ordersBackend());

        assertError(exchange(c.ordersBackend(), subject, "resource", "https://unknown.corp.example"), 400,
                "invalid_target");
        assertError(exchange(c.ordersBackend(), subject, "audience", "payroll"), 400, "invalid_target");
        assertError(exchange(c.ordersBackend(), subject), 400, "invalid_request");
        assertError(exchange(c.ordersBackend(), subject, "resource", c.payroll(), "scope", c.payrollWrite()), 400,
                "invalid_scope");
        assertError(exchange(c.ordersBackend(), subject, "resource", c.payroll(), "scope", "openid " + c.payrollRead()),
                400, "invalid_scope");
        assertEquals(0, issuedTo(c.ordersBackend()) + issuedTo(ordersOnly), "nothing issued");

        Http.Res narrowed = exchange(c.ordersBackend(), subject, "resource", c.payroll(), "scope", c.payrollRead());
        assertEquals(200, narrowed.status(), narrowed::toString);
        assertEquals(c.payrollRead(), narrowed.jsonString("scope"));
    }

    /**
     * Issue 47, fault 2: a token the frontend narrowed to orders is not exchanged for what the orders API's decision
     * does not name (though the user authorized it and the backend's registration holds it), nor for OpenID scopes at
     * Portcullis's own audience (which would read userinfo); each link is bounded by its own API's decision and by
     * what the user authorized.
     */
    @Test
    void anExchangeNeverWidensBeyondItsApisDecisionOrTheUsersAuthorization() throws Exception {
        Chain c = chain();
        String subject = frontendToken(c, c.orders());
        Http.Res ledger = exchange(c.ordersBackend(), subject, "resource", c.ledger());
        assertError(ledger, 400, "invalid_scope");
        assertError(exchange(c.ordersBackend(), subject, "resource", c.ledger(), "scope", c.ledgerScope()), 400,
                "invalid_scope");
        assertError(exchange(c.ordersBackend(), subject, "resource", c.payroll(), "scope", c.payrollRead() + " "
                + c.ledgerScope()), 400, "invalid_scope");
        for (String[] own : List.of(new String[] {"resource", BASE + "/api", "scope", "openid profile"},
                new String[] {"resource", BASE + "/api"}, new String[] {"audience", BASE + "/api"})) {
            Http.Res r = exchange(c.ordersBackend(), subject, own);
            assertError(r, 400, "invalid_target");
            assertTrue(r.jsonString("error_description").contains("own API"), r::toString);
        }
        assertError(exchange(c.ordersBackend(), subject, "resource", c.payroll(), "scope", "openid " + c.payrollRead()),
                400, "invalid_scope");
        assertEquals(0, issuedTo(c.ordersBackend()), "nothing issued");

        String payrollToken = exchange(c.ordersBackend(), subject, "resource", c.payroll()).jsonString("access_token");
        assertEquals(401, http.get("/oauth/userinfo", "Authorization", "Bearer " + payrollToken).status());
        // payroll's decision names ledger's write scope, the user did not authorize it
        assertError(exchange(c.payrollBackend(), payrollToken, "resource", c.ledger(), "scope", c.ledgerWrite()), 400,
                "invalid_scope");
        Http.Res link = exchange(c.payrollBackend(), payrollToken, "resource", c.ledger());
        assertEquals(200, link.status(), link::toString);
        assertEquals(c.ledgerScope(), link.jsonString("scope"), "both bounds: the decision and the authorization");
        // payroll's backend may not turn its token back into more payroll
        assertError(exchange(c.payrollBackend(), payrollToken, "resource", c.payroll()), 400, "invalid_scope");

        // the decision withdrawn: the orders backend obtains nothing any more
        Http.Res withdrawn = admin.patch("/admin/apis/" + c.ordersId(), "{\"exchange_scopes\":null}");
        assertEquals(200, withdrawn.status(), withdrawn::toString);
        assertEquals(List.of(), withdrawn.json().get("exchange_scopes"));
        assertError(exchange(c.ordersBackend(), subject, "resource", c.payroll()), 400, "invalid_scope");
        assertEquals(1, issuedTo(c.ordersBackend()));
    }

    /**
     * exchange_scopes in the admin API: read and written (merge patch), validated, audited (the OpenAPI document
     * describes it: {@code AdminApiIT}, where the server has MicroProfile OpenAPI).
     */
    @Test
    void theDecisionIsAnApiFieldThatIsValidatedAuditedAndDescribed() {
        Chain c = chain();
        Http.Res shown = admin.get("/admin/apis/" + c.payrollId());
        assertEquals(List.of(c.ledgerScope(), c.ledgerWrite()), shown.json().get("exchange_scopes"));
        Http.Res renamed = admin.patch("/admin/apis/" + c.payrollId(), "{\"name\":\"Payroll\"}");
        assertEquals(List.of(c.ledgerScope(), c.ledgerWrite()), renamed.json().get("exchange_scopes"),
                "a merge patch without the field keeps it");
        for (String bad : List.of("[\"openid\"]", "[\"profile\"]", "[\"offline_access\"]",
                "[" + Http.q(c.payrollRead()) + "]", "[\"unknown.read\"]", "\"" + c.ledgerScope() + "\"",
                "[" + Http.q(c.ledgerScope()) + "," + Http.q(c.ledgerScope()) + "]", "[1]")) {
            Http.Res r = admin.patch("/admin/apis/" + c.payrollId(), "{\"exchange_scopes\":" + bad + "}");
            assertEquals(400, r.status(), bad + ": " + r);
            assertEquals("invalid_request", r.jsonString("error"), r::toString);
            assertTrue(r.jsonString("error_description").contains("exchange_scopes"), r::toString);
        }
        assertEquals(List.of(c.ledgerScope(), c.ledgerWrite()), admin.get("/admin/apis/" + c.payrollId()).json()
                .get("exchange_scopes"), "a refused patch changes nothing");
        String archive = "https://archive-" + Long.toHexString(System.nanoTime()) + ".corp.example";
        String archiveScope = "archive-" + Long.toHexString(System.nanoTime()) + ".read";
        Http.Res registered = admin.post("/admin/apis", "{\"identifier\":" + Http.q(archive) + ",\"name\":\"Archive\","
                + "\"scopes\":[" + Http.q(archiveScope) + "],\"exchange_scopes\":[" + Http.q(c.payrollRead()) + "]}");
        assertEquals(201, registered.status(), registered::toString);
        assertEquals(List.of(c.payrollRead()), registered.json().get("exchange_scopes"));
        String archiveId = registered.jsonString("id");
        assertEquals(200, exchangeScopes(c.ordersId(), c.payrollRead(), archiveScope).status());

        // a scope another API's decision names is neither removed nor deleted behind its back
        Http.Res removing = admin.patch("/admin/apis/" + archiveId, "{\"scopes\":[\"archive-other.read\"]}");
        assertEquals(409, removing.status(), removing::toString);
        assertTrue(removing.jsonString("error_description").contains(c.orders()), removing::toString);
        Http.Res deleting = admin.delete("/admin/apis/" + archiveId);
        assertEquals(409, deleting.status(), deleting::toString);
        assertEquals("conflict", deleting.jsonString("error"));
        assertEquals(200, exchangeScopes(c.ordersId(), c.payrollRead()).status());
        assertEquals(204, admin.delete("/admin/apis/" + archiveId).status(), "no longer named: deleted");

        assertTrue(Db.count("SELECT COUNT(*) FROM audit_events WHERE event_type = 'API_UPDATED' AND detail LIKE ? "
                + "AND detail LIKE '%exchange_scopes%'", c.orders() + "%") >= 2, "each decision audited");
        assertEquals(1, Db.count("SELECT COUNT(*) FROM audit_events WHERE event_type = 'API_CREATED' AND detail LIKE ?",
                archive + "%exchange scopes " + c.payrollRead() + "%"));
    }

    @Test
    void onlyAConfidentialClientWithTheGrantTypeAndAccessTokensInAndOut() throws Exception {
        Chain c = chain();
        String subject = frontendToken(c, c.orders());
        fixtures();
        Http.Res pub = http.postForm("/oauth/token", Map.of("grant_type", EXCHANGE, "client_id",
                publicClient.clientId(), "subject_token", subject, "subject_token_type", AT, "resource",
                c.payroll()));
        assertError(pub, 400, "unauthorized_client");
        assertError(exchange(c.frontend(), subject, "resource", c.payroll()), 400, "unauthorized_client");

        assertError(exchange(c.ordersBackend(), subject, "resource", c.payroll(), "subject_token_type",
                "urn:ietf:params:oauth:token-type:id_token"), 400, "invalid_request");
        assertError(exchange(c.ordersBackend(), subject, "resource", c.payroll(), "subject_token_type", null), 400,
                "invalid_request");
        assertError(exchange(c.ordersBackend(), subject, "resource", c.payroll(), "requested_token_type",
                "urn:ietf:params:oauth:token-type:refresh_token"), 400, "invalid_request");
        Http.Res actor = exchange(c.ordersBackend(), subject, "resource", c.payroll(), "actor_token", subject,
                "actor_token_type", AT);
        assertError(actor, 400, "invalid_request");
        assertTrue(actor.jsonString("error_description").contains("actor_token"), actor::toString);
        assertEquals(0, issuedTo(c.ordersBackend()), "nothing issued");

        Http.Res unknownBackend = admin.patch("/admin/apis/" + Db.rows("SELECT api_id FROM apis WHERE identifier = ?",
                c.ledger()).get(0).get("api_id"), "{\"backend_client_id\":\"no-such-client\"}");
        assertEquals(400, unknownBackend.status(), unknownBackend::toString);
        assertEquals("invalid_request", unknownBackend.jsonString("error"), unknownBackend::toString);
    }
}
