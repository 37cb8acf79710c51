package dev.portcullis.authorize;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.portcullis.client.Client;
import dev.portcullis.client.TestClients;
import dev.portcullis.protocol.OAuthError;
import dev.portcullis.protocol.ProtocolParameters;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The order of the checks: step-1 failures win over everything, then the first failing step-2 rule. */
class AuthorizationRequestValidatorTest {

    private static final String CHALLENGE = "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM";

    /** No API registered: Portcullis's own only. */
    static final java.util.function.Supplier<dev.portcullis.api.ApiDirectory> NO_APIS =
            () -> new dev.portcullis.api.ApiDirectory("https://issuer.example/api", List.of());

    private final Client pub = TestClients.publicClient("openid profile", "https://spa.example.com/cb");

    private AuthorizationRequest validate(String query) {
        return AuthorizationRequestValidator.validate(ProtocolParameters.fromForm(query),
                id -> id.equals("pub-1") ? Optional.of(pub) : Optional.empty(), NO_APIS, "ES256");
    }

    private static final String VALID = "client_id=pub-1&response_type=code&scope=openid&state=s9"
            + "&redirect_uri=https%3A%2F%2Fspa.example.com%2Fcb&code_challenge=" + CHALLENGE
            + "&code_challenge_method=S256";

    @Test
    void resourcesAreCheckedAndTravelWithThePendingRequest() {
        AuthorizationRequest r = validate(VALID + "&resource=https%3A%2F%2Fissuer.example%2Fapi"
                + "&resource=https%3A%2F%2Fissuer.example%2Fapi");
        assertEquals(List.of("https://issuer.example/api"), r.resources());
        assertTrue(r.query().endsWith("&resource=https%3A%2F%2Fissuer.example%2Fapi"), r.query());
        assertEquals(r, validate(r.query()), "the pages validate the same request again from its query");
        assertEquals(List.of(), validate(VALID).resources());
    }

    @Test
    void anUnknownResourceIsInvalidTargetAtTheClientsRedirectUri() {
        RejectedAuthorizationRequest e = assertThrows(RejectedAuthorizationRequest.class,
                () -> validate(VALID + "&resource=https%3A%2F%2Fpayroll.corp.example"));
        assertEquals(OAuthError.INVALID_TARGET, e.error().error());
        assertEquals("s9", e.state());
        assertTrue(e.response("https://issuer.example").location().startsWith("https://spa.example.com/cb?error=invalid_target&"));
        assertThrows(UnverifiedRequestException.class, () -> validate(VALID.replace("spa.example.com", "evil.example")
                + "&resource=https%3A%2F%2Fpayroll.corp.example"), "an unverified redirect URI gets the error page");
    }

    @Test
    void withoutAResourceTheScopesOfTwoApisAreInvalidScopeAtTheClientsRedirectUri() {
        Client both = TestClients.publicClient("openid profile payroll.read", "https://spa.example.com/cb");
        java.util.function.Supplier<dev.portcullis.api.ApiDirectory> payroll = () ->
                new dev.portcullis.api.ApiDirectory("https://issuer.example/api", List.of(
                        new dev.portcullis.api.RegisteredApi("https://payroll.corp.example",
                                java.util.Set.of("payroll.read"), null)));
        java.util.function.Function<String, AuthorizationRequest> validate = query -> AuthorizationRequestValidator
                .validate(ProtocolParameters.fromForm(query), id -> Optional.of(both), payroll, "ES256");
        RejectedAuthorizationRequest e = assertThrows(RejectedAuthorizationRequest.class,
                () -> validate.apply(VALID.replace("scope=openid", "scope=openid+profile+payroll.read")));
        assertEquals(OAuthError.INVALID_SCOPE, e.error().error());
        assertEquals("s9", e.state());
        assertEquals(List.of(), validate.apply(VALID.replace("scope=openid", "scope=openid+payroll.read"))
                .resources(), "one API's scopes: that API");
        assertEquals(List.of("https://payroll.corp.example"), validate.apply(VALID.replace("scope=openid",
                "scope=openid+profile+payroll.read") + "&resource=https%3A%2F%2Fpayroll.corp.example").resources(),
                "named, the token is narrowed to the resource");
    }

    @Test
    void unregisteredRedirectWinsOverEveryOtherError() {
        assertThrows(UnverifiedRequestException.class,
                () -> validate("client_id=pub-1&redirect_uri=https%3A%2F%2Fevil.example%2Fcb&response_type=token"));
    }

