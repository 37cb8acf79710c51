package dev.portcullis.token;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.portcullis.audit.AuditEvent;
import dev.portcullis.authorize.AuthorizationCode;
import dev.portcullis.authorize.TestCodes;
import dev.portcullis.client.Client;
import dev.portcullis.client.TestClients;
import dev.portcullis.protocol.OAuthError;
import dev.portcullis.protocol.OAuthException;
import dev.portcullis.protocol.ProtocolParameters;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The checks of grant_type=authorization_code, each on its own, without a server. */
class AuthorizationCodeGrantTest {

    private static final String CB = "https://app.example.com/cb";
    private static final String VERIFIER = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk";
    private static final String CHALLENGE = "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM";
    private static final Instant LATER = GrantFakes.NOW.plusSeconds(60);

    private final Client confidential = TestClients.confidential("openid profile", CB);
    private final Client publicClient = TestClients.publicClient("openid profile", "http://127.0.0.1/cb");

    private final GrantFakes.Codes codes = new GrantFakes.Codes();
    private final GrantFakes.Grants grants = new GrantFakes.Grants();
    private final GrantFakes.Issuer issuer = new GrantFakes.Issuer();
    private final GrantFakes.Audit audit = new GrantFakes.Audit();
    private final AuthorizationCodeGrant grant = new AuthorizationCodeGrant();
    private final GrantFakes.Apis apis = new GrantFakes.Apis();

    AuthorizationCodeGrantTest() {
        grant.codes = codes;
        grant.grants = grants;
        grant.issuer = issuer;
        grant.audit = audit;
        grant.clock = GrantFakes.CLOCK;
        grant.resourceIndicators = apis;
    }

    private static AuthorizationCode code(Client owner, String challenge) {
        return TestCodes.code(owner.clientId(), CB, true, challenge, LATER, false, null);
    }

    private TokenResponse exchange(Client client, String form) {
        return grant.handle(client, ProtocolParameters.fromForm("grant_type=authorization_code&" + form), "192.0.2.1", null);
    }

    private OAuthException refused(Client client, String form) {
        return assertThrows(OAuthException.class, () -> exchange(client, form));
    }

    @Test
    void grantTypeIsAuthorizationCode() {
        assertEquals("authorization_code", grant.grantType());
    }

    @Test
    void exchangeWhenEveryCheckPassesThenTokensIssued() {
        AuthorizationCode c = code(confidential, null);
        codes.with("c1", c);
        assertSame(GrantFakes.ISSUED, exchange(confidential, "code=c1&redirect_uri=" + CB));
        assertEquals(List.of(c), issuer.issuedFor);
    }

    @Test
    void exchangeWhenCodeUnknownThenInvalidGrant() {
        OAuthException e = refused(confidential, "code=nope&redirect_uri=" + CB);
        assertEquals(OAuthError.INVALID_GRANT, e.error());
        assertEquals("Unknown authorization code", e.description());
    }

    @Test
    void exchangeWhenCodeAlreadyRedeemedThenInvalidGrantAndItsTokensRevoked() {
        codes.with("c1", TestCodes.code(confidential.clientId(), CB, true, null, LATER, true, "grant-1"));
        OAuthException e = refused(confidential, "code=c1&redirect_uri=" + CB);
        assertEquals(OAuthError.INVALID_GRANT, e.error());
        assertTrue(e.description().contains("already used"), e.description());
        assertEquals(List.of("grant-1"), grants.revoked);
        assertEquals(List.of(AuditEvent.Type.CODE_REPLAYED), audit.failures);
        assertTrue(issuer.issuedFor.isEmpty());
    }

    @Test
    void exchangeWhenRedeemedCodePresentedByAnotherClientThenInvalidGrantAndNothingRevoked() {
        codes.with("c1", TestCodes.code("someone-else", CB, true, null, LATER, true, "grant-1"));
        OAuthException e = refused(confidential, "code=c1&redirect_uri=" + CB);
        assertEquals(OAuthError.INVALID_GRANT, e.error());
        assertTrue(e.description().contains("another client"), e.description());
        assertTrue(grants.revoked.isEmpty(), "another client cannot revoke the owner's grant");
        assertTrue(audit.failures.isEmpty());
    }

    @Test
    void exchangeWhenCodeIssuedToAnotherClientThenInvalidGrant() {
        codes.with("c1", TestCodes.code("someone-else", CB, true, null, LATER, false, null));
        OAuthException e = refused(confidential, "code=c1&redirect_uri=" + CB);
        assertEquals(OAuthError.INVALID_GRANT, e.error());
        assertTrue(e.description().contains("another client"), e.description());
        assertTrue(grants.revoked.isEmpty());
    }

    @Test
    void exchangeWhenCodeExpiredThenInvalidGrant() {
        codes.with("c1", TestCodes.code(confidential.clientId(), CB, true, null, GrantFakes.NOW, false, null));
        OAuthException e = refused(confidential, "code=c1&redirect_uri=" + CB);
        assertEquals(OAuthError.INVALID_GRANT, e.error());
        assertTrue(e.description().contains("expired"), e.description());
    }

