package dev.portcullis.bench;

import java.io.IOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * Signs in the way a browser does, against the expected contract of the authorize branch: GET /oauth/authorize
 * without a session → (redirects to) an HTML login page whose form has a password field, hidden fields (the CSRF
 * double-submit token, {@code jakarta.faces.ViewState} = stateless, ...) and cookies → POST the form with username
 * and password → redirects that end at the client's redirect URI with a code, having set the SSO cookie
 * {@value #SESSION_COOKIE}.
 *
 * <p>The form is read generically (every hidden input is sent back; the first text/email input gets the username, the
 * password input the password, the first submit button its name), so it does not depend on Faces' generated ids.
 * Once {@code dev.portcullis.testing.UserAgent} is on main, {@link #establishSession} can delegate to it instead
 * (see docs/benchmark.md); the timed credential POST ({@link #submit}) stays here so that only it is measured.
 */
final class SignIn {

    static final String SESSION_COOKIE = "portcullis_session";
    private static final int MAX_REDIRECTS = 10;

    private static final Pattern FORM = Pattern.compile("<form\\b([^>]*)>(.*?)</form>", Pattern.DOTALL | Pattern.CASE_INSENSITIVE);
    private static final Pattern CONTROL = Pattern.compile("<(input|button)\\b([^>]*)>", Pattern.CASE_INSENSITIVE);
    private static final Pattern ATTR = Pattern.compile("([a-zA-Z_:][-a-zA-Z0-9_:.]*)\\s*=\\s*(\"([^\"]*)\"|'([^']*)')");

    /** The login form as found: where to POST, the fields to send back, and the cookies so far. */
    record LoginPage(String action, Map<String, String> fields, String usernameField, String passwordField,
                     Map<String, String> cookies) {
    }

    private SignIn() {
    }

    /**
     * Full sign-in for one SSO session: login page, credential POST, redirects to the callback. Returns the session's
     * cookies as a Cookie header value.
     */
    static String establishSession(LoadHttp http, Target t, Target.BenchClient c) throws IOException {
        LoginPage page = openLoginPage(http, t, c, "bench-setup");
        Reply posted = submit(http, page, t.user.username(), t.user.password());
        return finish(http, page.cookies(), posted, c.redirectUri(), t.endpoints.sessionCookies());
    }

    /** GET authorize without a session and follow redirects to the page with the login form (not timed). */
    static LoginPage openLoginPage(LoadHttp http, Target t, Target.BenchClient c, String state) throws IOException {
        Map<String, String> cookies = new LinkedHashMap<>();
        String path = t.authorizePath(c, state, null);
        Reply r = http.get(path);
        if (r.status() == 404) {
            throw new FlowFailure("authorization endpoint not available (404)", r);
        }
        for (int hop = 0; ; hop++) {
            remember(cookies, r);
            if (r.status() == 200) {
                return parse(path, r, cookies);
            }
            String location = r.header("location");
            if (r.status() / 100 != 3 || location == null || hop == MAX_REDIRECTS) {
                throw new FlowFailure("authorize without session: expected the login page", r);
            }
            path = localPath(location);
            r = http.get(path, "Cookie", cookieHeader(cookies));
        }
    }

    /** The credential POST — the one request the sign-in scenario times. */
    static Reply submit(LoadHttp http, LoginPage page, String username, String password) throws IOException {
        Map<String, String> form = new LinkedHashMap<>(page.fields());
        form.put(page.usernameField(), username);
        form.put(page.passwordField(), password);
        String body = form.entrySet().stream().map(e -> Target.enc(e.getKey()) + "=" + Target.enc(e.getValue()))
                .collect(Collectors.joining("&"));
        return http.postForm(page.action(), body, "Cookie", cookieHeader(page.cookies()));
    }

    /**
     * After the credential POST: follow redirects to the client's redirect URI, check it carries a code, and return
     * the SSO session's cookies ({@code sessionCookies}, each set on the way) as a Cookie header value.
     */
    static String finish(LoadHttp http, Map<String, String> cookies, Reply posted, String redirectUri,
                         List<String> sessionCookies) throws IOException {
        Reply r = posted;
        for (int hop = 0; ; hop++) {
            remember(cookies, r);
            String location = r.header("location");
            if (r.status() / 100 != 3 || location == null || hop == MAX_REDIRECTS) {
                throw new FlowFailure("sign-in: expected redirects to the client with a code", r);
            }
            if (location.startsWith(redirectUri)) {
                if (!location.contains("code=")) {
                    throw new FlowFailure("sign-in: redirect to the client without a code", r);
                }
                Map<String, String> session = new LinkedHashMap<>();
                for (String name : sessionCookies) {
                    String value = cookies.get(name);
                    if (value == null || value.isEmpty()) {
                        throw new FlowFailure("sign-in: no " + name + " cookie was set", r);
                    }
                    session.put(name, value);
                }
                return cookieHeader(session);
            }
            r = http.get(localPath(location), "Cookie", cookieHeader(cookies));
        }
    }

    static LoginPage parse(String pagePath, Reply r, Map<String, String> cookies) {
        Matcher fm = FORM.matcher(r.body());
        while (fm.find()) {
            Map<String, String> formAttrs = attributes(fm.group(1));
            Map<String, String> fields = new LinkedHashMap<>();
            String usernameField = null;
            String passwordField = null;
            boolean submitSeen = false;
            Matcher cm = CONTROL.matcher(fm.group(2));
            while (cm.find()) {
                Map<String, String> a = attributes(cm.group(2));
                String name = a.get("name");
                if (name == null || a.containsKey("disabled")) {
                    continue;
                }
                String type = a.getOrDefault("type", cm.group(1).equalsIgnoreCase("button") ? "submit" : "text")
                        .toLowerCase(Locale.ROOT);
                switch (type) {
                    case "hidden" -> fields.put(name, a.getOrDefault("value", ""));
                    case "password" -> passwordField = passwordField == null ? name : passwordField;
                    case "text", "email" -> usernameField = usernameField == null ? name : usernameField;
                    case "submit" -> {
                        if (!submitSeen) {
                            fields.put(name, a.getOrDefault("value", ""));
                            submitSeen = true;
                        }
                    }
                    default -> {
                        // checkboxes ("remember me") and the like stay unset
                    }
                }
            }
            if (passwordField != null && usernameField != null) {
                String action = formAttrs.getOrDefault("action", pagePath);
                return new LoginPage(localPath(action.isEmpty() ? pagePath : resolve(pagePath, action)), fields,
                        usernameField, passwordField, cookies);
            }
        }
        throw new FlowFailure("login page: no form with a username and a password field", r);
    }

    private static Map<String, String> attributes(String tag) {
        Map<String, String> out = new LinkedHashMap<>();
        Matcher m = ATTR.matcher(tag);
        while (m.find()) {
            String v = m.group(3) != null ? m.group(3) : m.group(4);
            out.put(m.group(1).toLowerCase(Locale.ROOT), unescape(v));
        }
        if (tag.matches("(?is).*\\sdisabled(\\s|$|/).*")) {
            out.putIfAbsent("disabled", "");
        }
        return out;
    }

    private static String unescape(String s) {
        return s.replace("&amp;", "&").replace("&quot;", "\"").replace("&#39;", "'").replace("&#x27;", "'")
                .replace("&lt;", "<").replace("&gt;", ">");
    }

    /** Keeps the cookies a response sets; an empty value or Max-Age=0 deletes one. */
    static void remember(Map<String, String> cookies, Reply r) {
        for (String sc : r.headers("set-cookie")) {
            String pair = sc.split(";", 2)[0];
            int eq = pair.indexOf('=');
            if (eq <= 0) {
                continue;
            }
            String name = pair.substring(0, eq).trim();
            String value = pair.substring(eq + 1).trim();
            if (value.isEmpty() || sc.toLowerCase(Locale.ROOT).contains("max-age=0")) {
                cookies.remove(name);
            } else {
                cookies.put(name, value);
            }
        }
    }

    static String cookieHeader(Map<String, String> cookies) {
        return cookies.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue()).collect(Collectors.joining("; "));
    }

    /** "http://localhost:1234/x?y" → "/x?y" (every URL of the flow is on the server under test). */
    static String localPath(String location) {
        if (location.startsWith("http://") || location.startsWith("https://")) {
            int slash = location.indexOf('/', location.indexOf("//") + 2);
            return slash < 0 ? "/" : location.substring(slash);
        }
        return location;
    }

    private static String resolve(String base, String ref) {
        if (ref.startsWith("/") || ref.startsWith("http")) {
            return ref;
        }
        String dir = base.split("\\?", 2)[0];
        return dir.substring(0, dir.lastIndexOf('/') + 1) + ref;
    }

    /** Query parameters of a URL (later duplicates win). */
    static Map<String, String> query(String url) {
        Map<String, String> out = new LinkedHashMap<>();
        int qm = url.indexOf('?');
        if (qm < 0) {
            return out;
        }
        for (String pair : url.substring(qm + 1).split("&")) {
            int eq = pair.indexOf('=');
            if (eq > 0) {
                out.put(URLDecoder.decode(pair.substring(0, eq), StandardCharsets.UTF_8),
                        URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
            }
        }
        return out;
    }
}
