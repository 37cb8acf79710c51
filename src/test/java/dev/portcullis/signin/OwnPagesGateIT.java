package dev.portcullis.signin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.portcullis.session.BrowserCookies;
import dev.portcullis.testing.Admin;
import dev.portcullis.testing.Db;
import dev.portcullis.testing.Http;
import dev.portcullis.testing.ServerTestBase;
import dev.portcullis.testing.UserAgent;
import java.net.URI;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The gate of the account page and the console, tried as an attacker would, by class of input: every action of every
 * own page (each form the pages render, with its key fields filled in and its confirmation given), under every
 * spelling of its path that a servlet container may dispatch to the same page (encoded letters, {@code %2e},
 * {@code %2f}, dot segments, doubled slashes, path parameters, backslashes, case, double encoding), with GET, POST and
 * the other methods, sent by a browser without a session (with a CSRF pair it planted itself), by a signed-in
 * non-administrator (with their own valid form token), and with a form token of another session. The victim is
 * locked out (so an unlock would show) and has a passkey and an app, and their security page is read before and
 * after a step-up, so the set-up and removal forms are swept too. Nothing may change: the rows of every table are
 * compared, column by column, before and after, and the audit trail may only have gained refusals. Each answer must
 * be one the gate or the container gives a refused request. Runs on every server.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class OwnPagesGateIT extends ServerTestBase {

    private static final String PASSWORD = "correct horse battery staple";
    /** The columns that merely record a visit, left out of the comparison. */
    private static final Set<String> VISIT_COLUMNS = Set.of("last_seen_at", "directory_checked_at");
    /**
     * What a container answers a spelling it does not dispatch to a page, whoever asks: malformed (400), forbidden
     * (403), no such resource (404), a method its default servlet does not take (405).
     */
    private static final Set<Integer> CONTAINER_REFUSALS = Set.of(400, 403, 404, 405);
    /** The areas' home pages: the gate sends a spelling it places at an area's root there (302). */
    private static final Set<String> HOMES = Set.of("/account/index.xhtml", "/admin/console/index.xhtml");
    /** How many spellings a signed-in user's sweep sends (the gate's placing of spellings is swept without one). */
    private static final int SIGNED_IN_SPELLINGS = 8;
    private static final List<String> OTHER_METHODS = List.of("PUT", "DELETE", "PATCH", "OPTIONS", "HEAD");
    /** A CSRF cookie an attacker plants in their own browser: 43 characters, as the server makes them. */
    private static final String PLANTED = "A".repeat(43);

    /** One action: the path of its page, and its form's fields with the button pressed. */
    private record Action(String path, String form, Map<String, String> fields) {
    }

    private final List<Action> consoleActions = new ArrayList<>();
    private final List<Action> accountActions = new ArrayList<>();
    private UserAgent nonAdministrator;
    private String nonAdministratorCsrf;
    private String victimCsrf;
    private Map<String, List<String>> rowsBefore;
    private long lastAuditEvent;
    private List<Map<String, Object>> auditBefore;
    private final List<String> wrongAnswers = new ArrayList<>();
    private int sent;

    @BeforeAll
    void fixtures() {
        Admin admin = admin();
        Admin.TestUser boss = admin.user(PASSWORD);
        assertEquals(200, admin.patch("/admin/users/" + boss.username(), "{\"roles\":[\"admin\"]}").status());
        Admin.TestUser victim = admin.user(PASSWORD);
        Admin.TestUser plain = admin.user(PASSWORD);
        Admin.TestClient client = admin.client(true, "openid profile", false, "https://victim.example.com/cb");

        UserAgent console = new UserAgent(BASE);
        assertEquals(200, console.openSignedIn("/admin/console/index.xhtml", boss).status());
        // the victim: two sessions (so "end the others" renders) and an authorized application (so "revoke" does)
        UserAgent victimBrowser = new UserAgent(BASE);
        assertEquals(200, victimBrowser.openSignedIn("/account/index.xhtml", victim).status());
        new UserAgent(BASE).authorizeAndGetRedirectParams(client, victim, Map.of());
        victimBrowser.authorizeAndGetRedirectParams(client, victim, Map.of());
        nonAdministrator = new UserAgent(BASE);
        Http.Res own = nonAdministrator.openSignedIn("/account/index.xhtml", plain);
        nonAdministratorCsrf = UserAgent.formFields(own.body(), "password").get("csrf");
        // the user's own security page, viewed once before the snapshot: whatever a view of it writes is there already
        assertEquals(200, nonAdministrator.get("/account/security.xhtml").status());

        for (String page : List.of("/admin/console/index.xhtml", "/admin/console/users.xhtml?q=" + victim.username(),
                "/admin/console/clients.xhtml", "/admin/console/client.xhtml?id=" + client.clientId(),
                "/admin/console/user.xhtml?username=" + victim.username(),
                "/admin/console/sessions.xhtml?user=" + victim.username(), "/admin/console/keys.xhtml",
                "/admin/console/audit.xhtml")) {
            consoleActions.addAll(actionsOf(console, page));
        }
        accountActions.addAll(actionsOf(victimBrowser, "/account/index.xhtml"));
        accountActions.addAll(securityPageActions(victimBrowser, victim));
        // the victim is locked out, so an unlock that got through would show in login_throttle
        long now = Instant.now().getEpochSecond();
        Db.update("INSERT INTO login_throttle (throttle_key, failures, first_failure_at, locked_until) "
                + "VALUES (?, 10, ?, ?)", "user:" + victim.username().toLowerCase(Locale.ROOT), now, now + 3600);
        victimCsrf = accountActions.get(0).fields().get("csrf");
        Set<String> forms = consoleActions.stream().map(Action::form).collect(Collectors.toSet());
        assertTrue(forms.containsAll(List.of("create", "edit", "rotate", "toggle", "delete", "password", "factors",
                "unlock", "end", "revoke")), "console forms found: " + forms);
        assertTrue(consoleActions.size() >= 15, "console actions: " + consoleActions.size());
        Set<String> accountForms = accountActions.stream().map(Action::form).collect(Collectors.toSet());
        assertTrue(accountForms.containsAll(List.of("end", "others", "revoke", "password", "security", "passkeys",
                "delete", "step-up-passkey")), "account forms found: " + accountForms);
        Set<String> securityButtons = accountActions.stream().flatMap(a -> a.fields().keySet().stream())
                .filter(f -> f.startsWith("security:") || f.startsWith("passkeys:")).collect(Collectors.toSet());
        assertTrue(securityButtons.containsAll(List.of("security:confirm-password", "security:confirm-code",
                "security:confirm", "security:remove", "passkeys:register")), "security buttons: " + securityButtons);
    }

    /**
     * The forms of the victim's security page in each of its states: the password step-up (no factor yet), the
     * factor step-up (a passkey), then after a step-up the app's set-up and the passkey's registration and removal,
     * and the app's removal once it is confirmed. The factors and the step-up are written straight into the
     * database, so no other session of the victim ends before the sweep.
     */
    private static List<Action> securityPageActions(UserAgent victimBrowser, Admin.TestUser victim) {
        String page = "/account/security.xhtml";
        Map<String, Action> unique = new LinkedHashMap<>();
        long now = Instant.now().getEpochSecond();
        Runnable read = () -> actionsOf(victimBrowser, page).forEach(a -> unique.putIfAbsent(
                a.form() + " " + new TreeSet<>(a.fields().keySet()), a));
        read.run();
        Db.update("INSERT INTO webauthn_credentials (passkey_id, user_id, credential_hash, credential_id, public_key, "
                + "name, sign_count, created_at) VALUES (?, ?, ?, ?, 'not a key', 'Laptop', 0, ?)",
                "pk-" + victim.userId(), victim.userId(), "hash-" + victim.userId(), "id-" + victim.userId(), now);
        read.run();
        Db.update("UPDATE sso_sessions SET factor_at = ? WHERE user_id = ?", now, victim.userId());
        read.run();
        Db.update("UPDATE totp_factors SET confirmed_at = ?, session_hash = NULL WHERE user_id = ?", now,
                victim.userId());
        Db.update("INSERT INTO recovery_codes (user_id, code_hash) VALUES (?, 'not a code')", victim.userId());
        read.run();
        return new ArrayList<>(unique.values());
    }

    @BeforeEach
    void snapshot() {
        sent = 0;
        wrongAnswers.clear();
        rowsBefore = rows();
        lastAuditEvent = Db.lastAuditEvent();
        auditBefore = auditUpTo(lastAuditEvent);
    }

    @AfterEach
    void nothingChanged() {
        assertEquals(rowsBefore, Db.withoutPurge(rowsBefore, rows(), lastAuditEvent),
                "an action refused by the gate changed rows");
        assertEquals(List.of(), wrongAnswers.subList(0, Math.min(20, wrongAnswers.size())),
                wrongAnswers.size() + " answers a refused request does not get");
        assertEquals(auditBefore, auditUpTo(lastAuditEvent), "the audit trail was rewritten");
        // a refused request may be recorded as a refusal, never as a change; the scheduled purge is nobody's request
        List<Map<String, Object>> changes = Db.rows("SELECT * FROM audit_events WHERE event_id > ? "
                + "AND outcome <> 'failure' AND event_type <> 'EXPIRED_ROWS_PURGED'", lastAuditEvent);
        assertEquals(List.of(), changes, "a refused request was audited as a change");
    }

    /** No session: the attacker's own browser carries a CSRF cookie it planted and the matching form token. */
    @Test
    void withoutASessionNoSpellingOfAnyActionDoesAnything() {
        List<String> cookie = List.of("Cookie: " + BrowserCookies.CSRF + "=" + PLANTED);
        for (Action a : union(consoleActions, accountActions)) {
            attack(a, cookie, PLANTED, OwnPagesGateIT::toSignIn);
        }
        assertTrue(sent >= 1000, "sent " + sent);
    }

    /** A signed-in user without the admin role, with the form token of their own session, on every console action. */
    @Test
    void aNonAdministratorChangesNothingOnTheConsole() {
        List<String> cookie = List.of("Cookie: " + cookies(nonAdministrator));
        for (Action a : consoleActions) {
            attack(a, cookie, nonAdministratorCsrf, (method, r) -> r.status() == 403);
        }
        assertTrue(sent >= 500, "sent " + sent);
    }

    /**
     * A signed-in user posting the victim's account forms (their session ids, their application, their passkey) with
     * the form token of the victim's session, then with their own: the first is another session's token (refused),
     * the second acts only on the user's own account, where none of those ids are theirs. The forms that carry no id
     * (a password, a code, a new factor) are the user's own credentials with their own token, which AccountPageIT and
     * SecondFactorIT try; here they are sent with the victim's token only. The actions check the token whatever the
     * path's spelling, so a few spellings serve here; the other tests send them all.
     */
    @Test
    void anotherSessionsTokenOrIdsChangeNothingOnTheAccountPage() {
        List<String> cookie = List.of("Cookie: " + cookies(nonAdministrator));
        for (Action a : accountActions) {
            // another session's token: the action answers 403; a form the user's own page does not render is not
            // decoded (stateless views), so that page is answered as it is, 200; never a done-redirect
            attack(a, cookie, victimCsrf, (method, r) -> r.status() == 403 || r.status() == 200,
                    SIGNED_IN_SPELLINGS);
            if (!NAMES_ANOTHERS.contains(a.form())) {
                continue;
            }
            Map<String, String> ownToken = new LinkedHashMap<>(a.fields());
            ownToken.put("csrf", nonAdministratorCsrf);
            Http.RawRes r = http().raw("POST", a.path(), cookie, Http.form(ownToken));
            sent++;
            // their own (empty) work done (303), refused (403), or the form not theirs to have (200)
            expect(a, "POST own-token " + a.path(), r, (method, res) -> Set.of(200, 303, 403).contains(res.status()));
        }
        assertTrue(sent >= 200, "sent " + sent);
    }

    /** The account forms that name the victim's things (a session, an application, a passkey). */
    private static final Set<String> NAMES_ANOTHERS = Set.of("end", "others", "revoke", "delete");

    /** The gate's answer to a browser without a session: to the sign-in (302 for a page, 303 for a form). */
    private static boolean toSignIn(String method, Http.RawRes r) {
        int expected = method.equals("GET") || method.equals("HEAD") ? 302 : 303;
        return r.status() == expected && String.valueOf(r.header("Location")).contains("/oauth/authorize?");
    }

    /** Whether {@code r} is the gate's (or the page's) answer to a refused request sent with {@code method}. */
    private interface Answer {
        boolean refused(String method, Http.RawRes r);
    }

    /**
     * Sends action {@code a} under every spelling of its path: POST with the form, GET with the form as the query
     * (Faces treats a GET carrying the view state as a postback), the other methods with the form as body. Each
     * answer must be {@code gate}'s, or the container's refusal of a spelling it dispatches nowhere (400, 404), or,
     * for a method no page answers, 405.
     */
    private void attack(Action a, List<String> headers, String csrf, Answer gate) {
        attack(a, headers, csrf, gate, Integer.MAX_VALUE);
    }

    /** As {@link #attack(Action, List, String, Answer)}, with the first {@code most} spellings only. */
    private void attack(Action a, List<String> headers, String csrf, Answer gate, int most) {
        Map<String, String> fields = new LinkedHashMap<>(a.fields());
        fields.put("csrf", csrf);
        String body = Http.form(fields);
        String query = a.path().contains("?") ? "&" : "?";
        List<String> all = spellings(a.path().replaceFirst("\\?.*", ""));
        List<String> spellings = all.subList(0, Math.min(most, all.size()));
        String pageQuery = a.path().contains("?") ? a.path().substring(a.path().indexOf('?')) : "";
        Answer refused = (method, r) -> CONTAINER_REFUSALS.contains(r.status()) || containerRedirect(r)
                || gate.refused(method, r)
                || r.status() == 302 && HOMES.contains(URI.create(String.valueOf(r.header("Location"))).getPath());
        for (String spelling : spellings) {
            String target = spelling + pageQuery;
            expect(a, "POST " + target, http().raw("POST", target, headers, body), refused);
            expect(a, "GET " + target, http().raw("GET", target + query + body, headers, null), refused);
        }
        for (String method : OTHER_METHODS) {
            for (String target : List.of(a.path(), spellings.get(1) + pageQuery)) {
                expect(a, method + " " + target, http().raw(method, target, headers, body), refused);
            }
        }
    }

    /**
     * A container's redirect of a spelling to another that no page answers (Payara: 301 to a directory or to the
     * path parameter encoded; others: a temporary redirect to a directory): never a 303, which is a page's answer.
     */
    private static boolean containerRedirect(Http.RawRes r) {
        String location = String.valueOf(r.header("Location"));
        return r.status() == 301 || r.status() == 308
                || (r.status() == 302 || r.status() == 307) && URI.create(location).getPath().endsWith("/");
    }

    /** Notes an answer {@code allowed} does not accept (all are reported together after the test). */
    private void expect(Action a, String request, Http.RawRes r, Answer allowed) {
        sent++;
        if (!allowed.refused(request.substring(0, request.indexOf(' ')), r)) {
            wrongAnswers.add(a.form() + " " + request + ": " + r.status() + " " + r.header("Location"));
        }
    }

    /**
     * The spellings of {@code path} ({@code /a/b/c.xhtml}) that a servlet container may dispatch to the same page,
     * and near misses it must not: the path itself first, then each change applied to each segment and each slash.
     */
    static List<String> spellings(String path) {
        String[] seg = path.substring(1).split("/");
        Set<String> out = new LinkedHashSet<>();
        out.add(path);
        for (int i = 0; i < seg.length; i++) {
            String s = seg[i];
            String hex = String.format("%02x", (int) s.charAt(0));
            for (String spelled : List.of("%" + hex + s.substring(1), "%" + hex.toUpperCase(Locale.ROOT) + s.substring(1),
                    "%25" + hex + s.substring(1), s + ";x", s + ";jsessionid=0", s.toUpperCase(Locale.ROOT))) {
                String[] copy = seg.clone();
                copy[i] = spelled;
                out.add(joined(copy, i, "/"));
            }
        }
        for (int i = 0; i < seg.length - 1; i++) {
            for (String slash : List.of("//", "/./", "/%2e/", "/x/../", "/x/%2e%2e/", "/x/%2E%2E/", "/%c0%ae/", "%2f",
                    "%2F", "\\", "%5c")) {
                out.add(joined(seg, i, slash));
            }
        }
        out.add("/" + path);
        out.add("/x/.." + path);
        out.add("/." + path);
        out.add(path + ";");
        out.add(path + "/");
        out.add(path + "%20");
        out.add(path + ".");
        out.add(path + "%00");
        return new ArrayList<>(out);
    }

    /** The segments joined by slashes, the one after segment {@code i} spelled {@code slash}. */
    private static String joined(String[] seg, int i, String slash) {
        StringBuilder b = new StringBuilder();
        for (int k = 0; k < seg.length; k++) {
            b.append(k == i + 1 ? slash : "/").append(seg[k]);
        }
        return b.toString();
    }

    /** Every form of {@code page} as {@code browser} sees it, once per submit button, with the deletion confirmed. */
    private static List<Action> actionsOf(UserAgent browser, String page) {
        Http.Res r = browser.get(page);
        assertEquals(200, r.status(), () -> page + ": " + r);
        List<Action> out = new ArrayList<>();
        Matcher form = Pattern.compile("<form\\b[^>]*\\bmethod=\"post\"[^>]*>(.*?)</form>", Pattern.DOTALL)
                .matcher(r.body());
        while (form.find()) {
            String id = attribute(form.group(), "id");
            if (id == null || id.equals("logout")) {
                continue; // the sign-out form posts to the logout endpoint, not to an own page
            }
            Map<String, String> fields = new LinkedHashMap<>();
            List<String> buttons = new ArrayList<>();
            Matcher input = Pattern.compile("<input\\b[^>]*>").matcher(form.group(1));
            while (input.find()) {
                String name = attribute(input.group(), "name");
                if (name == null) {
                    continue;
                }
                if ("submit".equals(attribute(input.group(), "type"))) {
                    buttons.add(name);
                } else {
                    String value = attribute(input.group(), "value");
                    fields.put(name, value == null ? "x" : value.replace("&amp;", "&"));
                }
            }
            fields.put("confirmed", "yes");
            String shortId = id.substring(id.lastIndexOf(':') + 1);
            for (String button : buttons) {
                Map<String, String> f = new LinkedHashMap<>(fields);
                f.put(button, "x");
                out.add(new Action(page, shortId, f));
            }
        }
        return out;
    }

    private static String attribute(String tag, String name) {
        Matcher m = Pattern.compile("\\s" + name + "=\"([^\"]*)\"").matcher(tag.substring(0, tag.indexOf('>') + 1));
        return m.find() ? m.group(1) : null;
    }

    private static String cookies(UserAgent browser) {
        return BrowserCookies.SESSION + "=" + browser.cookie(BrowserCookies.SESSION).orElseThrow() + "; "
                + BrowserCookies.CSRF + "=" + browser.cookie(BrowserCookies.CSRF).orElseThrow();
    }

    private static List<Action> union(List<Action> a, List<Action> b) {
        List<Action> all = new ArrayList<>(a);
        all.addAll(b);
        return all;
    }

    /** Every row of every table but the audit trail (compared apart), the visit columns left out. */
    private static Map<String, List<String>> rows() {
        Map<String, List<String>> m = Db.everyRow(VISIT_COLUMNS);
        m.remove("audit_events");
        return m;
    }

    private static List<Map<String, Object>> auditUpTo(long eventId) {
        return Db.rows("SELECT * FROM audit_events WHERE event_id <= ? ORDER BY event_id", eventId);
    }
}