    @Test
    void exchangeWhenRedirectUriMissingButAuthorizationRequestHadOneThenInvalidGrant() {
        codes.with("c1", code(confidential, null));
        OAuthException e = refused(confidential, "code=c1");
        assertEquals(OAuthError.INVALID_GRANT, e.error());
        assertTrue(e.description().contains("redirect_uri is required"), e.description());
    }

    @Test
    void exchangeWhenRedirectUriOmittedInBothRequestsThenTokensIssued() {
        codes.with("c1", TestCodes.code(confidential.clientId(), CB, false, null, LATER, false, null));
        assertSame(GrantFakes.ISSUED, exchange(confidential, "code=c1"));
    }

    @Test
    void exchangeWhenRedirectUriDiffersThenInvalidGrant() {
        codes.with("c1", code(confidential, null));
        for (String other : List.of(CB + "/", "https://app.example.com/CB", CB + "?x=1")) {
            OAuthException e = refused(confidential, "code=c1&redirect_uri=" + other);
            assertEquals(OAuthError.INVALID_GRANT, e.error());
            assertTrue(e.description().contains("does not match"), e.description());
        }
    }

    @Test
    void exchangeWhenRedirectUriSentButAuthorizationRequestOmittedItAndItDiffersThenInvalidGrant() {
        codes.with("c1", TestCodes.code(confidential.clientId(), CB, false, null, LATER, false, null));
        assertEquals(OAuthError.INVALID_GRANT, refused(confidential, "code=c1&redirect_uri=" + CB + "x").error());
    }

    @Test
    void exchangeWhenChallengedAndNoVerifierThenInvalidGrant() {
        codes.with("c1", code(confidential, CHALLENGE));
        OAuthException e = refused(confidential, "code=c1&redirect_uri=" + CB);
        assertEquals(OAuthError.INVALID_GRANT, e.error());
        assertTrue(e.description().contains("code_verifier is required"), e.description());
    }

    @Test
    void exchangeWhenVerifierDoesNotMatchThenInvalidGrant() {
        codes.with("c1", code(confidential, CHALLENGE));
        OAuthException e = refused(confidential, "code=c1&redirect_uri=" + CB + "&code_verifier=" + "a".repeat(43));
        assertEquals(OAuthError.INVALID_GRANT, e.error());
        assertTrue(e.description().contains("does not match the code_challenge"), e.description());
    }

    @Test
    void exchangeWhenVerifierSentForCodeWithoutChallengeThenInvalidGrant() {
        codes.with("c1", code(confidential, null));
        OAuthException e = refused(confidential, "code=c1&redirect_uri=" + CB + "&code_verifier=" + VERIFIER);
        assertEquals(OAuthError.INVALID_GRANT, e.error());
        assertTrue(e.description().contains("no code_challenge"), e.description());
    }

    @Test
    void exchangeWhenPublicClientWithoutPkceThenInvalidGrant() {
        codes.with("c1", code(publicClient, null));
        OAuthException e = refused(publicClient, "code=c1&redirect_uri=" + CB);
        assertEquals(OAuthError.INVALID_GRANT, e.error());
        assertEquals("Public clients must use PKCE", e.description());
    }

    @Test
    void exchangeWhenPublicClientSendsTheMatchingVerifierThenTokensIssued() {
        codes.with("c1", code(publicClient, CHALLENGE));
        assertSame(GrantFakes.ISSUED,
                exchange(publicClient, "code=c1&redirect_uri=" + CB + "&code_verifier=" + VERIFIER));
    }

    @Test
    void exchangeWhenVerifierMalformedThenInvalidRequestBeforeTheCodeIsLookedUp() {
        codes.with("c1", code(confidential, CHALLENGE));
        OAuthException e = refused(confidential, "code=c1&redirect_uri=" + CB + "&code_verifier=short");
        assertEquals(OAuthError.INVALID_REQUEST, e.error());
        assertEquals(0, codes.lookups);
    }

    @Test
    void exchangeWhenCodeMissingThenInvalidRequest() {
        assertEquals(OAuthError.INVALID_REQUEST, refused(confidential, "redirect_uri=" + CB).error());
    }

    @Test
    void exchangeWhenAParallelRequestRedeemedTheCodeFirstThenTreatedAsReplay() {
        codes.with("c1", code(confidential, null),
                TestCodes.code(confidential.clientId(), CB, true, null, LATER, true, "grant-2"));
        issuer.loseRace = true;
        OAuthException e = refused(confidential, "code=c1&redirect_uri=" + CB);
        assertEquals(OAuthError.INVALID_GRANT, e.error());
        assertTrue(e.description().contains("already used"), e.description());
        assertEquals(List.of("grant-2"), grants.revoked);
    }

    @Test
    void exchangeWhenTheCodeExpiredDuringRedemptionThenInvalidGrant() {
        codes.with("c1", code(confidential, null));
        issuer.loseRace = true;
        OAuthException e = refused(confidential, "code=c1&redirect_uri=" + CB);
        assertEquals(OAuthError.INVALID_GRANT, e.error());
        assertTrue(e.description().contains("expired"), e.description());
        assertTrue(grants.revoked.isEmpty());
    }
}
