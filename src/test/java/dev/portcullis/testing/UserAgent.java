package dev.portcullis.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.net.CookieManager;
import java.net.CookiePolicy;
import java.net.HttpCookie;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A test browser at the HTTP level: keeps cookies (a {@link CookieManager}), never follows redirects, and knows how
 * to fill in Portcullis' sign-in and consent forms. One instance = one browser; create a new one for a fresh,
 * signed-out browser.
 *
 * <pre>{@code
 * UserAgent ua = new UserAgent(BASE);
 * Map<String, String> p = ua.authorizeAndGetRedirectParams(client, user,
 *         Map.of("scope", "openid profile", "code_challenge", challenge, "code_challenge_method", "S256"));
 * String code = p.get("code");   // also p.get("state"), p.get("iss")
 * }</pre>
 *
 * Step by step: {@code Http.Res r = ua.authorize(params)} (302 to /login.xhtml) → {@code ua.follow(r)} (the page) →
 * {@code ua.signIn(page, user, pw)} (303 to consent page or to the client) → {@code ua.follow(..)} →
 * {@code ua.consent(page, true)} (303 to the client).
 */
public final class UserAgent {

    private final String base;
    private final CookieManager cookies;
    private final Http http;

    public UserAgent(String base) {
        this(base, new CookieManager(null, CookiePolicy.ACCEPT_ALL));
    }

    private UserAgent(String base, CookieManager cookies) {
        this.base = base;
        this.cookies = cookies;
        // HTTP/1.1, as browsers speak to an http:// origin; the JDK client would otherwise try an h2c upgrade
        this.http = new Http(base, HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .followRedirects(HttpClient.Redirect.NEVER)
                .cookieHandler(cookies).connectTimeout(Duration.ofSeconds(10)).build());
    }

    /**
     * The same browser (the same cookie jar) talking to another server on this host, as one browser reaches any
     * instance behind a load balancer.
     */
    public UserAgent sameBrowserAt(String otherBase) {
        return new UserAgent(otherBase, cookies);
    }

    /** The underlying client (same cookies), for requests this class has no method for. */
    public Http http() {
        return http;
    }

    /** A cookie this browser holds for the server, e.g. {@code cookie("portcullis_session")}. */
    public Optional<String> cookie(String name) {
        return cookies.getCookieStore().get(URI.create(base)).stream()
                .filter(c -> c.getName().equals(name)).map(HttpCookie::getValue).findFirst();
    }

    /** Puts a cookie into this browser (e.g. to replay another browser's session). */
    public void setCookie(String name, String value) {
        HttpCookie c = new HttpCookie(name, value);
        c.setPath("/");
        c.setVersion(0);
        cookies.getCookieStore().add(URI.create(base), c);
    }

    /** {@code GET /oauth/authorize?params}; the response is not followed. */
    public Http.Res authorize(Map<String, String> params) {
        return get("/oauth/authorize?" + Http.form(params));
    }

    /** {@code POST /oauth/authorize} with the params as form body. */
    public Http.Res authorizeByPost(Map<String, String> params) {
        return http.postForm("/oauth/authorize", params);
    }

    public Http.Res get(String pathOrUrl, String... headers) {
        return http.get(pathOrUrl, headers);
    }

    /** GETs the Location of a redirect (which must point at this server). */
    public Http.Res follow(Http.Res redirect, String... headers) {
        String location = redirect.header("Location");
        assertTrue(location != null && isOurs(location), () -> "not a redirect to this server: " + redirect);
        return get(location, headers);
    }

    /**
     * Submits the sign-in form of {@code loginPage} (a 200 page with form id "login") with the given credentials.
     * Returns the raw answer: 303 on success, 200 with the form again on failure.
     */
    public Http.Res signIn(Http.Res loginPage, String username, String password) {
        Map<String, String> f = formFields(loginPage.body(), "login");
        f.put("login:username", username);
        f.put("login:password", password);
        f.put("login:submit", "Sign in");
        return submit(loginPage.body(), "login", f);
    }

    /** Clicks Allow or Deny on {@code consentPage} (a 200 page with form id "consent"). Returns the 303. */
    public Http.Res consent(Http.Res consentPage, boolean allow) {
        Map<String, String> f = formFields(consentPage.body(), "consent");
        f.put(allow ? "consent:allow" : "consent:deny", allow ? "Allow" : "Deny");
        return submit(consentPage.body(), "consent", f);
    }

