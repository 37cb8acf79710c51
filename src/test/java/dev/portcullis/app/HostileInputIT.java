package dev.portcullis.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.portcullis.crypto.Secrets;
import dev.portcullis.session.BrowserCookies;
import dev.portcullis.testing.Admin;
import dev.portcullis.testing.Db;
import dev.portcullis.testing.Http;
import dev.portcullis.testing.PortcullisIT;
import dev.portcullis.testing.SoftAuthenticator;
import dev.portcullis.testing.UserAgent;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

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
            "token_grants", "authorization_codes", "refresh_tokens", "access_tokens", "signing_keys", "totp_factors",
            "recovery_codes", "webauthn_credentials");

    private final Http http = http();
    private Admin.TestClient client;
    private Admin.TestUser user;
    private Map<String, Long> rowsBefore;
    private int requests;
    private UserAgent administrator;
    private Admin.TestClient editable;
    private Admin.TestUser boss;

    @BeforeAll
    void fixtures() {
        client = admin().confidentialClient("openid profile", "https://rp.example.com/cb");
        user = admin().user("correct horse battery staple");
        http.get("/.well-known/openid-configuration");
        http.get("/oauth/discovery/keys"); // signing keys exist before the snapshot
        boss = admin().user("correct horse battery staple");
        assertEquals(200, admin().patch("/admin/users/" + boss.username(), "{\"roles\":[\"admin\"]}").status());
        administrator = new UserAgent(BASE);
        assertEquals(200, administrator.openSignedIn("/admin/console/index.xhtml", boss).status());
        editable = admin().confidentialClient("openid", "https://edited.example.com/cb");
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

    /**
     * The account page's and the console's queries and forms, signed in as an administrator with a valid CSRF token:
     * every hostile value reaches the page logic (search text, paging key, client id, session id, username, client
     * name, URIs, passwords) and is refused or matched to nothing, shown only escaped, and writes no row; the same
     * forms without the browser's token are refused with 403.
     */
    @Test
    void accountPageAndConsoleForms() {
        int sent = 0;
        Http.Res account = administrator.get("/account/index.xhtml");
        Http.Res users = administrator.get("/admin/console/users.xhtml?q=nobody-matches-this");
        Http.Res clients = administrator.get("/admin/console/clients.xhtml");
        Http.Res edit = administrator.get("/admin/console/client.xhtml?id=" + editable.clientId());
        for (Http.Res page : List.of(account, users, clients, edit)) {
            assertEquals(200, page.status(), page::toString);
        }
        int row = account.body().indexOf("<form id=\"", account.body().indexOf("id=\"session-"));
        String endSession = account.body().substring(row + 10, account.body().indexOf('"', row + 10));
        for (String value : HostilePayloads.values()) {
            for (String query : List.of("/admin/console/users.xhtml?q=", "/admin/console/users.xhtml?after=",
                    "/admin/console/client.xhtml?id=", "/account/index.xhtml?done=")) {
                // the search box shows the text searched for: escaped, so only the markup check applies to it
                Consumer<Http.Res> check = query.endsWith("?q=") ? r -> checkEscapedEcho(r, value) : r -> checkHtml(r, value);
                sized(value.length() * 3, h -> administrator.sameBrowserAt(BASE).get(query + Http.enc(value)), check);
                sent++;
            }
            sent += postHostile(account, "password", value, Map.of("password:current", value, "password:new", value,
                    "password:repeat", value, "password:submit", "Change password"), 400);
            sent += postHostile(account, endSession, value, Map.of("session", value, endSession + ":submit", "x"), 303);
            sent += postHostile(clients, "create", value, Map.of("create:name", value, "create:redirectUris",
                    "https://ok.example.com/cb", "create:scopes", "not-a-scope " + value, "create:submit", "x"), 400);
            sent += postHostile(clients, "create", value, Map.of("create:name", "fine", "create:redirectUris", value,
                    "create:scopes", "not-a-scope", "create:submit", "x"), 400);
            sent += postHostile(edit, "edit", value, Map.of("edit:name", "fine", "edit:redirectUris",
                    value + "\nnot a uri", "edit:submit", "x"), 400);
        }
        Db.update("DELETE FROM login_throttle");
        assertTrue(sent >= 300, "sent " + sent);
    }

    /**
     * The console's other pages (user detail, sessions, audit log, signing keys, a client's rotate and delete):
     * hostile query values are refused or match nothing and come back only escaped; hostile form values with a valid
     * token are refused (400) or name nothing (404, or 303 "already ended"); a forged, missing or duplicated token is
     * 403, a duplicated key field names nothing; nothing is written (the keys are not rotated either).
     */
    @Test
    void consoleDetailPagesAndActions() {
        int sent = 0;
        Http.Res userPage = administrator.get("/admin/console/user.xhtml?username=" + user.username());
        Http.Res clientPage = administrator.get("/admin/console/client.xhtml?id=" + editable.clientId());
        Http.Res sessions = administrator.get("/admin/console/sessions.xhtml?user=" + boss.username());
        Http.Res keys = administrator.get("/admin/console/keys.xhtml");
        for (Http.Res page : List.of(userPage, clientPage, sessions, keys)) {
            assertEquals(200, page.status(), page::toString);
        }
        int row = sessions.body().indexOf("<form id=\"", sessions.body().indexOf("id=\"session-"));
        String endSession = sessions.body().substring(row + 10, sessions.body().indexOf('"', row + 10));
        UserAgent pages = administrator.sameBrowserAt(BASE); // one client (one connection pool) for these GETs
        for (String value : HostilePayloads.values()) {
            for (String query : List.of("/admin/console/user.xhtml?username=", "/admin/console/sessions.xhtml?user=",
                    "/admin/console/sessions.xhtml?after=", "/admin/console/audit.xhtml?type=",
                    "/admin/console/audit.xhtml?user=", "/admin/console/audit.xhtml?client=",
                    "/admin/console/audit.xhtml?from=", "/admin/console/audit.xhtml?to=",
                    "/admin/console/audit.xhtml?before=", "/admin/console/keys.xhtml?done=")) {
                String target = query + Http.enc(value);
                // an oversized request may leave its connection closed: it gets a client of its own (as in sized)
                UserAgent browser = oversized(target.length()) ? administrator.sameBrowserAt(BASE) : pages;
                sized(target.length(), h -> browser.get(target), r -> checkEscapedEcho(r, value));
                sent++;
            }
            sent += postHostile(userPage, "edit", value, Map.of("edit:name", value, "edit:email",
                    value + " not an address", "edit:submit", "x"), 400);
            sent += postHostile(userPage, "toggle", value, Map.of("username", value, "toggle:submit", "x"), 404,
                    404);
            sent += postHostile(userPage, "password", value, Map.of("username", value, "password:submit", "x"), 404,
                    404);
            sent += postHostile(sessions, endSession, value, Map.of("session", value, endSession + ":submit", "x"),
                    303);
            sent += postHostile(clientPage, "rotate", value, Map.of("id", value, "rotate:submit", "x"), 404, 404);
            sent += postHostile(clientPage, "delete", value, Map.of("id", value, "confirmed", value,
                    "delete:submit", "x"), 404, 404);
            Map<String, String> rotate = UserAgent.formFields(keys.body(), "rotate");
            rotate.put("rotate:submit", "x");
            rotate.put("csrf", value.isEmpty() ? "x" : value);
            Http.Res forged = administrator.submit(keys.body(), "rotate", rotate);
            checkEscapedEcho(forged, value);
            assertTrue(forged.status() == 403 || forged.status() == 413, forged::toString);
            sent++;
            requests++;
        }
        Map<String, String> toggle = UserAgent.formFields(userPage.body(), "toggle");
        toggle.put("toggle:submit", "x");
        String body = Http.form(toggle);
        for (String odd : List.of("&username=" + Http.enc(user.username()), "&csrf=" + Http.enc(toggle.get("csrf")))) {
            Http.Res r = administrator.http().post("/admin/console/user.xhtml", "application/x-www-form-urlencoded",
                    body + odd);
            assertTrue(r.status() == 404 || r.status() == 403, () -> odd + ": " + r);
            requests++;
        }
        toggle.remove("csrf");
        Http.Res missing = administrator.submit(userPage.body(), "toggle", toggle);
        assertEquals(403, missing.status(), missing::toString);
        assertTrue(admin().get("/admin/users/" + user.username()).body().contains("\"enabled\":true"));
        assertTrue(sent >= 500, "sent " + sent);
    }

    /**
     * Posts form {@code formId} of {@code page} with {@code fields} over its own: with the browser's CSRF token
     * (expecting {@code status}, or 413 for a body over the limit), then with {@code value} as the token (403).
     */
    private int postHostile(Http.Res page, String formId, String value, Map<String, String> fields, int status) {
        return postHostile(page, formId, value, fields, status, 403);
    }

    /**
     * As {@link #postHostile(Http.Res, String, String, Map, int)}, forged answering {@code forgedStatus}: a form whose
     * key field names nothing has no button to press (404) before its token could be checked.
     */
    private int postHostile(Http.Res page, String formId, String value, Map<String, String> fields, int status,
                            int forgedStatus) {
        Map<String, String> form = UserAgent.formFields(page.body(), formId);
        form.putAll(fields);
        for (boolean forged : List.of(false, true)) {
            if (forged) {
                form.put("csrf", value.isEmpty() ? "x" : value);
            }
            Http.Res r = administrator.submit(page.body(), formId, form);
            requests++;
            checkEscapedEcho(r, value); // a refused form shows its fields again, escaped
            if (r.status() != 413) {
                assertEquals(forged ? forgedStatus : status, r.status(), () -> formId + " " + HostilePayloads.json(
                        value.length() > 60 ? value.substring(0, 60) : value) + ": " + r);
            }
        }
        return 2;
    }

    /**
     * Forged form posts (no view state, no CSRF pair) carrying hostile values: refused before the pages' logic runs,
     * and nothing sent comes back unescaped. {@link #hostileSignInInputThroughAValidCsrfPair} drives the same values
     * into the sign-in logic itself.
     */
    @Test
    void loginAndConsentForms() {
        int sent = 0;
        for (String page : List.of("/login.xhtml", "/consent.xhtml", "/factor.xhtml", "/account/security.xhtml")) {
            for (String value : HostilePayloads.values()) {
                Map<String, String> form = new LinkedHashMap<>();
                form.put("login", "login");
                form.put("login:username", value);
                form.put("login:password", value);
                form.put("login:authz", value);
                form.put("login:csrf", value);
                form.put("factor:code", value);
                form.put("factor:first-code", value);
                form.put("factor:authz", value);
                form.put("factor:csrf", value);
                form.put("factor:submit", "Continue");
                form.put("security:code", value);
                form.put("csrf", value);
                form.put("security:remove", "Remove");
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
        assertTrue(sent >= 800, "sent " + sent);
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
                sized(size, h -> h.delete("/admin/users/" + Http.enc(value) + "/factors", "Authorization", auth),
                        this::checkJsonOrEmpty);
                // (blank filters are simply "no filter")
                sized(size, h -> h.get("/admin/audit?type=" + Http.enc(value) + "&since=" + Http.enc(value),
                        "Authorization", auth), this::checkJsonOrEmpty);
            }
            sent += 6;
        }
        for (String body : HostilePayloads.bodies()) {
            checkJson(http.postJson("/admin/clients", body, "Authorization", auth));
            checkJson(http.post("/admin/users", "text/plain", body, "Authorization", auth));
            sent += 2;
        }
        String target = "/admin/users/" + user.username();
        String clientTarget = "/admin/clients/" + client.clientId();
        for (String value : HostilePayloads.values()) {
            // a merge patch with one member of the wrong type changes nothing
            checkJson(http.patch(target, "application/merge-patch+json", "{\"name\":" + HostilePayloads.json(value)
                    + ",\"email\":" + HostilePayloads.json(value) + ",\"enabled\":" + HostilePayloads.json(value)
                    + "}", "Authorization", auth));
            checkJson(http.patch(clientTarget, "application/merge-patch+json", "{\"client_name\":"
                    + HostilePayloads.json(value) + ",\"redirect_uris\":" + HostilePayloads.json(value) + "}",
                    "Authorization", auth));
            if (!value.isBlank()) {
                int size = value.length() * 9;
                // a search is a read: well-formed text may find nothing (200), anything else is refused
                sized(size, h -> h.get("/admin/users?q=" + Http.enc(value) + "&after=" + Http.enc(value),
                        "Authorization", auth), r -> checkJsonListOrError(r, "users"));
                sized(size, h -> h.get("/admin/sessions?user=" + Http.enc(value) + "&after=" + Http.enc(value),
                        "Authorization", auth), r -> checkJsonListOrError(r, "sessions"));
                sized(size, h -> h.delete("/admin/sessions/" + Http.enc(value), "Authorization", auth),
                        this::checkJsonOrEmpty);
                sized(size, h -> h.delete(target + "/grants/" + Http.enc(value), "Authorization", auth),
                        this::checkJsonOrEmpty);
            }
            sent += 6;
        }
        for (String body : HostilePayloads.bodies()) {
            if (!body.equals("{}")) { // the empty merge patch is a valid no-op
                checkJson(http.patch(target, "application/merge-patch+json", body, "Authorization", auth));
                checkJson(http.patch(clientTarget, "application/json", body, "Authorization", auth));
                sent += 2;
            }
        }
        for (String body : List.of("{\"enabled\":\"false\"}", "{\"enabled\":0}", "{\"enabled\":null}",
                "{\"roles\":\"admin\"}", "{\"roles\":[\"root\"]}", "{\"roles\":[1]}", "{\"email\":5}",
                "{\"name\":{\"a\":1}}", "{\"name\":\"a\",\"name\":\"b\"}", "{\"password_hash\":\"x\"}",
                "{\"user_id\":\"x\"}", "{\"username\":\"x\"}", "{\"name\":\"" + "n".repeat(201) + "\"}",
                "{\"email\":\"" + "e".repeat(300) + "@example.com\"}", "{\"name\":\"" + "x".repeat(70_000) + "\"}")) {
            checkJson(http.patch(target, "application/merge-patch+json", body, "Authorization", auth));
            sent++;
        }
        for (String body : List.of("{\"confidential\":\"no\"}", "{\"confidential\":null}", "{\"enabled\":null}",
                "{\"client_name\":null}", "{\"redirect_uris\":null}", "{\"redirect_uris\":[]}",
                "{\"redirect_uris\":[\"http://evil.example.com/cb\"]}", "{\"scopes\":\"openid admin\"}",
                "{\"client_secret\":\"x\"}", "{\"client_id\":\"x\"}", "{\"skip_consent\":1}",
                "{\"scopes\":\"openid\",\"scopes\":\"email\"}", "{\"confidential\":false,\"redirect_uris\":7}")) {
            checkJson(http.patch(clientTarget, "application/merge-patch+json", body, "Authorization", auth));
            sent++;
        }
        assertEquals(1, Db.count("SELECT COUNT(*) FROM users WHERE user_id = ? AND enabled AND roles = ''",
                user.userId()), "no hostile patch changed the user");
        assertEquals(1, Db.count("SELECT COUNT(*) FROM clients WHERE client_id = ? AND enabled AND confidential",
                client.clientId()), "no hostile patch changed the client");
        for (String path : List.of("/admin/clients/..%2f..%2fetc%2fpasswd", "/admin/%00",
                "/admin/clients/%C0%AF", "/admin/clients?offset=-1", "/admin/clients?limit=abc",
                "/admin/users?limit=0", "/admin/users?limit=501", "/admin/users?limit=abc", "/admin/users?after=%00",
                "/admin/users?after=a%20b", "/admin/users?limit=99999999999999999999", "/admin/users?q=" + "q".repeat(201),
                "/admin/sessions?limit=-1", "/admin/sessions?after=..%2f..", "/admin/sessions?after=" + "a".repeat(65),
                "/admin/sessions?user=nobody-here")) {
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

    // ---- malformed requests, by class: every endpoint, every method, every broken content type, framing --------

    /** Whether an endpoint answers errors as a page (browser endpoints) or as JSON (OAuth and API endpoints). */
    enum Shape { PAGE, JSON }

    /** An endpoint of the WAR (or a path with nothing behind it), its error shape and the methods it answers. */
    record Endpoint(String path, Shape shape, Set<String> methods) {
        @Override
        public String toString() {
            return path;
        }
    }

    private static final List<String> METHODS = List.of("GET", "POST", "PUT", "DELETE", "PATCH", "OPTIONS", "HEAD",
            "TRACE");

    /** Every path the WAR serves, plus unknown ones under each prefix; no admin token is sent, so nothing changes. */
    static List<Endpoint> endpoints() {
        return List.of(
                new Endpoint("/oauth/authorize", Shape.PAGE, Set.of("GET", "POST")),
                new Endpoint("/oauth/token", Shape.JSON, Set.of("POST")),
                new Endpoint("/oauth/userinfo", Shape.JSON, Set.of("GET", "POST")),
                new Endpoint("/oauth/revoke", Shape.JSON, Set.of("POST")),
                new Endpoint("/oauth/introspect", Shape.JSON, Set.of("POST")),
                new Endpoint("/oauth/logout", Shape.PAGE, Set.of("GET", "POST")),
                new Endpoint("/oauth/discovery/keys", Shape.JSON, Set.of("GET")),
                new Endpoint("/.well-known/openid-configuration", Shape.JSON, Set.of("GET")),
                new Endpoint("/login.xhtml", Shape.PAGE, Set.of("GET", "POST")),
                new Endpoint("/consent.xhtml", Shape.PAGE, Set.of("GET", "POST")),
                new Endpoint("/factor.xhtml", Shape.PAGE, Set.of("GET", "POST")),
                new Endpoint("/admin/clients", Shape.JSON, Set.of("GET", "POST")),
                new Endpoint("/admin/clients/x", Shape.JSON, Set.of("GET", "DELETE", "PATCH")),
                new Endpoint("/admin/clients/x/secret", Shape.JSON, Set.of("POST")),
                new Endpoint("/admin/users", Shape.JSON, Set.of("GET", "POST")),
                new Endpoint("/admin/users/x", Shape.JSON, Set.of("GET", "DELETE", "PATCH")),
                new Endpoint("/admin/users/x/unlock", Shape.JSON, Set.of("POST")),
                new Endpoint("/admin/users/x/grants", Shape.JSON, Set.of("GET")),
                new Endpoint("/admin/users/x/grants/y", Shape.JSON, Set.of("DELETE")),
                new Endpoint("/admin/sessions", Shape.JSON, Set.of("GET", "DELETE")),
                new Endpoint("/admin/sessions/x", Shape.JSON, Set.of("DELETE")),
                new Endpoint("/admin/users/x/password", Shape.JSON, Set.of("PUT")),
                new Endpoint("/admin/users/x/factors", Shape.JSON, Set.of("DELETE")),
                new Endpoint("/admin/audit", Shape.JSON, Set.of("GET")),
                new Endpoint("/admin/keys", Shape.JSON, Set.of("GET")),
                new Endpoint("/admin/keys/rotate", Shape.JSON, Set.of("POST")),
                new Endpoint("/admin/purge", Shape.JSON, Set.of("POST")),
                new Endpoint("/api/v1/me", Shape.JSON, Set.of("GET")),
                new Endpoint("/api/v1/me/authorizations", Shape.JSON, Set.of("GET")),
                new Endpoint("/api/v1/me/authorizations/x", Shape.JSON, Set.of("DELETE")),
                new Endpoint("/demo/", Shape.PAGE, Set.of("GET")),
                new Endpoint("/demo/start", Shape.PAGE, Set.of("POST")),
                new Endpoint("/demo/callback", Shape.PAGE, Set.of("GET")),
                new Endpoint("/", Shape.PAGE, Set.of("GET")),
                new Endpoint("/index.html", Shape.PAGE, Set.of("GET")),
                new Endpoint("/css/portcullis.css", Shape.PAGE, Set.of("GET")),
                new Endpoint("/no-such-page", Shape.PAGE, Set.of("GET")),
                new Endpoint("/oauth/no-such-endpoint", Shape.JSON, Set.of(METHODS.toArray(String[]::new))),
                new Endpoint("/admin/no-such-endpoint", Shape.JSON, Set.of(METHODS.toArray(String[]::new))),
                new Endpoint("/api/no-such-endpoint", Shape.JSON, Set.of(METHODS.toArray(String[]::new))));
    }

    /** The endpoints that take a request body. */
    static List<Endpoint> bodyEndpoints() {
        return endpoints().stream().filter(e -> e.methods().contains("POST") || e.methods().contains("PUT"))
                .filter(e -> !e.path().contains("no-such")).toList();
    }

    /**
     * Every method on every path: a method an endpoint does not answer is 405 with {@code Allow} and the endpoint's
     * error shape; one it answers is never a 5xx and any error has the shape. OPTIONS is answered with {@code Allow}
     * (or refused with 405), never with a generated API description. TRACE is refused by the HTTP listener itself
     * (405, no body) before any application code runs.
     */
    @ParameterizedTest
    @MethodSource("endpoints")
    void everyMethodOnEveryPath(Endpoint e) {
        for (String method : METHODS) {
            Http.RawRes r = raw(method + " " + e.path() + " HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n");
            String what = method + " " + e.path() + ": " + r.head();
            assertTrue(r.status() < 500, what);
            if (method.equals("TRACE")) {
                assertEquals(405, r.status(), what);
                assertEquals("", r.body(), what);
            } else if (method.equals("OPTIONS")) {
                String type = String.valueOf(r.header("Content-Type"));
                assertFalse(type.contains("wadl") || r.body().contains("<application"), what);
                if (r.status() < 300) {
                    assertNotNull(r.header("Allow"), what);
                } else {
                    assertShape(e.shape(), r, what);
                }
            } else if (!e.methods().contains(method) && !(method.equals("HEAD") && e.methods().contains("GET"))) {
                assertEquals(405, r.status(), what);
                assertNotNull(r.header("Allow"), what);
                if (!method.equals("HEAD")) {
                    assertShape(e.shape(), r, what);
                }
            } else if (r.status() >= 400 && !method.equals("HEAD")) {
                assertShape(e.shape(), r, what);
            }
        }
    }

    /** Content types whose charset no endpoint can decode, or which are broken: 400 or 415, never parsed. */
    static List<String> brokenContentTypes() {
        List<String> types = new ArrayList<>();
        for (String base : List.of("application/x-www-form-urlencoded", "application/json")) {
            for (String charset : List.of("utf-7", "x-nonsense", "UTF-7", "utf-8x", "\"utf-7\"", "", "\"\"",
                    "\"utf-8", "utf-8\"", "../../etc/passwd", "utf 8", "*", "ibm-nonsense-9999",
                    "x-" + "a".repeat(300))) {
                types.add(base + "; charset=" + charset);
            }
            types.addAll(List.of(base + "; charset", base + "; =utf-8", base + "; charset=utf-8; charset=utf-7",
                    base + ";;charset=x-nonsense", base + "; a=\"unterminated"));
        }
        types.addAll(List.of("multipart/form-data", "multipart/form-data; boundary=", "multipart/form-data; boundary",
                "multipart/form-data; boundary=x", "multipart/mixed; boundary=x", "multipart/", "MULTIPART/FORM-DATA",
                "/", "application/", "/json", "text", ";", "application/json, application/x-www-form-urlencoded",
                "application json", "appli<cation>/json"));
        return types;
    }

    @ParameterizedTest
    @MethodSource("bodyEndpoints")
    void brokenContentTypesAreRefusedWithTheEndpointsShape(Endpoint e) {
        String method = e.methods().contains("POST") ? "POST" : "PUT";
        for (String type : brokenContentTypes()) {
            String body = "a=b&c=%E2%82%AC";
            Http.RawRes r = raw(method + " " + e.path() + " HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n"
                    + "Content-Type: " + type + "\r\nContent-Length: " + body.length() + "\r\n\r\n" + body);
            String what = method + " " + e.path() + " with Content-Type " + type + ": " + r.head();
            assertTrue(r.status() == 400 || r.status() == 415, what);
            assertShape(e.shape(), r, what);
        }
    }

    /** Every charset the JVM knows is either read or refused, never a 5xx (ASCII-incompatible ones read as garbage). */
    @ParameterizedTest
    @MethodSource("bodyEndpoints")
    void everyKnownCharsetIsReadOrRefused(Endpoint e) {
        String method = e.methods().contains("POST") ? "POST" : "PUT";
        for (String charset : List.of("UTF-8", "utf-8", "\"UTF-8\"", "US-ASCII", "ISO-8859-1", "windows-1252",
                "UTF-16", "UTF-16LE", "UTF-32", "IBM037", "Shift_JIS", "GB18030")) {
            for (String base : List.of("application/x-www-form-urlencoded", "application/json")) {
                Http.Res r = http.send(http.request(e.path()).header("Content-Type", base + "; charset=" + charset)
                        .method(method, HttpRequest.BodyPublishers.ofString("a=b")).build());
                String what = method + " " + e.path() + " as " + base + "; charset=" + charset + ": " + r;
                noServerError(r);
                if (r.status() >= 400) {
                    assertShape(e.shape(), r.header("Content-Type"), r.body(), what);
                }
            }
        }
    }

    /**
     * Framing oddities on every endpoint that takes a body: an empty chunked body, with and without Content-Type, a
     * chunked body whose size line is not hexadecimal, Content-Length and Transfer-Encoding together, two different
     * Content-Lengths, a non-numeric or negative one, a body shorter than announced (the client then closes), and two
     * Content-Type headers. Each is answered with a 4xx (the endpoint's shape when the application answers; the HTTP
     * listener refuses the ones it cannot frame with an empty 400) or, for a body cut short, not at all — never a 5xx.
     */
    @ParameterizedTest
    @MethodSource("bodyEndpoints")
    void framingOdditiesAreClientErrors(Endpoint e) {
        String method = e.methods().contains("POST") ? "POST" : "PUT";
        String start = method + " " + e.path() + " HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n";
        String form = "Content-Type: application/x-www-form-urlencoded\r\n";
        Map<String, String> odd = new LinkedHashMap<>();
        odd.put("empty chunked body", start + form + "Transfer-Encoding: chunked\r\n\r\n0\r\n\r\n");
        odd.put("empty chunked body, no Content-Type", start + "Transfer-Encoding: chunked\r\n\r\n0\r\n\r\n");
        odd.put("empty chunked JSON body", start + "Content-Type: application/json\r\n"
                + "Transfer-Encoding: chunked\r\n\r\n0\r\n\r\n");
        odd.put("no body, no Content-Type", start + "\r\n");
        odd.put("no body, Content-Length 0", start + "Content-Length: 0\r\n\r\n");
        odd.put("bad chunk size", start + form + "Transfer-Encoding: chunked\r\n\r\nzz\r\na=b\r\n0\r\n\r\n");
        odd.put("Content-Length with chunked", start + form + "Content-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n"
                + "0\r\n\r\n");
        odd.put("two Content-Lengths", start + form + "Content-Length: 3\r\nContent-Length: 5\r\n\r\na=b");
        odd.put("non-numeric Content-Length", start + form + "Content-Length: abc\r\n\r\na=b");
        odd.put("negative Content-Length", start + form + "Content-Length: -5\r\n\r\na=b");
        odd.put("unknown transfer coding", start + form + "Transfer-Encoding: gzip\r\n\r\na=b");
        odd.put("non-ASCII Content-Type", start + "Content-Type: application/json\u00e9\r\nContent-Length: 3\r\n\r\n"
                + "a=b");
        odd.put("two Content-Types", start + form + "Content-Type: application/json\r\nContent-Length: 3\r\n\r\na=b");
        odd.put("body shorter than Content-Length", start + form + "Content-Length: 100\r\n\r\na=b");
        odd.put("chunked body cut short", start + form + "Transfer-Encoding: chunked\r\n\r\n10\r\na=b");
        odd.forEach((name, request) -> {
            Http.RawRes r = raw(request);
            String what = method + " " + e.path() + ", " + name + ": " + r.head();
            if (r.status() == 0) {
                assertTrue(name.contains("short"), () -> "no answer: " + what);
                return;
            }
            assertTrue(r.status() >= 400 && r.status() < 500, what);
            if (!r.body().isEmpty() || r.header("Content-Type") != null) {
                assertShape(e.shape(), r, what);
            }
        });
    }

    /**
     * A raw space in the request target ({@code GET /oauth/token/x y HTTP/1.1}) makes the text after it the protocol
     * version. Grizzly, Payara Micro's HTTP listener, answers any request line whose version it cannot parse with 505
     * (hard-coded in {@code HttpServerFilter.prepareRequest}, no listener setting changes it), before the WAR sees the
     * request; a reverse proxy in front (server-config/nginx-load-balancer.conf) answers 400 itself. See
     * docs/decisions.md. This asserts today's status so that a Payara upgrade that fixes it shows up here.
     */
    @Test
    void rawSpaceInTheRequestTargetIsRefusedByTheHttpListener() {
        for (String target : List.of("/oauth/token/x y", "/oauth/authorize?state=a b", "/login.xhtml?a= b",
                "/admin/clients/a b")) {
            Http.RawRes r = raw("GET " + target + " HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n");
            assertEquals(505, r.status(), () -> target + ": " + r.head());
            assertEquals("", r.body(), "refused by the listener, nothing from the application");
        }
    }

    /**
     * Hostile sign-in input through a valid CSRF pair (the cookie and the hidden field of a freshly loaded login
     * page), as username and as password: the sign-in logic sees every value and refuses it as wrong credentials
     * (or, when the form is over the body limit, 413) — never as a forged form — and the page shows the username
     * escaped. The throttling rows are cleared before each attempt: this test is about input handling, not about the
     * brute-force limits, which would otherwise answer "wait" without looking at the value.
     */
    @Test
    void hostileSignInInputThroughAValidCsrfPair() {
        int sent = 0;
        for (String value : HostilePayloads.values()) {
            for (boolean asUsername : List.of(true, false)) {
                UserAgent ua = new UserAgent(BASE);
                Http.Res login = ua.follow(ua.authorize(validAuthorizeParams()));
                assertEquals(200, login.status(), login::toString);
                assertTrue(ua.cookie(BrowserCookies.CSRF).isPresent(), "the login page sets the CSRF cookie");
                Map<String, String> fields = UserAgent.formFields(login.body(), "login");
                assertFalse(fields.getOrDefault("login:csrf", "").isEmpty(), "the login page has the CSRF field");
                Db.update("DELETE FROM login_throttle");
                Http.Res r = ua.signIn(login, asUsername ? value : user.username(),
                        asUsername ? "not-the-password" : value);
                String what = (asUsername ? "username " : "password ") + HostilePayloads.json(
                        value.length() > 60 ? value.substring(0, 60) + "…" : value) + ": " + r;
                noServerError(r);
                sent++;
                if (r.status() == 413) {
                    assertTrue(value.length() > 20_000, what);
                    assertShape(Shape.PAGE, r.header("Content-Type"), r.body(), what);
                    continue;
                }
                assertEquals(200, r.status(), what);
                // a value that could open a tag or close an attribute must only appear escaped
                assertFalse(value.matches("(?s).*[<\"].*") && r.body().contains(value), () -> "reflected raw: " + what);
                assertFalse(r.body().contains("Exception"), () -> "exception text: " + what);
                assertFalse(r.body().contains("This form has expired"), () -> "refused as a forged form: " + what);
                assertTrue(r.body().contains("Invalid username or password."),
                        () -> "not refused as wrong credentials: " + what);
                if (asUsername && printable(value)) {
                    assertEquals(value, UserAgent.formFields(r.body(), "login").get("login:username"),
                            () -> "the username is shown escaped: " + what);
                }
                assertFalse(r.body().contains("not-the-password"), "the password is never echoed");
            }
        }
        assertTrue(sent >= 100, "sent " + sent);
    }

    /**
     * Hostile one-time codes through a valid CSRF pair: a user signed in with the password meets a client that
     * requires a second factor and must set one up; every value reaches the enrolment's check and is refused as a
     * wrong code (or 413 over the body limit), never echoed. The user and client are removed again.
     */
    @Test
    void hostileSecondFactorCodesThroughAValidCsrfPair() {
        Http.Res created = admin().post("/admin/clients", "{\"client_name\":\"Strict app\",\"redirect_uris\":["
                + Http.q(client.redirectUri()) + "],\"scopes\":\"openid\",\"skip_consent\":true,\"require_mfa\":true}");
        assertEquals(201, created.status(), created::toString);
        String strict = created.jsonString("client_id");
        Admin.TestUser u = admin().user("correct horse battery staple");
        Map<String, String> p = validAuthorizeParams();
        p.put("client_id", strict);
        UserAgent ua = new UserAgent(BASE);
        Http.Res login = ua.follow(ua.authorize(p));
        Http.Res factor = ua.follow(ua.signIn(login, u.username(), u.password()));
        assertEquals(200, factor.status(), factor::toString);
        assertTrue(factor.body().contains("data:image/png;base64,"), "the enrolment's QR code");
        int sent = 0;
        for (String value : HostilePayloads.values()) {
            Map<String, String> f = UserAgent.formFields(factor.body(), "factor");
            f.put("factor:first-code", value);
            f.put("factor:confirm", "Confirm");
            Http.Res r = ua.submit(factor.body(), "factor", f);
            String what = "code " + HostilePayloads.json(value.length() > 60 ? value.substring(0, 60) + "…" : value)
                    + ": " + r;
            noServerError(r);
            sent++;
            if (r.status() == 413) {
                assertTrue(value.length() > 20_000, what);
                continue;
            }
            assertEquals(200, r.status(), what);
            assertFalse(value.matches("(?s).*[<\"].*") && r.body().contains(value), () -> "reflected raw: " + what);
            assertFalse(r.body().contains("Exception"), () -> "exception text: " + what);
            assertTrue(r.body().contains("That code is not valid"), () -> "not refused as a wrong code: " + what);
        }
        assertEquals(204, admin().delete("/admin/users/" + u.username()).status());
        assertEquals(204, admin().delete("/admin/clients/" + strict).status());
        assertTrue(sent >= 50, "sent " + sent);
    }

    /**
     * Hostile passkey answers through a valid CSRF pair, by class: malformed JSON, wrong types, deep nesting, over
     * the size limit, bad base64url, a challenge of another browser, a replayed challenge (of an assertion); on the
     * account page's registration and on the second-factor page's assertion. Each is refused with 400 ("could not be verified"; 413
     * over the body limit), never echoed, and registers nothing; well-formed ceremonies of a software authenticator
     * go through once. The user and client are removed again.
     */
    @Test
    void hostilePasskeyResponsesThroughAValidCsrfPair() throws Exception {
        Admin.TestUser u = admin().user("correct horse battery staple");
        Admin.TestUser someoneElse = admin().user("correct horse battery staple");
        try {
            hostilePasskeyResponses(u, someoneElse);
        } finally {
            // the users' rows (sessions, codes of the own pages' sign-in, a pending app, passkeys) go with them
            assertEquals(204, admin().delete("/admin/users/" + u.username()).status());
            assertEquals(204, admin().delete("/admin/users/" + someoneElse.username()).status());
            Db.update("DELETE FROM login_throttle");
        }
    }

    private void hostilePasskeyResponses(Admin.TestUser u, Admin.TestUser someoneElse) throws Exception {
        UserAgent ua = new UserAgent(BASE);
        Http.Res page = ua.openSignedIn("/account/security.xhtml", u);
        assertEquals(200, page.status(), page::toString);
        String ok = "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA";
        List<String> hostile = new ArrayList<>(List.of("", "{", "[]", "null", "\"just-a-string\"",
                "{\"id\":1,\"rawId\":[],\"type\":false,\"response\":\"x\"}", "[".repeat(5_000) + "]".repeat(5_000),
                "{\"id\":\"%%%\",\"rawId\":\"***\",\"type\":\"public-key\",\"response\":{\"clientDataJSON\":"
                        + "\"!!\",\"attestationObject\":\"$$\",\"authenticatorData\":\"@@\",\"signature\":\"~\"},"
                        + "\"clientExtensionResults\":{}}",
                "{\"id\":\"" + ok + "\",\"rawId\":\"" + ok + "\",\"type\":\"public-key\",\"response\":{"
                        + "\"clientDataJSON\":\"" + ok + "\",\"attestationObject\":\"" + ok + "\",\"authenticatorData\":\""
                        + ok + "\",\"signature\":\"" + ok + "\"},\"clientExtensionResults\":{}}",
                "{\"id\":\"" + "A".repeat(17_000) + "\"}"));
        hostile.addAll(HostilePayloads.values());
        int sent = 0;
        for (String value : hostile) {
            sent += postPasskey(ua, page.body(), "passkeys", "passkeys:register", value, 400);
        }

        // well-formed: a challenge given to another browser is refused; this page's challenge works once
        SoftAuthenticator key = new SoftAuthenticator(URI.create(BASE).getHost());
        Http.Res otherPage = new UserAgent(BASE).openSignedIn("/account/security.xhtml", someoneElse);
        sent += postPasskey(ua, page.body(), "passkeys", "passkeys:register", key.create(challenge(otherPage), BASE), 400);
        String registration = key.create(challenge(page), BASE);
        assertEquals(303, postPasskey(ua, page.body(), "passkeys", "passkeys:register", registration));
        // the same answer again registers nothing (the session now owes the new factor, policy "enrolled", so the
        // gate sends it to sign in; PasskeysTest covers the used-up challenge itself)
        Http.Res again = postPasskeyRaw(ua, page.body(), "passkeys", "passkeys:register", registration);
        noServerError(again);
        sent++;
        assertEquals(1, Db.count("SELECT COUNT(*) FROM webauthn_credentials WHERE user_id = ?", u.userId()));

        // the second-factor page: a step-up by acr_values offers the passkey
        Map<String, String> p = validAuthorizeParams();
        p.put("acr_values", "urn:portcullis:acr:mfa");
        Http.Res factor = ua.follow(ua.authorize(p));
        assertEquals(200, factor.status(), factor::toString);
        assertTrue(factor.body().contains("data-passkey=\"get\""), "the page offers the passkey");
        for (String value : hostile) {
            Db.update("DELETE FROM login_throttle");
            sent += postPasskey(ua, factor.body(), "factor", "factor:use-passkey", value, 400);
        }
        Db.update("DELETE FROM login_throttle");
        String assertion = key.get(challenge(factor), BASE, 1, true);
        Http.Res used = postPasskeyRaw(ua, factor.body(), "factor", "factor:use-passkey", assertion);
        assertEquals(303, used.status(), used::toString);
        // the sign-in step rotated the CSRF cookie: the replay carries the new token (the cookie bound to the
        // session, as BrowserCookies derives it), so only the used challenge can refuse it
        String oldCsrf = UserAgent.formFields(factor.body(), "factor").get("factor:csrf");
        String newCsrf = Secrets.hmac(ua.cookie(BrowserCookies.SESSION).orElseThrow(),
                ua.cookie(BrowserCookies.CSRF).orElseThrow());
        String replay = factor.body().replace(oldCsrf, newCsrf);
        sent += postPasskey(ua, replay, "factor", "factor:use-passkey", assertion, 400);

        assertTrue(sent >= 2 * HostilePayloads.values().size(), "sent " + sent);
    }

    private static String challenge(Http.Res page) {
        int at = page.body().indexOf("data-challenge=\"");
        assertTrue(at > 0, "no passkey challenge on the page: " + page);
        return page.body().substring(at + 16, page.body().indexOf('"', at + 16));
    }

    /** Posts {@code value} as the passkey answer of {@code formId}; expects {@code status} (or 413), returns 1. */
    private int postPasskey(UserAgent ua, String page, String formId, String button, String value, int status) {
        Http.Res r = postPasskeyRaw(ua, page, formId, button, value);
        String what = "passkey " + HostilePayloads.json(value.length() > 60 ? value.substring(0, 60) + "…" : value)
                + ": " + r;
        noServerError(r);
        if (r.status() == 413) {
            assertTrue(value.length() > 16_000, what);
            return 1;
        }
        assertEquals(status, r.status(), what);
        assertFalse(value.matches("(?s).*[<\"].*") && r.body().contains(value), () -> "reflected raw: " + what);
        assertFalse(r.body().contains("Exception"), () -> "exception text: " + what);
        assertTrue(r.body().contains("could not be verified"), () -> "not refused as a passkey: " + what);
        return 1;
    }

    private int postPasskey(UserAgent ua, String page, String formId, String button, String value) {
        return postPasskeyRaw(ua, page, formId, button, value).status();
    }

    private Http.Res postPasskeyRaw(UserAgent ua, String page, String formId, String button, String value) {
        Map<String, String> f = UserAgent.formFields(page, formId);
        f.put("passkey", value);
        f.put(button, "x");
        requests++;
        return ua.submit(page, formId, f);
    }

    /** A value that survives a round trip through an HTML attribute as is: no control characters or lone surrogates. */
    private static boolean printable(String v) {
        return v.codePoints().allMatch(c -> c >= 0x20 && c != 0x7f && !(c >= 0xD800 && c <= 0xDFFF));
    }

    /**
     * The endpoint's error shape: JSON with an {@code error} member on OAuth/API endpoints; on browser endpoints an
     * HTML page with an alert ({@code id="error-message"}, or the form's own {@code role="alert"} message).
     */
    private static void assertShape(Shape shape, Http.RawRes r, String what) {
        assertShape(shape, r.header("Content-Type"), r.body(), what);
    }

    private static void assertShape(Shape shape, String contentType, String body, String what) {
        String type = String.valueOf(contentType);
        if (shape == Shape.JSON) {
            assertTrue(type.startsWith("application/json"), () -> "not JSON: " + what);
            assertTrue(body.contains("\"error\":\""), () -> "no error member: " + what + "\n" + body);
        } else {
            assertTrue(type.startsWith("text/html"), () -> "not a page: " + what);
            assertTrue(body.contains("id=\"error-message\"") || body.contains("role=\"alert\""),
                    () -> "no error message: " + what + "\n" + body);
            assertFalse(body.contains("Exception"), () -> "exception text: " + what);
        }
    }

    /** Sends {@code request} byte for byte, closes the sending side, and reads the first answer (status 0: none). */
    private Http.RawRes raw(String request) {
        requests++;
        URI b = URI.create(BASE);
        try (Socket s = new Socket(b.getHost(), b.getPort())) {
            s.setSoTimeout(60_000);
            s.getOutputStream().write(request.getBytes(StandardCharsets.UTF_8));
            s.shutdownOutput();
            String all = new String(s.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (all.isEmpty()) {
                return new Http.RawRes(0, "", "");
            }
            int headEnd = all.indexOf("\r\n\r\n");
            String head = headEnd < 0 ? all : all.substring(0, headEnd);
            String body = headEnd < 0 ? "" : all.substring(headEnd + 4);
            if (head.contains("Transfer-Encoding: chunked")) {
                body = unchunk(body);
            }
            return new Http.RawRes(Integer.parseInt(head.split(" ", 3)[1]), head, body);
        } catch (java.net.SocketException e) {
            return new Http.RawRes(0, "", ""); // the server closed the connection without an answer
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String unchunk(String chunked) {
        StringBuilder out = new StringBuilder();
        int i = 0;
        while (i < chunked.length()) {
            int eol = chunked.indexOf("\r\n", i);
            if (eol < 0) {
                break;
            }
            if (eol == i) { // the line break after a chunk's data
                i += 2;
                continue;
            }
            int size;
            try {
                size = Integer.parseInt(chunked.substring(i, eol).trim(), 16);
            } catch (NumberFormatException e) {
                throw new AssertionError("broken chunked answer: " + chunked, e);
            }
            if (size == 0) {
                break;
            }
            // sizes count bytes, the text is decoded: the error bodies are ASCII, so both agree
            out.append(chunked, eol + 2, Math.min(chunked.length(), eol + 2 + size));
            i = eol + 2 + size + 2;
        }
        return out.toString();
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

    /** A read that may legitimately answer: a JSON list of {@code field} (what the text found), or an error. */
    private void checkJsonListOrError(Http.Res r, String field) {
        noServerError(r);
        if (r.status() == 200) {
            assertTrue(r.json().get(field) instanceof List, () -> "not a list of " + field + ": " + r);
            assertFalse(r.body().contains("password") || r.body().contains("session_hash"), () -> "leak: " + r);
        } else {
            checkJsonOrEmpty(r);
        }
    }

    /** A page that shows what was sent (a search box, a form shown again): no server error, markup only escaped. */
    private void checkEscapedEcho(Http.Res r, String sent) {
        noServerError(r);
        assertFalse(sent.length() > 1 && sent.matches("(?s).*[<\"].*") && r.body().contains(sent),
                () -> "reflected input: " + r);
        assertFalse(r.body().contains(HostilePayloads.SCRIPT), () -> "reflected script: " + r);
        assertFalse(r.body().contains("Exception"), () -> "exception text in page: " + r);
    }

    private void checkHtml(Http.Res r, String sent) {
        noServerError(r);
        if (r.header("Content-Type") != null && r.header("Content-Type").startsWith("text/html")) {
            // what was sent, if it could open a tag or close an attribute, may only come back escaped
            assertFalse(sent.length() > 1 && sent.matches("(?s).*[<\"].*") && r.body().contains(sent),
                    () -> "reflected input: " + r);
            assertFalse(r.body().contains(HostilePayloads.SCRIPT), () -> "reflected script: " + r);
            assertFalse(r.body().contains("onerror=alert"), () -> "reflected attribute: " + r);
            assertFalse(r.body().contains("Exception"), () -> "exception text in page: " + r);
        }
    }

    /** Over the listener's 8 KiB header limit: the server may answer by closing the connection. */
    private static boolean oversized(int requestSize) {
        return requestSize > 8000;
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
            r = call.apply(oversized(size) ? new Http(BASE) : http);
        } catch (java.io.UncheckedIOException e) {
            requests++;
            assertTrue(oversized(size), () -> "connection dropped for a normal-sized request: " + e);
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