    @Test
    void firstFailingRuleIsReportedWithStateAndTarget() {
        RejectedAuthorizationRequest e = assertThrows(RejectedAuthorizationRequest.class,
                () -> validate("client_id=pub-1&response_type=token&scope=bogus&state=s1"));
        assertEquals(OAuthError.UNSUPPORTED_RESPONSE_TYPE, e.error().error());
        assertEquals("s1", e.state());
        assertEquals("https://spa.example.com/cb", e.redirectUri());
        String location = e.response("https://issuer.example").location();
        assertTrue(location.startsWith("https://spa.example.com/cb?error=unsupported_response_type&"), location);
        assertTrue(location.contains("&state=s1&iss=https%3A%2F%2Fissuer.example"), location);
    }

    @Test
    void aDisabledClientIsToldSoAtItsRegisteredRedirectUri() {
        Client off = TestClients.disabledPublicClient("openid", "https://spa.example.com/cb");
        RejectedAuthorizationRequest e = assertThrows(RejectedAuthorizationRequest.class,
                () -> AuthorizationRequestValidator.validate(ProtocolParameters.fromForm("client_id=pub-1"
                        + "&response_type=code&scope=openid&state=s2&redirect_uri=https%3A%2F%2Fspa.example.com%2Fcb"
                        + "&code_challenge=" + CHALLENGE + "&code_challenge_method=S256"), id -> Optional.of(off), NO_APIS, "ES256"));
        assertEquals(OAuthError.UNAUTHORIZED_CLIENT, e.error().error());
        assertEquals("s2", e.state());
        assertThrows(UnverifiedRequestException.class, () -> AuthorizationRequestValidator.validate(
                ProtocolParameters.fromForm("client_id=pub-1&redirect_uri=https%3A%2F%2Fevil.example%2Fcb"),
                id -> Optional.of(off), NO_APIS, "ES256"), "an unregistered redirect URI still gets the error page");
    }

    @Test
    void aClientWithoutTheCodeGrantIsUnauthorizedAtItsRedirectUri() {
        Client service = TestClients.confidentialWithGrantTypes("api", List.of("client_credentials"),
                "https://service.example.com/cb");
        RejectedAuthorizationRequest e = assertThrows(RejectedAuthorizationRequest.class,
                () -> AuthorizationRequestValidator.validate(ProtocolParameters.fromForm("client_id=conf-1"
                        + "&response_type=code&scope=api&state=s3"), id -> Optional.of(service), NO_APIS, "ES256"));
        assertEquals(OAuthError.UNAUTHORIZED_CLIENT, e.error().error());
        assertEquals("s3", e.state());
        assertEquals("https://service.example.com/cb", e.redirectUri());
    }

    @Test
    void validRequestKeepsOnlyKnownParameters() {
        AuthorizationRequest r = validate("client_id=pub-1&response_type=code&scope=profile&state=s&foo=bar"
                + "&code_challenge=E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM&code_challenge_method=S256");
        assertFalse(r.redirectUriGiven());
        assertEquals("https://spa.example.com/cb", r.redirectUri());
        assertFalse(r.parameters().containsKey("foo"));
        assertEquals(r.parameters(), ProtocolParameters.fromForm(r.query()).asMap());
    }

    @Test
    void openIdRequestWithoutRedirectUriIsAnErrorPageEvenWithOneRegistered() {
        UnverifiedRequestException e = assertThrows(UnverifiedRequestException.class,
                () -> validate("client_id=pub-1&response_type=code&scope=openid&state=s&code_challenge=" + CHALLENGE
                        + "&code_challenge_method=S256"));
        assertEquals("error.redirectMissing", e.messageKey());
    }

    @Test
    void foreignRequestUrisGoBackToTheVerifiedClient() {
        String ok = "client_id=pub-1&redirect_uri=https%3A%2F%2Fspa.example.com%2Fcb&response_type=code&scope=openid"
                + "&state=s1&code_challenge=" + CHALLENGE + "&code_challenge_method=S256";
        RejectedAuthorizationRequest e = assertThrows(RejectedAuthorizationRequest.class,
                () -> validate(ok + "&request_uri=https%3A%2F%2Fspa.example.com%2Freq"));
        assertEquals(OAuthError.REQUEST_URI_NOT_SUPPORTED, e.error().error());
        // with an unverified redirect_uri there is nowhere to send it: error page
        assertThrows(UnverifiedRequestException.class, () -> validate(ok.replace("spa.example.com%2Fcb",
                "evil.example%2Fcb") + "&request_uri=https%3A%2F%2Fevil.example%2Freq"));
    }

