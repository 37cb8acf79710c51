package dev.portcullis.account;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jwt.SignedJWT;
import com.nimbusds.oauth2.sdk.id.ClientID;
import com.nimbusds.oauth2.sdk.id.Issuer;
import com.nimbusds.openid.connect.sdk.Nonce;
import com.nimbusds.openid.connect.sdk.claims.IDTokenClaimsSet;
import com.nimbusds.openid.connect.sdk.claims.Address;
import com.nimbusds.openid.connect.sdk.claims.UserInfo;
import com.nimbusds.openid.connect.sdk.op.OIDCProviderMetadata;
import com.nimbusds.openid.connect.sdk.validators.IDTokenValidator;
import dev.portcullis.testing.Admin;
import dev.portcullis.testing.Db;
import dev.portcullis.testing.Http;
import dev.portcullis.testing.ServerTestBase;
import dev.portcullis.testing.UserAgent;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The OIDC Core 5.1 standard claims over HTTP: set, merged and removed through the admin API (each refusal by class
 * of input changing nothing), refused where the directory owns them, listed in discovery, and released by scope at
 * userinfo as a relying party's library (Nimbus OIDC SDK) reads them.
 */
class StandardClaimsIT extends ServerTestBase {

    private static final String PASSWORD = "correct horse battery";
    private static final String REDIRECT = "https://claims.example.com/cb";
    private static final String ALL_CLAIMS = "\"given_name\":\"Ada\",\"family_name\":\"Lovelace\","
            + "\"middle_name\":\"Augusta\",\"nickname\":\"ada\",\"picture\":\"https://example.com/ada.png\","
            + "\"website\":\"https://ada.example.com/\",\"gender\":\"female\",\"birthdate\":\"1815-12-10\","
            + "\"zoneinfo\":\"Europe/London\",\"locale\":\"en-GB\",\"phone_number\":\"+442071838750\","
            + "\"phone_number_verified\":true,\"address\":{\"formatted\":\"12 St James's Square\\nLondon\","
            + "\"street_address\":\"12 St James's Square\",\"locality\":\"London\",\"postal_code\":\"SW1Y 4LB\","
            + "\"country\":\"GB\"}";

    private final Admin admin = admin();
    private final Http http = http();

    private Admin.TestUser userWith(String claimsJson) {
        String username = "sc" + Long.toHexString(System.nanoTime());
        Http.Res r = admin.post("/admin/users", "{\"username\":" + Http.q(username) + ",\"password\":"
                + Http.q(PASSWORD) + ",\"email\":\"ada@example.com\"," + claimsJson + "}");
        assertEquals(201, r.status(), r::toString);
        return new Admin.TestUser(username, PASSWORD, r.jsonString("user_id"));
    }

