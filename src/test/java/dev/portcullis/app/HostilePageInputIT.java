package dev.portcullis.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.portcullis.crypto.Secrets;
import dev.portcullis.session.BrowserCookies;
import dev.portcullis.testing.Admin;
import dev.portcullis.testing.Db;
import dev.portcullis.testing.Http;
import dev.portcullis.testing.SoftAuthenticator;
import dev.portcullis.testing.UserAgent;
import java.net.URI;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * Hostile input to the sign-in pages: forged form posts to the login, consent, second-factor and security pages, and
 * hostile usernames, passwords, one-time codes and passkey answers through a valid CSRF pair; and to the signed-in
 * pages, as an administrator with a valid CSRF token: the account page's and the console's queries and forms, the
 * console's detail pages and actions.
 */
class HostilePageInputIT extends HostileInputTestBase {

    private UserAgent administrator;
    private Admin.TestClient editable;
    private Admin.TestUser boss;

    HostilePageInputIT() {
        super(1750); // loginAndConsentForms sends 800, the sign-in 100, the second factor 50;
                     // accountPageAndConsoleForms 300, consoleDetailPagesAndActions 500
    }

    @Override
    void moreFixtures() {
        boss = admin().user("correct horse battery staple");
        assertEquals(200, admin().patch("/admin/users/" + boss.username(), "{\"roles\":[\"admin\"]}").status());
        administrator = new UserAgent(BASE);
        assertEquals(200, administrator.openSignedIn("/admin/console/index.xhtml", boss).status());
        editable = admin().confidentialClient("openid", "https://edited.example.com/cb");
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
        Http.Res page = ua.stepUpWithPassword(ua.openSignedIn("/account/security.xhtml", u), u.password());
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
        UserAgent other = new UserAgent(BASE);
        Http.Res otherPage = other.stepUpWithPassword(other.openSignedIn("/account/security.xhtml", someoneElse),
                someoneElse.password());
        sent += postPasskey(ua, page.body(), "passkeys", "passkeys:register", key.create(challenge(otherPage), BASE), 400);
        String registration = key.create(challenge(page), BASE);
        assertEquals(303, postPasskey(ua, page.body(), "passkeys", "passkeys:register", registration));
        // the same answer again registers nothing (the session now owes the new factor, policy "enrolled", so the
        // gate sends it to sign in; PasskeyServiceTest covers the used-up challenge itself)
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
            Db.update("DELETE FROM second_factor_throttle"); // each refusal counts: keep the next one unthrottled
            sent += postPasskey(ua, factor.body(), "factor", "factor:use-passkey", value, 400);
        }
        Db.update("DELETE FROM second_factor_throttle");
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
        UserAgent pages = administrator.sameBrowserAt(BASE); // one client (one connection pool) for these GETs
        for (String value : HostilePayloads.values()) {
            for (String query : List.of("/admin/console/users.xhtml?q=", "/admin/console/users.xhtml?after=",
                    "/admin/console/client.xhtml?id=", "/account/index.xhtml?done=")) {
                // the search box shows the text searched for: escaped, so only the markup check applies to it
                Consumer<Http.Res> check = query.endsWith("?q=") ? r -> checkEscapedEcho(r, value) : r -> checkHtml(r, value);
                String target = query + Http.enc(value);
                // an oversized request may leave its connection closed: it gets a client of its own (as in sized); a
                // new client for every request opened ~240 connections, and one of them once closed unanswered
                UserAgent browser = oversized(target.length()) ? administrator.sameBrowserAt(BASE) : pages;
                sized(target.length(), h -> browser.get(target), check);
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
}