    /** POSTs {@code fields} to the action of the form {@code formId} in {@code html}, with extra headers. */
    public Http.Res submit(String html, String formId, Map<String, String> fields, String... headers) {
        Matcher m = Pattern.compile("<form[^>]*\\bid=\"" + Pattern.quote(formId) + "\"[^>]*>").matcher(html);
        if (!m.find()) {
            fail("no form '" + formId + "' in page:\n" + html);
        }
        String action = attribute(m.group(), "action");
        HttpRequest.Builder b = http.request(action == null ? "/" : unescape(action))
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString(Http.form(fields)));
        if (headers.length > 0) {
            b.headers(headers);
        }
        return http.send(b.build());
    }

    /**
     * The code flow of a confidential {@code client} with scope {@code openid}: signs in (or uses this browser's
     * session), then redeems the code as the client's backend does (its secret, none of the browser's cookies);
     * the token response.
     */
    public Map<String, Object> codeFlow(Admin.TestClient client, Admin.TestUser user) {
        Map<String, String> p = authorizeAndGetRedirectParams(client, user, Map.of("scope", "openid"));
        Http.Res r = new Http(base).postForm("/oauth/token", Map.of("grant_type", "authorization_code", "code",
                p.get("code"), "redirect_uri", client.redirectUri(), "client_id", client.clientId(), "client_secret",
                client.secret()));
        assertEquals(200, r.status(), r::toString);
        return r.json();
    }

    /**
     * Runs the whole browser part of the code flow: authorize with client_id, redirect_uri (the client's first),
     * response_type=code, scope=openid and a random state, overridden/extended by {@code extraParams}; signs in and
     * approves consent when asked. Returns the query parameters of the final redirect to the client (code, state,
     * iss — or error, error_description, state, iss), or the fields of the form post page that carries them.
     */
    public Map<String, String> authorizeAndGetRedirectParams(Admin.TestClient client, Admin.TestUser user,
                                                             Map<String, String> extraParams) {
        Map<String, String> p = new LinkedHashMap<>();
        p.put("client_id", client.clientId());
        p.put("redirect_uri", client.redirectUri());
        p.put("response_type", "code");
        p.put("scope", "openid");
        p.put("state", "st-" + Long.toHexString(System.nanoTime()));
        p.putAll(extraParams);
        Http.Res r = authorize(p);
        for (int step = 0; step < 8; step++) {
            if (r.status() == 302 || r.status() == 303) {
                String location = r.header("Location");
                if (!isOurs(location)) {
                    return Http.query(location);
                }
                r = follow(r);
            } else if (r.status() == 200 && r.body().contains("id=\"login\"")) {
                r = signIn(r, user.username(), user.password());
            } else if (r.status() == 200 && r.body().contains("id=\"consent\"")) {
                r = consent(r, true);
            } else if (r.status() == 200 && r.body().contains("id=\"form-post\"")) {
                return formFields(r.body(), "form-post"); // response_mode=form_post
            } else {
                fail("unexpected answer in the authorization flow: " + r);
            }
        }
        throw new AssertionError("authorization flow did not end: " + r);
    }

    /**
     * Opens one of Portcullis's own signed-in pages ({@code /account/}, {@code /admin/console/}), following the gate
     * through the sign-in when there is no session yet; returns the first answer that is neither a redirect nor the
     * login page (the page itself, or 403 on the console for a non-administrator).
     */
    public Http.Res openSignedIn(String path, Admin.TestUser user) {
        Http.Res r = get(path);
        for (int step = 0; step < 8; step++) {
            if (r.status() == 302 || r.status() == 303) {
                r = follow(r);
            } else if (r.status() == 200 && r.body().contains("id=\"login\"")) {
                r = signIn(r, user.username(), user.password());
            } else {
                return r;
            }
        }
        throw new AssertionError("no page after sign-in: " + r);
    }

    /**
     * On {@code /account/security.xhtml} ({@code page}): re-enters the password, the step-up of a user without a
     * second factor; returns the page as it is then (with the set-up forms).
     */
    public Http.Res stepUpWithPassword(Http.Res page, String password) {
        Map<String, String> f = formFields(page.body(), "security");
        f.put("security:password", password);
        f.put("security:confirm-password", "Confirm");
        Http.Res r = submit(page.body(), "security", f);
        if (r.status() != 303) {
            fail("the password step-up was not accepted: " + r);
        }
        return get("/account/security.xhtml");
    }

    /** The name=value pairs of the input fields of form {@code formId} (hidden ones included, buttons excluded). */
    public static Map<String, String> formFields(String html, String formId) {
        int start = html.indexOf("id=\"" + formId + "\"");
        int end = html.indexOf("</form>", Math.max(start, 0));
        if (start < 0 || end < 0) {
            throw new AssertionError("no form '" + formId + "' in page:\n" + html);
        }
        Map<String, String> out = new LinkedHashMap<>();
        Matcher m = Pattern.compile("<input[^>]*>").matcher(html.substring(start, end));
        while (m.find()) {
            String tag = m.group();
            String type = attribute(tag, "type");
            String name = attribute(tag, "name");
            if (name == null || "submit".equals(type) || "button".equals(type)) {
                continue;
            }
            String value = attribute(tag, "value");
            out.put(unescape(name), value == null ? "" : unescape(value));
        }
        return out;
    }

    private boolean isOurs(String location) {
        return location.startsWith("/") || location.startsWith(base + "/");
    }

    private static String attribute(String tag, String name) {
        Matcher m = Pattern.compile("\\s" + name + "=\"([^\"]*)\"").matcher(tag);
        return m.find() ? m.group(1) : null;
    }

    static String unescape(String s) {
        Matcher m = Pattern.compile("&(#x[0-9a-fA-F]+|#[0-9]+|amp|lt|gt|quot|apos);").matcher(s);
        StringBuilder sb = new StringBuilder();
        while (m.find()) {
            String e = m.group(1);
            String r = switch (e) {
                case "amp" -> "&";
                case "lt" -> "<";
                case "gt" -> ">";
                case "quot" -> "\"";
                case "apos" -> "'";
                default -> new String(Character.toChars(e.startsWith("#x")
                        ? Integer.parseInt(e.substring(2), 16) : Integer.parseInt(e.substring(1))));
            };
            m.appendReplacement(sb, Matcher.quoteReplacement(r));
        }
        m.appendTail(sb);
        return sb.toString();
    }
}
