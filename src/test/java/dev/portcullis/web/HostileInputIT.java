package dev.portcullis.web;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.portcullis.testing.Admin;
import dev.portcullis.testing.Db;
import dev.portcullis.testing.Http;
import dev.portcullis.testing.PortcullisIT;
import java.net.http.HttpRequest;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Hostile-input sweep: at least 200 malformed requests to every endpoint (broken, deep and huge JSON, wrong content
 * types, duplicated parameters, 1 MB values, NUL and control characters, invalid UTF-8, SQL and script injection,
 * header injection in redirect_uri/state, path traversal). Every answer must be a documented error — never a 5xx,
 * always the JSON error shape on API endpoints, never reflected unescaped input in HTML — and afterwards the
 * database holds no new rows except sign-in throttling counters and audit entries.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class HostileInputIT extends PortcullisIT {

    private static final List<String> TABLES = List.of("clients", "users", "sso_sessions", "consents",
            "token_grants", "authorization_codes", "refresh_tokens", "access_tokens", "signing_keys");

    private final Http http = http();
    private Admin.TestClient client;
    private Map<String, Long> rowsBefore;
    private int requests;

    @BeforeAll
    void fixtures() {
        client = admin().confidentialClient("openid profile", "https://rp.example.com/cb");
        http.get("/.well-known/openid-configuration"); // signing keys exist before the snapshot
        rowsBefore = counts();
    }

    @AfterAll
    void nothingWasWritten() {
        assertEquals(rowsBefore, counts(), "hostile requests must not leave rows behind");
        assertTrue(requests >= 2000, "sent " + requests + " requests");
    }

    private static Map<String, Long> counts() {
        Map<String, Long> m = new LinkedHashMap<>();
        for (String t : TABLES) {
            m.put(t, Db.count("SELECT COUNT(*) FROM " + t));
        }
        return m;
    }

    // ---- endpoints -------------------------------------------------------------------------------------------

    @Test
    void authorizeEndpoint() {
        List<String> names = List.of("client_id", "redirect_uri", "response_type", "scope", "state", "nonce",
                "code_challenge", "code_challenge_method", "prompt", "max_age", "ui_locales", "login_hint");
        int sent = 0;
        for (String value : HostilePayloads.values()) {
            for (String name : names) {
                Map<String, String> p = validAuthorizeParams();
                p.put(name, value);
                sized(value.length() * 3, h -> h.get("/oauth/authorize?" + Http.form(p)), r -> checkHtmlOrRedirect(r, value));
                sent++;
            }
        }
        for (String raw : rawQueries()) {
            checkRaw(http.rawGet("/oauth/authorize?" + raw));
            sent++;
        }
        for (String body : HostilePayloads.bodies()) {
            checkHtmlOrRedirect(http.post("/oauth/authorize", "application/x-www-form-urlencoded", body), body);
            sent++;
        }
        assertTrue(sent >= 200);
    }

    @Test
    void loginAndConsentForms() {
        int sent = 0;
        for (String page : List.of("/login.xhtml", "/consent.xhtml")) {
            for (String value : HostilePayloads.values()) {
                Map<String, String> form = new LinkedHashMap<>();
                form.put("login", "login");
                form.put("login:username", value);
                form.put("login:password", value);
                form.put("login:authz", value);
                form.put("login:csrf", value);
                form.put("jakarta.faces.ViewState", value);
                form.put("login:submit", "Sign in");
                checkHtml(http.postForm(page, form), value);
                sent++;
            }
            for (String body : HostilePayloads.bodies()) {
                checkHtml(http.post(page, "application/x-www-form-urlencoded", body), body);
                sent++;
            }
            for (String raw : rawQueries()) {
                checkRaw(http.rawGet(page + "?" + raw));
                sent++;
            }
            for (String value : HostilePayloads.values()) {
                Map<String, String> p = validAuthorizeParams();
                p.put("state", value);
                sized(value.length() * 9, h -> h.get(page + "?" + Http.form(p) + "&" + Http.enc(value) + "=" + Http.enc(value)),
                        r -> checkHtml(r, value));
                sent++;
            }
        }
        assertTrue(sent >= 400, "sent " + sent);
    }

    @Test
    void tokenEndpoint() {
        sweepJsonEndpoint("/oauth/token", List.of("grant_type", "code", "redirect_uri", "client_id", "client_secret",
                "code_verifier", "refresh_token", "scope"), true);
    }

    @Test
    void revocationAndIntrospection() {
        for (String path : List.of("/oauth/revoke", "/oauth/introspect")) {
            sweepJsonEndpoint(path, List.of("token", "token_type_hint", "client_id", "client_secret"), true);
        }
    }

    @Test
    void userinfo() {
        int sent = 0;
        for (String value : HostilePayloads.values()) {
            for (String scheme : List.of("Bearer ", "bearer ", "Basic ", "")) {
                sized(safeHeader(value).length(), h -> send(h, h.request("/oauth/userinfo"), r -> r.GET(),
                        "Authorization", scheme + safeHeader(value)), this::checkJsonOrEmpty);
                sent++;
            }
            checkJsonOrEmpty(http.post("/oauth/userinfo", "application/x-www-form-urlencoded",
                    "access_token=" + Http.enc(value)));
            sent++;
        }
        assertTrue(sent >= 200);
    }

    @Test
    void logoutEndpoint() {
        int sent = 0;
        for (String value : HostilePayloads.values()) {
            for (String name : List.of("id_token_hint", "post_logout_redirect_uri", "state", "client_id", "ui_locales")) {
                sized(value.length() * 3, h -> h.get("/oauth/logout?" + Http.enc(name) + "=" + Http.enc(value)),
                        r -> checkHtmlOrRedirect(r, value));
                sent++;
            }
        }
        assertTrue(sent >= 200);
    }

    @Test
    void adminApi() {
        int sent = 0;
        String auth = admin().authorization();
        for (String value : HostilePayloads.values()) {
            // each body keeps at least one field invalid, so nothing may ever be created
            checkJson(http.postJson("/admin/clients", "{\"client_name\":" + HostilePayloads.json(value)
                    + ",\"redirect_uris\":[" + HostilePayloads.json(value) + "],\"scopes\":\"nope\"}", "Authorization", auth));
            checkJson(http.postJson("/admin/users", "{\"username\":" + HostilePayloads.json(value)
                    + ",\"password\":\"short\"}", "Authorization", auth));
            if (!value.isBlank()) { // an empty path segment is the list endpoint itself
                int size = value.length() * 9;
                sized(size, h -> h.get("/admin/clients/" + Http.enc(value), "Authorization", auth), this::checkJsonOrEmpty);
                sized(size, h -> h.get("/admin/users/" + Http.enc(value), "Authorization", auth), this::checkJsonOrEmpty);
                // (blank filters are simply "no filter")
                sized(size, h -> h.get("/admin/audit?type=" + Http.enc(value) + "&since=" + Http.enc(value),
                        "Authorization", auth), this::checkJsonOrEmpty);
            }
            sent += 5;
        }
        for (String body : HostilePayloads.bodies()) {
            checkJson(http.postJson("/admin/clients", body, "Authorization", auth));
            checkJson(http.post("/admin/users", "text/plain", body, "Authorization", auth));
            sent += 2;
        }
        for (String path : List.of("/admin/clients/..%2f..%2fetc%2fpasswd", "/admin/%00",
                "/admin/clients/%C0%AF", "/admin/clients?offset=-1", "/admin/clients?limit=abc")) {
            checkJsonOrEmpty(http.get(path, "Authorization", auth));
            sent++;
        }
        assertTrue(sent >= 200);
    }

    @Test
    void invalidUtf8AndHugeBodies() {
        byte[] invalidUtf8 = {'{', '"', 'a', '"', ':', '"', (byte) 0xC3, (byte) 0x28, (byte) 0xFF, '"', '}'};
        String megabyte = "x".repeat(1_048_576);
        for (String path : List.of("/oauth/token", "/oauth/revoke", "/oauth/introspect", "/admin/clients")) {
            checkJson(send(http.request(path).header("Content-Type", "application/json"),
                    r -> r.POST(HttpRequest.BodyPublishers.ofByteArray(invalidUtf8)), "Authorization", admin().authorization()));
            Http.Res huge = http.post(path, "application/json", "{\"grant_type\":\"" + megabyte + "\"}",
                    "Authorization", admin().authorization());
            assertEquals(413, huge.status(), path + ": " + huge.status());
            checkJson(huge);
        }
        sized(8100, h -> h.get("/oauth/authorize?state=" + "x".repeat(8000) + "&client_id=" + client.clientId()),
                r -> checkHtmlOrRedirect(r, ""));
    }

    // ---- helpers ---------------------------------------------------------------------------------------------

    private void sweepJsonEndpoint(String path, List<String> names, boolean basicToo) {
        int sent = 0;
        for (String body : HostilePayloads.bodies()) {
            for (String type : List.of("application/json", "application/x-www-form-urlencoded", "text/plain")) {
                checkJson(http.post(path, type, body));
                sent++;
            }
        }
        for (String value : HostilePayloads.values()) {
            Map<String, String> form = new LinkedHashMap<>();
            for (String n : names) {
                form.put(n, value);
            }
            checkJson(http.postForm(path, form));
            checkJson(http.post(path, "application/json", jsonOf(form)));
            if (basicToo) {
                sized(safeHeader(value).length(), h -> h.postForm(path, Map.of("grant_type", "authorization_code",
                        "code", value), "Authorization", "Basic " + safeHeader(value)), this::checkJson);
            }
            sent += 3;
        }
        checkJson(http.post(path, null, "grant_type=authorization_code"));
        checkJson(http.post(path, "multipart/form-data; boundary=x", "--x\r\n\r\n--x--"));
        checkJson(send(http.request(path), r -> r.GET()));
        assertTrue(sent >= 200, path + ": " + sent);
    }

    private Map<String, String> validAuthorizeParams() {
        Map<String, String> p = new LinkedHashMap<>();
        p.put("client_id", client.clientId());
        p.put("redirect_uri", client.redirectUri());
        p.put("response_type", "code");
        p.put("scope", "openid");
        p.put("state", "s");
        return p;
    }

    private List<String> rawQueries() {
        String ok = "client_id=" + client.clientId() + "&redirect_uri=" + Http.enc(client.redirectUri());
        return List.of(ok + "&state=a&state=b", ok + "&client_id=x", ok + "&scope=%zz", ok + "&state=%00",
                ok + "&state=%0d%0aSet-Cookie:%20x=1", ok + "&redirect_uri=" + Http.enc(client.redirectUri()),
                ok + "&state=%C3%28", ok + "&state=%FF%FE", "%", "&&&", "client_id", ok + "&response_type=code&response_type=token",
                "redirect_uri=https://evil.example.com/cb&client_id=" + client.clientId() + "&response_type=code");
    }

    private Http.Res send(HttpRequest.Builder b, Consumer<HttpRequest.Builder> method, String... headers) {
        return send(http, b, method, headers);
    }

    private static Http.Res send(Http via, HttpRequest.Builder b, Consumer<HttpRequest.Builder> method, String... headers) {
        method.accept(b);
        if (headers.length > 0) {
            b.headers(headers);
        }
        return via.send(b.build());
    }

    private static String jsonOf(Map<String, String> form) {
        StringBuilder s = new StringBuilder("{");
        form.forEach((k, v) -> s.append(s.length() > 1 ? "," : "").append(HostilePayloads.json(k)).append(':')
                .append(HostilePayloads.json(v)));
        return s.append('}').toString();
    }

    /** Header values cannot carry CR/LF or non-Latin-1 through java.net.http; keep the rest hostile. */
    private static String safeHeader(String v) {
        String s = v.replaceAll("[\\r\\n\\u0000]", "").replaceAll("[^\\x20-\\x7e]", "?");
        return s.length() > 8000 ? s.substring(0, 8000) : s;
    }

    private void noServerError(Http.Res r) {
        requests++;
        assertTrue(r.status() < 500, () -> "server error: " + r);
        for (String h : List.of("Set-Cookie", "Location")) {
            r.raw().headers().allValues(h).forEach(v -> {
                assertFalse(v.contains("\r") || v.contains("\n"), "header injection: " + v);
                assertFalse(h.equals("Set-Cookie") && v.startsWith("x=1"), "header injection: " + v);
            });
        }
    }

    /**
     * Request lines and header blocks over the HTTP listener's limits are refused by the server's HTTP layer
     * (414 / 431, empty body) before any application code runs; that is a clear error too.
     */
    private static boolean refusedByHttpLayer(Http.Res r) {
        return (r.status() == 414 || r.status() == 431 || r.status() == 400) && r.body().isEmpty()
                && r.header("Content-Type") == null;
    }

    private void checkJson(Http.Res r) {
        noServerError(r);
        if (refusedByHttpLayer(r)) {
            return;
        }
        assertTrue(r.status() >= 400, () -> "hostile input accepted: " + r);
        String type = r.header("Content-Type");
        assertNotNull(type, () -> "no content type: " + r);
        assertTrue(type.startsWith("application/json"), () -> "not JSON: " + r);
        Map<String, Object> json = r.json();
        assertNotNull(json.get("error"), () -> "no error field: " + r);
        assertNotNull(json.get("error_description"), () -> "no error_description: " + r);
    }

    /** A JSON error, or an empty 401/404 answer where the RFC gives no body (RFC 6750 bearer errors). */
    private void checkJsonOrEmpty(Http.Res r) {
        noServerError(r);
        if (!r.body().isEmpty()) {
            checkJson(r);
        } else {
            assertTrue(r.status() >= 400, () -> "hostile input accepted: " + r);
        }
    }

    private void checkHtml(Http.Res r, String sent) {
        noServerError(r);
        if (r.header("Content-Type") != null && r.header("Content-Type").startsWith("text/html")) {
            assertFalse(r.body().contains(HostilePayloads.SCRIPT), () -> "reflected script: " + r);
            assertFalse(r.body().contains("onerror=alert"), () -> "reflected attribute: " + r);
            assertFalse(r.body().contains("Exception"), () -> "exception text in page: " + r);
        }
    }

    /**
     * Sends a request whose target or headers may exceed the HTTP listener's limits (8 KiB). For such oversized
     * requests the listener may drop the connection instead of answering 414/431 — a refusal before any application
     * code runs, accepted only for oversized requests.
     */
    private void sized(int size, java.util.function.Function<Http, Http.Res> call, Consumer<Http.Res> check) {
        Http.Res r;
        try {
            // an oversized request may leave its connection closed: send it on a client of its own, so the shared
            // client's next request does not pick up a dead pooled connection
            r = call.apply(size > 8000 ? new Http(BASE) : http);
        } catch (java.io.UncheckedIOException e) {
            requests++;
            assertTrue(size > 8000, () -> "connection dropped for a normal-sized request: " + e);
            return;
        }
        check.accept(r);
    }

    /** A raw response: no server error, no injected header, no reflected script. */
    private void checkRaw(Http.RawRes r) {
        requests++;
        assertTrue(r.status() < 500, () -> "server error: " + r);
        assertFalse(r.head().contains("\nSet-Cookie: x=1") || r.head().contains("\nLocation: https://evil"),
                () -> "header injection: " + r.head());
        assertFalse(r.body().contains(HostilePayloads.SCRIPT), () -> "reflected script: " + r);
        String location = r.header("Location");
        if (location != null) {
            assertTrue(location.startsWith(client.redirectUri()) || location.startsWith(BASE) || location.startsWith("/"),
                    () -> "redirect to an unverified place: " + location);
        }
    }

    private void checkHtmlOrRedirect(Http.Res r, String sent) {
        checkHtml(r, sent);
        if (r.status() == 302 || r.status() == 303) {
            String location = r.header("Location");
            assertTrue(location.startsWith(client.redirectUri()) || location.startsWith(BASE) || location.startsWith("/"),
                    () -> "redirect to an unverified place: " + location);
        }
    }
}
