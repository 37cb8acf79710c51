package dev.portcullis.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.portcullis.testing.Admin;
import dev.portcullis.testing.Db;
import dev.portcullis.testing.Http;
import dev.portcullis.testing.ServerTestBase;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;

/**
 * Base of the hostile-input sweep, one class a surface (HostileProtocolInputIT: the OAuth/OIDC endpoints and the admin
 * API; HostilePageInputIT: the sign-in pages and the own pages; HostileRequestLimitsIT): together at least 200
 * malformed requests to every endpoint (broken, deep and huge JSON, wrong content types, duplicated parameters, 1 MB
 * values, NUL and control characters, invalid UTF-8, SQL and script injection, header injection in
 * redirect_uri/state, path traversal). Every answer must be a documented error — never a 5xx, always the JSON error
 * shape on API endpoints, never reflected unescaped input in HTML — and after each class the database holds no new
 * rows except sign-in throttling counters and audit entries. The checks of an answer are here.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class HostileInputTestBase extends ServerTestBase {

    private static final List<String> TABLES = List.of("clients", "users", "sso_sessions", "consents",
            "token_grants", "authorization_codes", "refresh_tokens", "access_tokens", "signing_keys", "totp_factors",
            "recovery_codes", "webauthn_credentials");

    final Http http = http();
    Admin.TestClient client;
    Admin.TestUser user;
    private Map<String, Long> rowsBefore;
    private long lastAuditEvent;
    int requests;

    /** How many requests the class's tests send at the least, on every server that runs them. */
    private final int minimumRequests;

    HostileInputTestBase(int minimumRequests) {
        this.minimumRequests = minimumRequests;
    }

    @BeforeAll
    void fixtures() {
        client = admin().confidentialClient("openid profile", "https://rp.example.com/cb");
        user = admin().user("correct horse battery staple");
        http.get("/.well-known/openid-configuration");
        http.get("/oauth/discovery/keys"); // signing keys exist before the snapshot
        moreFixtures();
        rowsBefore = counts();
        lastAuditEvent = Db.lastAuditEvent();
    }

    /** What a class needs besides the client and the user, created before the rows are counted. */
    void moreFixtures() {
    }

    @AfterAll
    void nothingWasWritten() {
        Map<String, Long> after = counts();
        if (Db.purgedSince(lastAuditEvent)) {
            // the scheduled purge deleted other classes' expired rows meanwhile: those tables may only have shrunk
            Db.PURGED_TABLES.stream().filter(t -> after.containsKey(t) && after.get(t) <= rowsBefore.get(t))
                    .forEach(t -> after.put(t, rowsBefore.get(t)));
        }
        assertEquals(rowsBefore, after, "hostile requests must not leave rows behind");
        assertTrue(requests >= minimumRequests, "sent " + requests + " requests");
    }

    private static Map<String, Long> counts() {
        Map<String, Long> m = new LinkedHashMap<>();
        for (String t : TABLES) {
            m.put(t, Db.count("SELECT COUNT(*) FROM " + t));
        }
        return m;
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

    /**
     * The endpoint's error shape: JSON with an {@code error} member on OAuth/API endpoints; on browser endpoints an
     * HTML page with an alert ({@code id="error-message"}, or the form's own {@code role="alert"} message).
     */
    static void assertShape(Shape shape, Http.RawRes r, String what) {
        assertShape(shape, r.header("Content-Type"), r.body(), what);
    }

    static void assertShape(Shape shape, String contentType, String body, String what) {
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

    /**
     * Sends {@code request} byte for byte, closes the sending side, and reads the first answer. A connection closed
     * without an answer fails the test: every complete request of the sweeps deserves a status, and a dropped
     * connection would hide a crash of the request's thread behind a pass.
     */
    Http.RawRes raw(String request) {
        requests++;
        Http.RawRes r = send(request);
        assertNotNull(r, () -> "connection closed without an answer: " + firstLine(request));
        return r;
    }

    /**
     * For a request the client itself leaves incomplete (a body shorter than announced, then the sending side closed):
     * the listener may close without an answer (RFC 9112 sec. 8), so null then — but only once the server has
     * answered the next, complete request, so that a crash cannot pass for that.
     */
    Http.RawRes rawIncomplete(String request) {
        requests++;
        Http.RawRes r = send(request);
        if (r == null) {
            Http.RawRes next = send("GET /.well-known/openid-configuration HTTP/1.1\r\nHost: localhost\r\n"
                    + "Connection: close\r\n\r\n");
            assertTrue(next != null && next.status() == 200,
                    () -> "the server no longer answers after an incomplete " + firstLine(request));
        }
        return r;
    }

    /** One request on a connection of its own; null when the connection closed without an answer. */
    private Http.RawRes send(String request) {
        URI b = URI.create(BASE);
        String all;
        try (Socket s = new Socket(b.getHost(), b.getPort())) {
            s.setSoTimeout(60_000);
            s.getOutputStream().write(request.getBytes(StandardCharsets.UTF_8));
            s.shutdownOutput();
            all = new String(s.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        } catch (java.net.SocketException e) {
            return null; // reset without an answer
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        if (all.isEmpty()) {
            return null;
        }
        int headEnd = all.indexOf("\r\n\r\n");
        String head = headEnd < 0 ? all : all.substring(0, headEnd);
        String body = headEnd < 0 ? "" : all.substring(headEnd + 4);
        if (head.contains("Transfer-Encoding: chunked")) {
            body = unchunk(body);
        }
        return new Http.RawRes(Integer.parseInt(head.split(" ", 3)[1]), head, body);
    }

    private static String firstLine(String request) {
        int eol = request.indexOf("\r\n");
        return eol < 0 ? request : request.substring(0, eol);
    }

    static String unchunk(String chunked) {
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

    Map<String, String> validAuthorizeParams() {
        Map<String, String> p = new LinkedHashMap<>();
        p.put("client_id", client.clientId());
        p.put("redirect_uri", client.redirectUri());
        p.put("response_type", "code");
        p.put("scope", "openid");
        p.put("state", "s");
        return p;
    }

    List<String> rawQueries() {
        String ok = "client_id=" + client.clientId() + "&redirect_uri=" + Http.enc(client.redirectUri());
        return List.of(ok + "&state=a&state=b", ok + "&client_id=x", ok + "&scope=%zz", ok + "&state=%00",
                ok + "&state=%0d%0aSet-Cookie:%20x=1", ok + "&redirect_uri=" + Http.enc(client.redirectUri()),
                ok + "&state=%C3%28", ok + "&state=%FF%FE", "%", "&&&", "client_id", ok + "&response_type=code&response_type=token",
                "redirect_uri=https://evil.example.com/cb&client_id=" + client.clientId() + "&response_type=code");
    }

    Http.Res send(HttpRequest.Builder b, Consumer<HttpRequest.Builder> method, String... headers) {
        return send(http, b, method, headers);
    }

    static Http.Res send(Http via, HttpRequest.Builder b, Consumer<HttpRequest.Builder> method, String... headers) {
        method.accept(b);
        if (headers.length > 0) {
            b.headers(headers);
        }
        return via.send(b.build());
    }

    void noServerError(Http.Res r) {
        requests++;
        assertTrue(r.status() >= 100, () -> "no answer: " + r);
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
    static boolean refusedByHttpLayer(Http.Res r) {
        return (r.status() == 414 || r.status() == 431 || r.status() == 400) && r.body().isEmpty()
                && r.header("Content-Type") == null;
    }

    void checkJson(Http.Res r) {
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
    void checkJsonOrEmpty(Http.Res r) {
        noServerError(r);
        if (!r.body().isEmpty()) {
            checkJson(r);
        } else {
            assertTrue(r.status() >= 400, () -> "hostile input accepted: " + r);
        }
    }

    /** A page that shows what was sent (a search box, a form shown again): no server error, markup only escaped. */
    void checkEscapedEcho(Http.Res r, String sent) {
        noServerError(r);
        assertFalse(sent.length() > 1 && sent.matches("(?s).*[<\"].*") && r.body().contains(sent),
                () -> "reflected input: " + r);
        assertFalse(r.body().contains(HostilePayloads.SCRIPT), () -> "reflected script: " + r);
        // the audit log's detail cells may name why a passkey was rejected (webauthn4j's exception class, by design)
        assertFalse(r.body().replaceAll("<td class=\"detail\">[^<]*</td>", "").contains("Exception"),
                () -> "exception text in page: " + r);
    }

    void checkHtml(Http.Res r, String sent) {
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
    static boolean oversized(int requestSize) {
        return requestSize > 8000;
    }

    /**
     * Sends a request whose target or headers may exceed the HTTP listener's limits (8 KiB). For such oversized
     * requests the listener may drop the connection instead of answering 414/431 — a refusal before any application
     * code runs, accepted only for oversized requests.
     */
    void sized(int size, java.util.function.Function<Http, Http.Res> call, Consumer<Http.Res> check) {
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
    void checkRaw(Http.RawRes r) {
        requests++;
        assertTrue(r.status() >= 100, () -> "no answer: " + r);
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

    void checkHtmlOrRedirect(Http.Res r, String sent) {
        checkHtml(r, sent);
        if (r.status() == 302 || r.status() == 303) {
            String location = r.header("Location");
            assertTrue(location.startsWith(client.redirectUri()) || location.startsWith(BASE) || location.startsWith("/"),
                    () -> "redirect to an unverified place: " + location);
        }
    }
}