    @Test
    void claimsAreCreatedShownMergedAndRemovedByNull() {
        Admin.TestUser u = userWith(ALL_CLAIMS);
        Map<String, Object> shown = admin.get("/admin/users/" + u.username()).json();
        assertEquals("Augusta", shown.get("middle_name"));
        assertEquals("Europe/London", shown.get("zoneinfo"));
        assertEquals(true, shown.get("phone_number_verified"));
        assertEquals(Map.of("formatted", "12 St James's Square\nLondon", "street_address", "12 St James's Square",
                "locality", "London", "postal_code", "SW1Y 4LB", "country", "GB"), shown.get("address"));
        assertTrue(shown.get("updated_at") instanceof Number, shown::toString);

        Http.Res merged = admin.patch("/admin/users/" + u.username(),
                "{\"nickname\":null,\"locale\":\"de-DE\",\"address\":{\"locality\":\"Bath\",\"formatted\":null}}");
        assertEquals(200, merged.status(), merged::toString);
        assertFalse(merged.json().containsKey("nickname"));
        assertEquals("de-DE", merged.json().get("locale"));
        assertEquals(Map.of("street_address", "12 St James's Square", "locality", "Bath", "postal_code", "SW1Y 4LB",
                "country", "GB"), merged.json().get("address"), "address merges member by member");
        assertEquals("Ada", merged.json().get("given_name"), "absent: left as it is");
        assertEquals(1, Db.count("SELECT COUNT(*) FROM audit_events WHERE event_type = 'USER_UPDATED' AND subject = ? "
                + "AND detail LIKE '%address%' AND detail LIKE '%locale%' AND detail LIKE '%nickname%' "
                + "AND detail NOT LIKE '%Bath%'", u.username()), "the change names the claims, not their values");

        Http.Res removed = admin.patch("/admin/users/" + u.username(), "{\"address\":null,\"phone_number\":null,"
                + "\"phone_number_verified\":false}");
        assertEquals(200, removed.status(), removed::toString);
        assertFalse(removed.json().containsKey("address"));
        assertFalse(removed.json().containsKey("phone_number"));
        Map<String, Object> row = Db.rows("SELECT * FROM users WHERE user_id = ?", u.userId()).get(0);
        assertNull(row.get("address_street"));
        assertNull(row.get("address_country"));
        assertEquals(false, row.get("phone_number_verified"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"{\"picture\":\"javascript:alert(1)\"}", "{\"website\":\"ftp://example.com/\"}",
        "{\"birthdate\":\"1815-02-30\"}", "{\"birthdate\":\"10 Dec 1815\"}", "{\"zoneinfo\":\"Mars/Olympus\"}",
        "{\"locale\":\"en_GB\"}", "{\"phone_number\":\"020 7183 8750\"}", "{\"given_name\":\"LONG\"}",
        "{\"nickname\":\"two\\nlines\"}", "{\"gender\":\"  \"}", "{\"given_name\":7}",
        "{\"phone_number_verified\":\"yes\"}", "{\"phone_number_verified\":null}", "{\"address\":\"London\"}",
        "{\"address\":{\"planet\":\"Earth\"}}", "{\"address\":{\"locality\":\"two\\nlines\"}}",
        "{\"address\":{\"country\":[\"GB\"]}}", "{\"given_name\":\"Grace\",\"profile\":\"x\"}"})
    void invalidClaimsAnswer400AndChangeNothing(String template) {
        Admin.TestUser u = userWith(ALL_CLAIMS);
        String body = template.replace("LONG", "x".repeat(201));
        Map<String, Object> before = Db.rows("SELECT * FROM users WHERE user_id = ?", u.userId()).get(0);
        Http.Res r = admin.patch("/admin/users/" + u.username(), body);
        assertEquals(400, r.status(), r::toString);
        assertEquals("invalid_request", r.jsonString("error"));
        assertEquals(before, Db.rows("SELECT * FROM users WHERE user_id = ?", u.userId()).get(0));
        Http.Res created = admin.post("/admin/users", "{\"username\":\"n" + Long.toHexString(System.nanoTime())
                + "\",\"password\":" + Http.q(PASSWORD) + "," + body.substring(1));
        assertEquals(400, created.status(), created::toString);
    }

    @Test
    void aDirectoryUsersNamesAreTheDirectorysButItsOtherClaimsAreSet() {
        String id = "dir-" + Long.toHexString(System.nanoTime());
        String username = "d" + Long.toHexString(System.nanoTime());
        Db.update("INSERT INTO users (user_id, username, source, directory_dn, given_name, created_at, updated_at) "
                + "VALUES (?, ?, 'ldap', ?, 'Dir', 0, 0)", id, username, "uid=" + username);
        for (String claim : List.of("given_name", "family_name")) {
            Http.Res r = admin.patch("/admin/users/" + username, "{\"" + claim + "\":\"Set\"}");
            assertEquals(400, r.status(), r::toString);
            assertEquals(claim + ": a directory user's " + claim + " is the directory's",
                    r.jsonString("error_description"));
        }
        Http.Res nickname = admin.patch("/admin/users/" + username, "{\"nickname\":\"dee\"}");
        assertEquals(200, nickname.status(), nickname::toString);
        assertEquals("Dir", nickname.json().get("given_name"));
    }

    @Test
    void discoveryListsTheAddressAndPhoneScopesAndTheirClaims() throws Exception {
        OIDCProviderMetadata meta = OIDCProviderMetadata.resolve(new Issuer(BASE));
        List<String> scopes = meta.getScopes().toStringList();
        assertTrue(scopes.containsAll(List.of("openid", "profile", "email", "address", "phone")), scopes::toString);
        assertTrue(meta.getClaims().containsAll(List.of("given_name", "middle_name", "nickname", "picture",
                "website", "gender", "birthdate", "zoneinfo", "locale", "updated_at", "phone_number",
                "phone_number_verified", "address", "email_verified")), meta.getClaims()::toString);
    }

    @Test
    void eachScopeReleasesItsClaimsAtUserinfo() throws Exception {
        Admin.TestClient app = admin.confidentialClient("openid profile email address phone", REDIRECT);
        Admin.TestUser u = userWith(ALL_CLAIMS);

        UserInfo all = userinfo(app, u, "openid profile email address phone");
        assertEquals("Ada", all.getGivenName());
        assertEquals("Lovelace", all.getFamilyName());
        assertEquals("Augusta", all.getMiddleName());
        assertEquals("ada", all.getNickname());
        assertEquals("https://example.com/ada.png", all.getPicture().toString());
        assertEquals("https://ada.example.com/", all.getWebsite().toString());
        assertEquals("female", all.getGender().getValue());
        assertEquals("1815-12-10", all.getBirthdate());
        assertEquals("Europe/London", all.getZoneinfo());
        assertEquals("en-GB", all.getLocale());
        assertTrue(all.getUpdatedTime() != null);
        assertEquals("ada@example.com", all.getEmailAddress());
        assertEquals(false, all.getEmailVerified());
        assertEquals("+442071838750", all.getPhoneNumber());
        assertEquals(true, all.getPhoneNumberVerified());
        Address address = all.getAddress();
        assertEquals("12 St James's Square\nLondon", address.getFormatted());
        assertEquals("London", address.getLocality());
        assertEquals("SW1Y 4LB", address.getPostalCode());
        assertEquals("GB", address.getCountry());
        assertNull(address.getRegion(), "a member the user does not have is absent");

        UserInfo phoneOnly = userinfo(app, u, "openid phone");
        assertEquals("+442071838750", phoneOnly.getPhoneNumber());
        assertNull(phoneOnly.getGivenName());
        assertNull(phoneOnly.getAddress());
        assertNull(phoneOnly.getEmailAddress());

        UserInfo addressOnly = userinfo(app, u, "openid address");
        assertEquals("London", addressOnly.getAddress().getLocality());
        assertNull(addressOnly.getPhoneNumber());
        assertNull(addressOnly.getPreferredUsername());

        Admin.TestUser bare = admin.user(PASSWORD);
        UserInfo none = userinfo(app, bare, "openid profile address phone");
        assertEquals(bare.username(), none.getPreferredUsername());
        assertNull(none.getAddress(), "a user without an address has no address claim");
        assertNull(none.getPhoneNumber());
        assertNull(none.getPhoneNumberVerified(), "no number: no verified flag either");
        assertNull(none.getGivenName());
    }

    @Test
    void theClaimsParameterReleasesClaimsOneByOneWhereAsked() throws Exception {
        Admin.TestClient app = admin.confidentialClient("openid profile email address phone", REDIRECT);
        Admin.TestUser u = userWith(ALL_CLAIMS);
        String claims = "{\"userinfo\":{\"nickname\":{\"essential\":true},\"address\":null,\"email\":null,"
                + "\"no_such_claim\":{\"essential\":true}},\"id_token\":{\"given_name\":null,"
                + "\"locale\":{\"value\":\"fr-FR\"},\"phone_number\":{\"values\":[\"+442071838750\"]},"
                + "\"auth_time\":{\"essential\":true}},\"extension\":{\"ignored\":true}}";
        String nonce = "n-" + Long.toHexString(System.nanoTime());
        UserAgent ua = new UserAgent(BASE);
        Http.Res consent = ua.follow(ua.signIn(ua.follow(ua.authorize(Map.of("client_id", app.clientId(),
                "redirect_uri", REDIRECT, "response_type", "code", "scope", "openid", "nonce", nonce, "claims",
                claims))), u.username(), PASSWORD));
        assertEquals(200, consent.status(), consent::toString);
        // an unknown claim is no detail to show; auth_time is no detail about the user
        assertTrue(consent.body().contains("<li>See these details too: nickname, address, email, given_name, locale, "
                + "phone_number</li>"), consent::body);
        Map<String, String> redirect = Http.query(ua.consent(consent, true).header("Location"));
        Http.Res token = http.postJson("/oauth/token", app.codeExchangeJson(redirect.get("code")));
        assertEquals(200, token.status(), token::toString);

        IDTokenClaimsSet id = validated(app, token.jsonString("id_token"), nonce);
        assertEquals("Ada", id.getStringClaim("given_name"));
        assertEquals("+442071838750", id.getStringClaim("phone_number"));
        assertNull(id.getStringClaim("locale"), "asked only with another value");
        assertNull(id.getStringClaim("nickname"), "asked at userinfo, not in the ID token");
        assertTrue(id.getAuthenticationTime() != null);
        assertNull(id.getClaim("no_such_claim"));

        UserInfo info = UserInfo.parse(http.get("/oauth/userinfo", "Authorization", "Bearer "
                + token.jsonString("access_token")).body());
        assertEquals("ada", info.getNickname());
        assertEquals("London", info.getAddress().getLocality());
        assertEquals("ada@example.com", info.getEmailAddress());
        assertNull(info.getGivenName(), "asked in the ID token only, and no profile scope");
        assertNull(info.getEmailVerified(), "not asked and no email scope");
        assertNull(info.getClaim("no_such_claim"));
        assertTrue(Db.rows("SELECT claims FROM token_grants WHERE user_id = ?", u.userId()).get(0).get("claims")
                .toString().contains("nickname"), "the grant carries the request");

        Http.Res refreshed = http.postForm("/oauth/token", Map.of("grant_type", "refresh_token", "refresh_token",
                token.jsonString("refresh_token"), "client_id", app.clientId(), "client_secret", app.secret()));
        assertEquals(200, refreshed.status(), refreshed::toString);
        IDTokenClaimsSet again = IDTokenClaimsSet.parse(SignedJWT.parse(refreshed.jsonString("id_token"))
                .getJWTClaimsSet().toString());
        assertEquals("Ada", again.getStringClaim("given_name"), "a refreshed ID token follows the same request");
    }

    @Test
    void claimsBeyondTheScopesAreAskedEveryTimeButScopesAloneAreRemembered() {
        Admin.TestClient app = admin.confidentialClient("openid profile", REDIRECT);
        Admin.TestUser u = userWith(ALL_CLAIMS);
        UserAgent ua = new UserAgent(BASE);
        assertTrue(ua.authorizeAndGetRedirectParams(app, u, Map.of("scope", "openid profile")).containsKey("code"));
        Http.Res remembered = ua.authorize(Map.of("client_id", app.clientId(), "redirect_uri", REDIRECT,
                "response_type", "code", "scope", "openid profile", "claims",
                "{\"userinfo\":{\"nickname\":null}}"));
        assertTrue(remembered.header("Location").startsWith(REDIRECT), "profile covers nickname: no question");
        Http.Res asked = ua.authorize(Map.of("client_id", app.clientId(), "redirect_uri", REDIRECT,
                "response_type", "code", "scope", "openid profile", "claims",
                "{\"userinfo\":{\"phone_number\":null}}"));
        assertTrue(asked.header("Location").contains("/consent.xhtml"), asked::toString);
        Http.Res none = ua.authorize(Map.of("client_id", app.clientId(), "redirect_uri", REDIRECT,
                "response_type", "code", "scope", "openid profile", "prompt", "none", "claims",
                "{\"userinfo\":{\"phone_number\":null}}"));
        assertEquals("consent_required", Http.query(none.header("Location")).get("error"));
    }

    @Test
    void aSubValueForAnotherUserGetsNoPositiveAnswer() {
        Admin.TestClient app = admin.confidentialClient("openid", REDIRECT);
        Admin.TestUser u = userWith(ALL_CLAIMS);
        Map<String, String> other = new UserAgent(BASE).authorizeAndGetRedirectParams(app, u, Map.of("claims",
                "{\"id_token\":{\"sub\":{\"value\":\"someone-else\"}}}"));
        assertEquals("access_denied", other.get("error"), other::toString);
        assertNull(other.get("code"));
        Map<String, String> same = new UserAgent(BASE).authorizeAndGetRedirectParams(app, u, Map.of("claims",
                "{\"id_token\":{\"sub\":{\"value\":\"" + u.userId() + "\",\"essential\":true}}}"));
        assertTrue(same.containsKey("code"), same::toString);
    }

    @ParameterizedTest
    @ValueSource(strings = {"{", "[]", "\"name\"", "{\"userinfo\":[\"name\"]}", "{\"id_token\":{\"name\":1}}",
        "{\"userinfo\":{\"name\":{\"essential\":\"yes\"}}}", "{\"id_token\":{\"name\":{\"values\":\"a\"}}}"})
    void aMalformedClaimsParameterIsInvalidRequestAtTheClient(String claims) {
        Admin.TestClient app = admin.confidentialClient("openid", REDIRECT);
        Http.Res r = new UserAgent(BASE).authorize(Map.of("client_id", app.clientId(), "redirect_uri", REDIRECT,
                "response_type", "code", "scope", "openid", "state", "s1", "claims", claims));
        assertEquals(302, r.status(), r::toString);
        Map<String, String> p = Http.query(r.header("Location"));
        assertEquals("invalid_request", p.get("error"), p::toString);
        assertEquals("s1", p.get("state"));
    }

    @Test
    void anIdTokenCarriesIdentityAndSessionClaimsOnlyUnlessTheClientWantsTheScopesClaims() throws Exception {
        Admin.TestClient app = admin.confidentialClient("openid profile email address phone", REDIRECT);
        Admin.TestUser u = userWith(ALL_CLAIMS);
        assertEquals(false, admin.get("/admin/clients/" + app.clientId()).json().get("id_token_claims"));
        String scope = "openid profile email address phone";

        IDTokenClaimsSet minimal = idToken(app, u, scope);
        assertEquals(u.userId(), minimal.getSubject().getValue());
        assertTrue(minimal.getAuthenticationTime() != null);
        assertTrue(minimal.getClaim("sid") != null);
        assertTrue(minimal.getClaim("amr") != null);
        for (String claim : List.of("preferred_username", "name", "given_name", "email", "email_verified", "address",
                "phone_number", "locale", "updated_at")) {
            assertNull(minimal.getClaim(claim), claim + " is at userinfo, not in the ID token");
        }

        Http.Res wanted = admin.patch("/admin/clients/" + app.clientId(), "{\"id_token_claims\":true}");
        assertEquals(200, wanted.status(), wanted::toString);
        assertEquals(true, wanted.json().get("id_token_claims"));
        assertEquals(1, Db.count("SELECT COUNT(*) FROM audit_events WHERE event_type = 'CLIENT_UPDATED' "
                + "AND client_id = ? AND detail LIKE '%id_token_claims%'", app.clientId()));
        IDTokenClaimsSet whole = idToken(app, u, scope);
        assertEquals("Ada", whole.getStringClaim("given_name"));
        assertEquals(u.username(), whole.getStringClaim("preferred_username"));
        assertEquals("ada@example.com", whole.getStringClaim("email"));
        assertEquals("+442071838750", whole.getStringClaim("phone_number"));
        assertEquals("London", ((Map<?, ?>) whole.getClaim("address")).get("locality"));
        assertNull(idToken(app, u, "openid").getClaim("given_name"), "still only what the scopes release");

        Http.Res refused = admin.patch("/admin/clients/" + app.clientId(), "{\"id_token_claims\":null}");
        assertEquals(400, refused.status(), refused::toString);
        Http.Res wrongType = admin.patch("/admin/clients/" + app.clientId(), "{\"id_token_claims\":\"yes\"}");
        assertEquals(400, wrongType.status(), wrongType::toString);
        Http.Res registered = admin.post("/admin/clients", "{\"client_name\":\"Reads the ID token\",\"redirect_uris\":"
                + "[\"" + REDIRECT + "\"],\"scopes\":\"openid profile\",\"id_token_claims\":true}");
        assertEquals(201, registered.status(), registered::toString);
        assertEquals(true, registered.json().get("id_token_claims"));
    }

    private IDTokenClaimsSet idToken(Admin.TestClient app, Admin.TestUser u, String scope) throws Exception {
        String nonce = "n-" + Long.toHexString(System.nanoTime());
        Map<String, String> redirect = new UserAgent(BASE).authorizeAndGetRedirectParams(app, u,
                Map.of("scope", scope, "nonce", nonce));
        Http.Res token = http.postJson("/oauth/token", app.codeExchangeJson(redirect.get("code")));
        assertEquals(200, token.status(), token::toString);
        return validated(app, token.jsonString("id_token"), nonce);
    }

    @Test
    void discoverySaysTheClaimsParameterIsSupported() throws Exception {
        assertTrue(OIDCProviderMetadata.resolve(new Issuer(BASE)).supportsClaimsParam());
    }

    private IDTokenClaimsSet validated(Admin.TestClient app, String idToken, String nonce) throws Exception {
        OIDCProviderMetadata meta = OIDCProviderMetadata.resolve(new Issuer(BASE));
        IDTokenValidator validator = new IDTokenValidator(meta.getIssuer(), new ClientID(app.clientId()),
                JWSAlgorithm.RS256, meta.getJWKSetURI().toURL());
        return validator.validate(SignedJWT.parse(idToken), new Nonce(nonce));
    }

    /** The code flow through sign-in and consent, then userinfo parsed as a relying party's library does. */
    private UserInfo userinfo(Admin.TestClient app, Admin.TestUser u, String scope) throws Exception {
        Map<String, String> redirect = new UserAgent(BASE).authorizeAndGetRedirectParams(app, u,
                Map.of("scope", scope, "nonce", "n-" + Long.toHexString(System.nanoTime())));
        Http.Res token = http.postJson("/oauth/token", app.codeExchangeJson(redirect.get("code")));
        assertEquals(200, token.status(), token::toString);
        Http.Res info = http.get("/oauth/userinfo", "Authorization", "Bearer " + token.jsonString("access_token"));
        assertEquals(200, info.status(), info::toString);
        UserInfo parsed = UserInfo.parse(info.body());
        assertEquals(u.userId(), parsed.getSubject().getValue());
        return parsed;
    }
}