    @Test
    void theResponseModeIsCarriedAndLaterErrorsTravelInIt() {
        assertEquals(ResponseMode.QUERY, validate(VALID).responseMode());
        AuthorizationRequest r = validate(VALID + "&response_mode=form_post");
        assertEquals(ResponseMode.FORM_POST, r.responseMode());
        assertEquals(r, validate(r.query()), "the pages see the same mode");
        assertEquals(ResponseMode.FRAGMENT, validate(VALID + "&response_mode=fragment").responseMode());
        RejectedAuthorizationRequest e = assertThrows(RejectedAuthorizationRequest.class,
                () -> validate(VALID.replace("scope=openid", "scope=bogus") + "&response_mode=form_post"));
        assertEquals(OAuthError.INVALID_SCOPE, e.error().error());
        assertEquals(ResponseMode.FORM_POST, e.response("https://issuer.example").mode());
    }

    @Test
    void anUnknownResponseModeIsInvalidRequestInTheQuery() {
        for (String mode : new String[] {"jwt", "query.jwt", "FORM_POST", "form_post "}) {
            RejectedAuthorizationRequest e = assertThrows(RejectedAuthorizationRequest.class,
                    () -> validate(VALID + "&response_mode=" + java.net.URLEncoder.encode(mode,
                            java.nio.charset.StandardCharsets.UTF_8)));
            assertEquals(OAuthError.INVALID_REQUEST, e.error().error(), mode);
            assertEquals(ResponseMode.QUERY, e.response("https://issuer.example").mode());
            assertEquals("s9", e.state());
        }
        assertThrows(UnverifiedRequestException.class, () -> validate(VALID.replace("spa.example.com", "evil.example")
                + "&response_mode=form_post"), "an unverified redirect URI gets the error page");
    }

    private AuthorizationRequest validate(String query, AuthorizationRequestValidator.PushRules rules) {
        return validate(query, rules, AuthorizationRequestValidator.ObjectRules.NONE);
    }

    private AuthorizationRequest validate(String query, AuthorizationRequestValidator.PushRules rules,
                                          AuthorizationRequestValidator.ObjectRules objects) {
        return AuthorizationRequestValidator.validate(ProtocolParameters.fromForm(query),
                id -> id.equals("pub-1") ? Optional.of(pub) : Optional.empty(), NO_APIS, "ES256", rules, objects);
    }

    /** pub-1 must push; its one redeemed request is under hash h1. */
    private static final AuthorizationRequestValidator.PushRules MUST_PUSH = new AuthorizationRequestValidator.PushRules(
            false, c -> true, (hash, clientId) -> hash.equals("h1") && clientId.equals("pub-1")
                    ? Optional.of(new PushedRequestRepository.Pending(VALID + "&response_mode=form_post", false))
                    : Optional.empty());

    @Test
    void aClientThatMustPushIsRefusedAPlainRequestAtItsRedirectUriAndMayPushIt() {
        RejectedAuthorizationRequest e = assertThrows(RejectedAuthorizationRequest.class,
                () -> validate(VALID, MUST_PUSH));
        assertEquals(OAuthError.INVALID_REQUEST, e.error().error());
        assertEquals("s9", e.state());
        AuthorizationRequestValidator.PushRules pushing = new AuthorizationRequestValidator.PushRules(true,
                MUST_PUSH.mustPush(), MUST_PUSH.pending());
        assertEquals("s9", validate(VALID, pushing).state(), "a pushed request meets the requirement");
        assertEquals("s9", validate(VALID).state(), "a client that need not push is not asked to");
    }

    @Test
    void aRedeemedPushedRequestIsItsStoredParametersCarriedByItsHash() {
        AuthorizationRequest r = validate("client_id=pub-1&pushed_request=h1&state=forged&scope=evil"
                + "&redirect_uri=https%3A%2F%2Fevil.example%2Fcb", MUST_PUSH);
        assertEquals("s9", r.state(), "only the stored parameters count");
        assertEquals("https://spa.example.com/cb", r.redirectUri());
        assertEquals(ResponseMode.FORM_POST, r.responseMode());
        assertTrue(r.pushed());
        assertEquals("client_id=pub-1&pushed_request=h1", r.query());
        assertEquals(r, validate(r.query(), MUST_PUSH), "the pages validate it again by its hash");

        UnverifiedRequestException unknown = assertThrows(UnverifiedRequestException.class,
                () -> validate("client_id=pub-1&pushed_request=h2", MUST_PUSH));
        assertEquals("error.requestUriInvalid", unknown.messageKey());
        assertThrows(UnverifiedRequestException.class, () -> validate("client_id=other&pushed_request=h1", MUST_PUSH));
        assertThrows(RejectedAuthorizationRequest.class, () -> validate("client_id=pub-1&pushed_request=h1",
                new AuthorizationRequestValidator.PushRules(true, c -> false, MUST_PUSH.pending())),
                "a push cannot name a pushed request: it is checked as it stands");
    }

