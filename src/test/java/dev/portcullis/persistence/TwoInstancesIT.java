package dev.portcullis.persistence;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.nimbusds.jose.JWSObject;
import com.nimbusds.jose.crypto.RSASSAVerifier;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jwt.SignedJWT;
import dev.portcullis.testing.Admin;
import dev.portcullis.testing.Db;
import dev.portcullis.testing.Http;
import dev.portcullis.testing.ItEnvironment;
import dev.portcullis.testing.PayaraProcess;
import dev.portcullis.testing.TestKdc;
import dev.portcullis.testing.UserAgent;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The distributed setup: two Payara Micro instances with the same issuer on one PostgreSQL database, as behind a
 * load balancer without sticky sessions. One browser (one cookie jar) alternates between them: authorize at 1, sign-in
 * page from 2, credentials to 1, consent page from 2, consent to 1, token at 2, refresh at 1, userinfo at 2, revoke
 * at 1, refusal at 2, a client secret rotated at 1 and honoured at 2, logout confirmation from 1, confirmed at 2, and
 * 1 then knows no session. And Windows integrated sign-in on two instances without a directory: a Negotiate token is
 * used once across both, and only the home realm's principals are local users.
 */
@Tag("postgres-only")
class TwoInstancesIT {

    @Test
    void anyInstanceServesAnyStepOfTheFlow() throws Exception {
        int portOne = ItEnvironment.freePort();
        String issuer = "http://localhost:" + portOne;
        try (PayaraProcess one = PayaraProcess.start(portOne);
             PayaraProcess two = PayaraProcess.start("-Dportcullis.issuer=" + issuer)) {
            Admin admin = new Admin(one.http(), System.getProperty("portcullis.test.admin-token"));
            Admin.TestUser user = admin.user("two instances pass");
            Admin.TestClient client = admin.confidentialClient("openid profile", "https://rp.example.com/cb");

            UserAgent onOne = new UserAgent(one.base);
            UserAgent onTwo = onOne.sameBrowserAt(two.base); // one browser, one cookie jar, two instances

            // authorize at 1 -> the sign-in page from 2 -> credentials posted to 1
            Http.Res authorize = onOne.authorize(Map.of("client_id", client.clientId(), "redirect_uri", client.redirectUri(),
                    "response_type", "code", "scope", "openid profile", "state", "s1"));
            assertEquals(302, authorize.status(), authorize::toString);
            Http.Res loginPage = onTwo.get(path(authorize.header("Location")));
            assertEquals(200, loginPage.status(), loginPage::toString);
            assertTrue(loginPage.body().contains("id=\"login\""), loginPage::toString);
            Http.Res signedIn = onOne.signIn(loginPage, user.username(), user.password());
            assertEquals(303, signedIn.status(),
                    () -> "instance 1 accepts the form (and CSRF pair) instance 2 served: " + signedIn);

            // the consent page from 2 -> consent posted to 1
            Http.Res consentPage = onTwo.get(path(signedIn.header("Location")));
            assertEquals(200, consentPage.status(), consentPage::toString);
            assertTrue(consentPage.body().contains("id=\"consent\""), consentPage::toString);
            Http.Res approved = onOne.consent(consentPage, true);
            assertEquals(303, approved.status(), approved::toString);
            Map<String, String> redirect = Http.query(approved.header("Location"));
            assertTrue(approved.header("Location").startsWith(client.redirectUri()), approved::toString);
            assertEquals("s1", redirect.get("state"));
            assertEquals(issuer, redirect.get("iss"));
            String code = redirect.get("code");
            assertNotNull(code, redirect::toString);

            // redeem it at instance 2
            Http.Res tokens = two.http().postJson("/oauth/token", client.codeExchangeJson(code));
            assertEquals(200, tokens.status(), tokens::toString);

            // the ID token minted by instance 2 verifies against instance 1's JWKS: one key set
            JWSObject idToken = JWSObject.parse(tokens.jsonString("id_token"));
            JWKSet jwks = JWKSet.parse(one.http().get("/oauth/discovery/keys").body());
            RSAKey key = (RSAKey) jwks.getKeyByKeyId(idToken.getHeader().getKeyID());
            assertNotNull(key, "instance 2 signs with a key instance 1 publishes");
            assertEquals(true, idToken.verify(new RSASSAVerifier(key)));

            // the SSO session made through both instances is honoured by instance 2 (no sign-in page)
            Http.Res authorizeAtTwo = onTwo.authorize(Map.of("client_id", client.clientId(),
                    "redirect_uri", client.redirectUri(), "response_type", "code", "scope", "openid",
                    "state", "s2")); // a scope already consented to
            assertEquals(302, authorizeAtTwo.status(), authorizeAtTwo::toString);
            assertNotNull(Http.query(authorizeAtTwo.header("Location")).get("code"), authorizeAtTwo.header("Location"));

            // refresh at instance 1, userinfo at instance 2
            Http.Res refreshed = one.http().postJson("/oauth/token", "{\"grant_type\":\"refresh_token\","
                    + "\"refresh_token\":" + Http.q(tokens.jsonString("refresh_token")) + ",\"client_id\":"
                    + Http.q(client.clientId()) + ",\"client_secret\":" + Http.q(client.secret()) + "}");
            assertEquals(200, refreshed.status(), refreshed::toString);
            String accessToken = refreshed.jsonString("access_token");
            Http.Res userinfo = two.http().get("/oauth/userinfo", "Authorization", "Bearer " + accessToken);
            assertEquals(200, userinfo.status(), userinfo::toString);
            assertEquals(user.userId(), userinfo.jsonString("sub"));

            // revoke at instance 1 ...
            Http.Res revoked = one.http().postForm("/oauth/revoke", Map.of("token",
                    refreshed.jsonString("refresh_token"), "token_type_hint", "refresh_token",
                    "client_id", client.clientId(), "client_secret", client.secret()));
            assertEquals(200, revoked.status(), revoked::toString);

            // ... and instance 2 refuses the access token of that family at once
            Http.Res refused = two.http().get("/oauth/userinfo", "Authorization", "Bearer " + accessToken);
            assertEquals(401, refused.status(), refused::toString);
            assertEquals(true, refused.header("WWW-Authenticate").contains("invalid_token"));

            // a secret rotated at 1: instance 2 has the client in its cache from the requests above, yet takes the new
            // secret at once (a refusal re-reads the row) and stops taking the old one within the cache's bound
            Http.Res rotated = admin.post("/admin/clients/" + client.clientId() + "/secret", "");
            assertEquals(200, rotated.status(), rotated::toString);
            long rotatedAt = System.nanoTime();
            String newSecret = rotated.jsonString("client_secret");
            assertEquals(200, introspect(two, client.clientId(), newSecret, accessToken).status(),
                    "the new secret works on the other instance at once");
            int oldSecret;
            do {
                oldSecret = introspect(two, client.clientId(), client.secret(), accessToken).status();
            } while (oldSecret == 200 && System.nanoTime() - rotatedAt < TimeUnit.SECONDS.toNanos(10));
            long refusedAfterMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - rotatedAt);
            assertEquals(401, oldSecret, "the old secret stops working on the other instance");
            assertTrue(refusedAfterMs <= Jpa.CACHED_READ_MILLIS + 1000,
                    "the old secret stopped after " + refusedAfterMs + " ms, beyond the cache's bound");

            // logout: the confirmation page from 1 (no hint, so the user is asked), confirmed at 2 ...
            Http.Res confirm = onOne.get("/oauth/logout?client_id=" + Http.enc(client.clientId()));
            assertEquals(200, confirm.status(), confirm::toString);
            Http.Res signedOut = onTwo.http().postForm("/oauth/logout", UserAgent.formFields(confirm.body(), "logout"));
            assertEquals(200, signedOut.status(), signedOut::toString);
            assertTrue(signedOut.body().contains("id=\"signed-out\""), signedOut::toString);

            // ... and instance 1 no longer knows the session: the next authorize asks for the sign-in again
            Http.Res again = onOne.authorize(Map.of("client_id", client.clientId(), "redirect_uri",
                    client.redirectUri(), "response_type", "code", "scope", "openid", "state", "s3"));
            assertEquals(302, again.status(), again::toString);
            assertTrue(again.header("Location").contains("/login.xhtml"), again::toString);
        }
    }

    @Test
    void aNegotiateTokenSignsInOnOneInstanceOnlyAndOnlyTheHomeRealmHasLocalUsers() throws Exception {
        try (TestKdc kdc = TestKdc.start()) {
            // one name in three realms: the home realm's is a local user, the partners' are other people
            String name = "carol" + Long.toHexString(System.nanoTime());
            String password = "a kerberos password";
            for (String realm : List.of(TestKdc.REALM, TestKdc.PARTNER_REALM, TestKdc.OTHER_REALM)) {
                kdc.addUser(realm, name, password);
            }
            String[] kerberos = {"-Dportcullis.kerberos.keytab=" + kdc.keytab,
                "-Dportcullis.kerberos.principal=" + TestKdc.SERVICE, "-Dportcullis.kerberos.krb5-conf=" + kdc.krb5Conf,
                "-Dportcullis.kerberos.realms=" + TestKdc.REALM + " " + TestKdc.PARTNER_REALM};
            int portOne = ItEnvironment.freePort();
            String issuer = "http://localhost:" + portOne;
            List<String> twoSettings = new ArrayList<>(List.of(kerberos));
            twoSettings.add("-Dportcullis.issuer=" + issuer);
            try (PayaraProcess one = PayaraProcess.start(portOne, kerberos);
                 PayaraProcess two = PayaraProcess.start(twoSettings.toArray(String[]::new))) {
                Admin admin = new Admin(one.http(), System.getProperty("portcullis.test.admin-token"));
                Http.Res created = admin.post("/admin/users", "{\"username\":" + Http.q(name)
                        + ",\"password\":\"a local password 1\"}");
                assertEquals(201, created.status(), created::toString);
                Admin.TestClient client = admin.client(true, "openid", true, "https://rp.example.com/cb");
                Http.Res authorize = one.http().get("/oauth/authorize?" + Http.form(Map.of("client_id",
                        client.clientId(), "redirect_uri", client.redirectUri(), "response_type", "code", "scope",
                        "openid", "state", "k")));
                String loginPage = path(authorize.header("Location"));

                // the same token at both instances at once: one signs in, the other sees a replay
                String header = kdc.negotiateHeader(kdc.kinit(name, password), "localhost");
                CyclicBarrier together = new CyclicBarrier(2);
                ExecutorService pool = Executors.newFixedThreadPool(2);
                List<Http.Res> answers = new ArrayList<>();
                try {
                    for (Future<Http.Res> f : pool.invokeAll(List.of(one, two).stream().<Callable<Http.Res>>map(
                            instance -> () -> {
                                together.await(30, TimeUnit.SECONDS);
                                return instance.http().get(loginPage, "Authorization", header);
                            }).toList(), 120, TimeUnit.SECONDS)) {
                        answers.add(f.get());
                    }
                } finally {
                    pool.shutdownNow();
                }
                List<Integer> statuses = answers.stream().map(Http.Res::status).sorted().toList();
                assertEquals(List.of(303, 401), statuses, answers::toString);
                Http.Res signedIn = answers.stream().filter(r -> r.status() == 303).findFirst().orElseThrow();
                Http.Res replayed = answers.stream().filter(r -> r.status() == 401).findFirst().orElseThrow();
                assertEquals("Negotiate", replayed.header("WWW-Authenticate"), replayed::toString);
                assertFalse(String.valueOf(replayed.raw().headers().allValues("Set-Cookie"))
                        .contains("portcullis_session="), replayed::toString);
                // the winner signed in the local user of the home realm
                String code = Http.query(signedIn.header("Location")).get("code");
                Http.Res tokens = two.http().postJson("/oauth/token", client.codeExchangeJson(code));
                assertEquals(200, tokens.status(), tokens::toString);
                assertEquals(created.jsonString("user_id"), SignedJWT.parse(tokens.jsonString("id_token"))
                        .getJWTClaimsSet().getSubject());
                // and the token stays used on both
                for (PayaraProcess instance : List.of(one, two)) {
                    assertEquals(401, instance.http().get(loginPage, "Authorization", header).status());
                }

                // the partner realm's principal of the same name is not the local user, nor one of an unlisted realm
                Http.Res partner = one.http().get(loginPage, "Authorization",
                        kdc.negotiateHeader(kdc.kinit(TestKdc.PARTNER_REALM, name, password), "localhost"));
                assertEquals(200, partner.status(), partner::toString);
                assertTrue(partner.body().contains("Your Windows sign-in is not accepted"), partner::body);
                Http.Res other = two.http().get(loginPage, "Authorization",
                        kdc.negotiateHeader(kdc.kinit(TestKdc.OTHER_REALM, name, password), "localhost"));
                assertEquals(200, other.status(), other::toString);
                assertTrue(other.body().contains("Your Windows sign-in is not accepted"), other::body);
                assertEquals(1, Db.count("SELECT COUNT(*) FROM audit_events WHERE detail = ?", "kerberos: principal "
                        + name + "@" + TestKdc.PARTNER_REALM + " is not of the home realm " + TestKdc.REALM
                        + ", the only realm of local users"));
                assertEquals(1, Db.count("SELECT COUNT(*) FROM audit_events WHERE detail = ?", "kerberos: principal "
                        + name + "@" + TestKdc.OTHER_REALM + " is not of an accepted realm"));
            }
        }
    }

    /** RFC 7662 introspection of {@code token} at {@code server}, authenticated with this client id and secret. */
    private static Http.Res introspect(PayaraProcess server, String clientId, String secret, String token) {
        return server.http().postForm("/oauth/introspect", Map.of("token", token, "client_id", clientId,
                "client_secret", secret));
    }

    /** The path and query of a URL of either instance (both write the first instance's issuer into redirects). */
    private static String path(String url) {
        URI u = URI.create(url);
        return u.getRawPath() + (u.getRawQuery() == null ? "" : "?" + u.getRawQuery());
    }
}
