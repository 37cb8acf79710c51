package dev.portcullis.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.portcullis.testing.Db;
import dev.portcullis.testing.Http;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Hostile input to the OAuth and OpenID Connect endpoints: every parameter of /oauth/authorize, the token, revocation
 * and introspection endpoints (bodies, every parameter, Basic credentials), userinfo's bearer header and logout; and
 * to the admin API: bodies, merge patches, path segments, searches and paging keys, where nothing is created and no
 * hostile patch changes the user or the client.
 */
class HostileProtocolInputIT extends HostileInputTestBase {

    HostileProtocolInputIT() {
        super(1000); // authorizeEndpoint, tokenEndpoint, userinfo, logoutEndpoint and adminApi, which every server
                     // runs, send 200 each
    }

    // ---- endpoints -------------------------------------------------------------------------------------------

    @Test
    void authorizeEndpoint() {
        List<String> names = List.of("client_id", "redirect_uri", "response_type", "scope", "state", "nonce",
                "code_challenge", "code_challenge_method", "prompt", "max_age", "ui_locales", "login_hint",
                "response_mode", "request_uri", "request");
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
    void tokenEndpoint() {
        sweepJsonEndpoint("/oauth/token", List.of("grant_type", "code", "redirect_uri", "client_id", "client_secret",
                "code_verifier", "refresh_token", "scope"), true);
    }

    @Test
    void pushedAuthorizationEndpoint() {
        sweepJsonEndpoint("/oauth/par", List.of("client_id", "client_secret", "response_type", "redirect_uri", "scope",
                "state", "response_mode", "request_uri", "request", "code_challenge"), true);
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
        // broken escapes, invalid UTF-8, repeated names: as a query and as a relying party's or a client's form post
        for (String raw : malformedForms()) {
            checkRaw(http.rawGet("/oauth/logout?" + raw));
            checkHtmlOrRedirect(http.post("/oauth/logout", "application/x-www-form-urlencoded", raw), raw);
            sent += 2;
        }
        for (String raw : List.of("refresh_token=%zz", "refresh_token=x&refresh_token=y", "refresh_token=%C3%28",
                "refresh_token=x&client_id=%FF%FE")) {
            checkJson(http.post("/oauth/logout", "application/x-www-form-urlencoded", raw));
            sent++;
        }
        for (String body : HostilePayloads.bodies()) {
            checkHtmlOrRedirect(http.post("/oauth/logout", "application/x-www-form-urlencoded", body), body);
            sent++;
        }
        assertTrue(sent >= 200);
    }

    /** Form-encoded parameters whose encoding is broken: each must be refused by its endpoint's error, never a 5xx. */
    private static List<String> malformedForms() {
        return List.of("id_token_hint=%zz", "%zz=1", "state=%", "state=%4", "state=%C3%28", "state=%FF%FE",
                "state=%ED%A0%80", "client_id=%00", "state=a&state=b", "post_logout_redirect_uri=%zz&state=%zz",
                "ui_locales=%E2%82", "%", "&&&", "=", "state", "csrf=%zz", "csrf=x&csrf=y");
    }

    // ---- admin API -----------------------------------------------------------------------------------------------

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
        for (String raw : malformedForms()) {
            checkJson(http.post(path, "application/x-www-form-urlencoded", raw));
            checkJson(http.post(path, "application/x-www-form-urlencoded", "grant_type=authorization_code&" + raw));
            sent += 2;
        }
        checkJson(http.post(path, null, "grant_type=authorization_code"));
        checkJson(http.post(path, "multipart/form-data; boundary=x", "--x\r\n\r\n--x--"));
        checkJson(send(http.request(path), r -> r.GET()));
        assertTrue(sent >= 200, path + ": " + sent);
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
}