    // ---------------- request objects (RFC 9101) ----------------

    /** The object "good" verifies to VALID with state s-object and jti j1; any other is invalid_request_object. */
    private static AuthorizationRequestValidator.ObjectRules objects(boolean mustSign) {
        return new AuthorizationRequestValidator.ObjectRules(false, c -> mustSign, (client, object) -> {
            if (!object.equals("good")) {
                throw new dev.portcullis.protocol.OAuthException(OAuthError.INVALID_REQUEST_OBJECT, "bad signature");
            }
            return new RequestObject(ProtocolParameters.fromForm(VALID.replace("state=s9", "state=s-object")), "j1",
                    java.time.Instant.EPOCH);
        });
    }

    @Test
    void aRequestObjectsParametersAreTheRequestWhateverTheQuerySays() {
        AuthorizationRequest r = validate("client_id=pub-1&request=good&state=forged&scope=evil&response_mode=fragment",
                AuthorizationRequestValidator.PushRules.NONE, objects(false));
        assertEquals("s-object", r.state());
        assertEquals(java.util.Set.of("openid"), r.scopes());
        assertEquals(ResponseMode.QUERY, r.responseMode());
        assertEquals("j1", r.requestObject().jti(), "the object travels to the endpoint, which uses it up");
        assertEquals(null, validate(VALID, AuthorizationRequestValidator.PushRules.NONE, objects(false))
                .requestObject());
    }

    @Test
    void anObjectThatFailsGoesToTheQuerysRegisteredRedirectUriOrTheErrorPage() {
        RejectedAuthorizationRequest e = assertThrows(RejectedAuthorizationRequest.class, () -> validate(
                "client_id=pub-1&request=forged&state=q1&redirect_uri=https%3A%2F%2Fspa.example.com%2Fcb",
                AuthorizationRequestValidator.PushRules.NONE, objects(false)));
        assertEquals(OAuthError.INVALID_REQUEST_OBJECT, e.error().error());
        assertEquals("q1", e.state());
        assertEquals("https://spa.example.com/cb", e.redirectUri());
        assertEquals("https://spa.example.com/cb", assertThrows(RejectedAuthorizationRequest.class, () -> validate(
                "client_id=pub-1&request=forged", AuthorizationRequestValidator.PushRules.NONE, objects(false)))
                .redirectUri(), "the client's only redirect URI");
        assertThrows(UnverifiedRequestException.class, () -> validate(
                "client_id=pub-1&request=forged&redirect_uri=https%3A%2F%2Fevil.example%2Fcb",
                AuthorizationRequestValidator.PushRules.NONE, objects(false)), "an unregistered one: the error page");
        assertThrows(UnverifiedRequestException.class, () -> validate("client_id=nobody&request=good",
                AuthorizationRequestValidator.PushRules.NONE, objects(false)));
    }

    @Test
    void aClientThatMustSignIsRefusedEveryUnsignedRequestAtItsRedirectUri() {
        RejectedAuthorizationRequest e = assertThrows(RejectedAuthorizationRequest.class,
                () -> validate(VALID, AuthorizationRequestValidator.PushRules.NONE, objects(true)));
        assertEquals(OAuthError.INVALID_REQUEST, e.error().error());
        assertEquals("s9", e.state());
        assertEquals("s-object", validate("client_id=pub-1&request=good", AuthorizationRequestValidator.PushRules.NONE,
                objects(true)).state());
        // a stored request counts as signed only when it came as an object
        AuthorizationRequestValidator.PushRules stored = new AuthorizationRequestValidator.PushRules(false, c -> false,
                (hash, clientId) -> Optional.of(new PushedRequestRepository.Pending(VALID, hash.equals("signed"))));
        assertEquals("s9", validate("client_id=pub-1&pushed_request=signed", stored, objects(true)).state());
        assertEquals(OAuthError.INVALID_REQUEST, assertThrows(RejectedAuthorizationRequest.class,
                () -> validate("client_id=pub-1&pushed_request=plain", stored, objects(true))).error().error());
    }

    @Test
    void aClientThatMustPushCannotSendAnObjectByValue() {
        assertEquals(OAuthError.INVALID_REQUEST, assertThrows(RejectedAuthorizationRequest.class,
                () -> validate("client_id=pub-1&request=good", MUST_PUSH, objects(false))).error().error());
        AuthorizationRequestValidator.PushRules pushing = new AuthorizationRequestValidator.PushRules(true,
                MUST_PUSH.mustPush(), MUST_PUSH.pending());
        assertEquals("s-object", validate("client_id=pub-1&request=good", pushing, objects(false)).state());
    }
}
