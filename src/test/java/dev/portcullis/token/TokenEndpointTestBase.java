package dev.portcullis.token;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import com.nimbusds.oauth2.sdk.id.Issuer;
import com.nimbusds.openid.connect.sdk.op.OIDCProviderMetadata;
import dev.portcullis.testing.Admin;
import dev.portcullis.testing.CodeFixture;
import dev.portcullis.testing.Db;
import dev.portcullis.testing.Http;
import dev.portcullis.testing.ServerTestBase;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;

/**
 * Base of the token endpoint's integration tests (and of those that need its tokens): a confidential client, a public
 * client and a user for the class, codes issued to them directly ({@link CodeFixture}), both clients' JSON token
 * requests, the refresh request, and the checks of the endpoint's answers and of the rows behind a token.
 */
public abstract class TokenEndpointTestBase extends ServerTestBase {

    protected static final String REDIRECT = "https://app.example.com/cb";
    protected static final String SPA_REDIRECT = "https://spa.example.com/cb";
    protected static final String VERIFIER = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk";
    protected static final String CHALLENGE = "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM";
    protected static final Set<String> TOKEN_RESPONSE_FIELDS =
            Set.of("access_token", "token_type", "expires_in", "refresh_token", "scope", "created_at");

    protected final Http http = http();
    protected final Admin admin = admin();

    protected static Admin.TestClient confidential;
    protected static Admin.TestClient publicClient;
    protected static Admin.TestUser user;

    /** Each class its own clients and user (the fields are shared by every subclass in the test JVM). */
    @BeforeAll
    static void newFixturesForThisClass() {
        confidential = null;
        publicClient = null;
        user = null;
    }

    protected synchronized void fixtures() {
        if (confidential == null) {
            confidential = admin.confidentialClient("openid profile email read_user api", REDIRECT);
            publicClient = admin.publicClient("openid profile read_user", SPA_REDIRECT);
            user = admin.user("correct horse battery");
        }
    }

    protected String confidentialCode(String scope, String nonce) {
        fixtures();
        return CodeFixture.issue(confidential.clientId(), user.userId(), REDIRECT, scope, nonce, null);
    }

    protected String publicCode(String scope) {
        fixtures();
        return CodeFixture.issue(publicClient.clientId(), user.userId(), SPA_REDIRECT, scope, null, CHALLENGE);
    }

    /** The confidential client's JSON token request, secret in the body. */
    protected Http.Res confidentialJsonRequest(String code) {
        return http.postJson("/oauth/token", "{\"client_id\":" + Http.q(confidential.clientId())
                + ",\"client_secret\":" + Http.q(confidential.secret()) + ",\"code\":" + Http.q(code)
                + ",\"grant_type\":\"authorization_code\",\"redirect_uri\":" + Http.q(REDIRECT) + "}");
    }

    /** The public client's JSON token request, PKCE verifier, no secret. */
    protected Http.Res publicJsonRequest(String code, String verifier) {
        return http.postJson("/oauth/token", "{\"client_id\":" + Http.q(publicClient.clientId())
                + ",\"code_verifier\":" + Http.q(verifier) + ",\"code\":" + Http.q(code)
                + ",\"grant_type\":\"authorization_code\",\"redirect_uri\":" + Http.q(SPA_REDIRECT) + "}");
    }

    protected Http.Res form(Map<String, String> params, String... headers) {
        return http.postForm("/oauth/token", params, headers);
    }

    protected Http.Res refresh(Admin.TestClient client, String refreshToken, String scope) {
        Map<String, String> p = new LinkedHashMap<>();
        p.put("grant_type", "refresh_token");
        p.put("refresh_token", refreshToken);
        p.put("client_id", client.clientId());
        if (client.secret() != null) {
            p.put("client_secret", client.secret());
        }
        if (scope != null) {
            p.put("scope", scope);
        }
        return form(p);
    }

    protected static Map<String, String> codeForm(Admin.TestClient c, String code, String redirect) {
        Map<String, String> p = new LinkedHashMap<>();
        p.put("grant_type", "authorization_code");
        p.put("code", code);
        p.put("redirect_uri", redirect);
        p.put("client_id", c.clientId());
        if (c.secret() != null) {
            p.put("client_secret", c.secret());
        }
        return p;
    }

    protected static void assertNoStore(Http.Res r) {
        assertEquals("no-store", r.header("Cache-Control"), r::toString);
        assertEquals("no-cache", r.header("Pragma"), r::toString);
    }

    protected static void assertError(Http.Res r, int status, String error) {
        assertEquals(status, r.status(), r::toString);
        assertTrue(r.header("Content-Type").startsWith("application/json"), r::toString);
        assertEquals(error, r.jsonString("error"), r::toString);
        assertNotNull(r.jsonString("error_description"), r::toString);
        assertFalse(r.body().contains("Exception"), r::toString);
        assertNoStore(r);
    }

    protected static JWTClaimsSet claims(String jwt) throws Exception {
        return SignedJWT.parse(jwt).getJWTClaimsSet();
    }

    protected static String grantOf(String accessToken) throws Exception {
        String jti = claims(accessToken).getJWTID();
        return (String) Db.rows("SELECT grant_id FROM access_tokens WHERE jti = ?", jti).get(0).get("grant_id");
    }

    protected static boolean grantRevoked(String grantId) {
        return Db.rows("SELECT revoked_at FROM token_grants WHERE grant_id = ?", grantId).get(0).get("revoked_at") != null;
    }

    protected static boolean accessTokenRevoked(String accessToken) throws Exception {
        return Db.rows("SELECT revoked_at FROM access_tokens WHERE jti = ?", claims(accessToken).getJWTID())
                .get(0).get("revoked_at") != null;
    }

    protected static OIDCProviderMetadata discovery() throws Exception {
        return OIDCProviderMetadata.resolve(new Issuer(BASE));
    }

    protected static JWKSet jwks() throws Exception {
        return JWKSet.load(discovery().getJWKSetURI().toURL());
    }

    protected Admin.TestClient confidential() {
        fixtures();
        return confidential;
    }

    protected Admin.TestClient publicClient() {
        fixtures();
        return publicClient;
    }

    /** Runs {@code n} copies of {@code call} released at the same instant; returns every result. */
    protected static <T> List<T> race(int n, Callable<T> call) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(n);
        try {
            CountDownLatch ready = new CountDownLatch(n);
            CountDownLatch go = new CountDownLatch(1);
            List<Future<T>> futures = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                futures.add(pool.submit(() -> {
                    ready.countDown();
                    go.await();
                    return call.call();
                }));
            }
            assertTrue(ready.await(30, TimeUnit.SECONDS));
            go.countDown();
            List<T> out = new ArrayList<>();
            for (Future<T> f : futures) {
                out.add(f.get(120, TimeUnit.SECONDS));
            }
            return out;
        } finally {
            pool.shutdownNow();
        }
    }
}
