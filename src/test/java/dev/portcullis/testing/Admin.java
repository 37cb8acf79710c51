package dev.portcullis.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.stream.Collectors;

/** Test fixtures through the real admin API: every client and user a test needs is created over HTTP. */
public final class Admin {

    private final Http http;
    private final String token;

    public Admin(Http http, String token) {
        this.http = http;
        this.token = token;
    }

    public String authorization() {
        return "Bearer " + token;
    }

    /** A registered client: id, secret (null for public clients) and its first redirect URI. */
    public record TestClient(String clientId, String secret, String redirectUri, String name) {

        /** The JSON token request redeeming {@code code} (confidential client, secret in the body). */
        public String codeExchangeJson(String code) {
            return "{\"grant_type\":\"authorization_code\",\"code\":" + Http.q(code) + ",\"redirect_uri\":"
                    + Http.q(redirectUri) + ",\"client_id\":" + Http.q(clientId) + ",\"client_secret\":"
                    + Http.q(secret) + "}";
        }
    }

    public record TestUser(String username, String password, String userId) {
    }

    public Http.Res post(String path, String json) {
        return http.postJson(path, json, "Authorization", authorization());
    }

    public Http.Res get(String path) {
        return http.get(path, "Authorization", authorization());
    }

    /** A JSON merge patch (application/merge-patch+json). */
    public Http.Res patch(String path, String mergePatch) {
        return http.patch(path, "application/merge-patch+json", mergePatch, "Authorization", authorization());
    }

    public Http.Res delete(String path) {
        return http.delete(path, "Authorization", authorization());
    }

    public TestClient confidentialClient(String scopes, String... redirectUris) {
        return client(true, scopes, false, redirectUris);
    }

    public TestClient publicClient(String scopes, String... redirectUris) {
        return client(false, scopes, false, redirectUris);
    }

    public TestClient client(boolean confidential, String scopes, boolean skipConsent, String... redirectUris) {
        String name = (confidential ? "Confidential " : "Public ") + "app " + Long.toHexString(System.nanoTime());
        String uris = List.of(redirectUris).stream().map(Http::q).collect(Collectors.joining(","));
        Http.Res r = post("/admin/clients", "{\"client_name\":" + Http.q(name) + ",\"redirect_uris\":[" + uris
                + "],\"confidential\":" + confidential + ",\"scopes\":" + Http.q(scopes)
                + ",\"skip_consent\":" + skipConsent + "}");
        assertEquals(201, r.status(), r::toString);
        return new TestClient(r.jsonString("client_id"), r.jsonString("client_secret"), redirectUris[0], name);
    }

    /**
     * {@code client}, now registered to want the scopes' claims in its ID tokens too ({@code id_token_claims}), for
     * tests that read them there.
     */
    public TestClient withIdTokenClaims(TestClient client) {
        Http.Res r = patch("/admin/clients/" + client.clientId(), "{\"id_token_claims\":true}");
        assertEquals(200, r.status(), r::toString);
        return client;
    }

    /** A new user with a unique name and the given password. */
    public TestUser user(String password) {
        String username = "user" + Long.toHexString(System.nanoTime());
        Http.Res r = post("/admin/users", "{\"username\":" + Http.q(username) + ",\"password\":" + Http.q(password)
                + ",\"email\":" + Http.q(username + "@example.com") + ",\"name\":" + Http.q("Test " + username) + "}");
        assertEquals(201, r.status(), r::toString);
        return new TestUser(username, password, r.jsonString("user_id"));
    }
}
