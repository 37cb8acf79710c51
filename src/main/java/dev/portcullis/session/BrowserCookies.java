package dev.portcullis.session;

import dev.portcullis.crypto.Secrets;
import jakarta.servlet.http.Cookie;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.time.Duration;
import java.util.Optional;

/**
 * The two cookies of the browser pages: {@code portcullis_session} (the SSO session id) and {@code portcullis_csrf}
 * (the double-submit token of the sign-in, consent and logout forms). Both HttpOnly, SameSite=Lax, Path=/. When the
 * issuer is https they are Secure and named with the {@code __Host-} prefix, which browsers accept only with Secure,
 * Path=/ and no Domain, so a sibling domain can neither set nor shadow them. Set-Cookie is written by hand because
 * the Servlet API has no SameSite attribute before 6.1.
 */
public final class BrowserCookies {

    public static final String SESSION = "portcullis_session";
    public static final String CSRF = "portcullis_csrf";

    private static final String HOST_PREFIX = "__Host-";

    private BrowserCookies() {
    }

    /** The cookie {@code name} (SESSION or CSRF) of the request; {@code secure} = the issuer is https. */
    public static Optional<String> read(HttpServletRequest request, String name, boolean secure) {
        Cookie[] cookies = request.getCookies();
        if (cookies == null) {
            return Optional.empty();
        }
        String wireName = wireName(name, secure);
        for (Cookie c : cookies) {
            if (wireName.equals(c.getName()) && c.getValue() != null && !c.getValue().isEmpty()) {
                return Optional.of(c.getValue());
            }
        }
        return Optional.empty();
    }

    public static void set(HttpServletResponse response, String name, String value, Duration maxAge, boolean secure) {
        response.addHeader("Set-Cookie", wireName(name, secure) + "=" + value + "; Path=/; Max-Age="
                + maxAge.getSeconds() + "; HttpOnly; SameSite=Lax" + (secure ? "; Secure" : ""));
    }

    public static void clear(HttpServletResponse response, String name, boolean secure) {
        set(response, name, "", Duration.ZERO, secure);
    }

    /**
     * The CSRF token for a form: derived from the browser's CSRF cookie (set now if missing) and, when the browser
     * has a session cookie, bound to that session, so a planted or leaked CSRF cookie alone forges nothing once
     * signed in. {@link #csrfMatches} recomputes it on POST.
     */
    public static String csrfToken(HttpServletRequest request, HttpServletResponse response, boolean secure) {
        String cookie = read(request, CSRF, secure).filter(v -> v.matches("[A-Za-z0-9_-]{43}"))
                .orElseGet(() -> rotateCsrf(response, secure));
        return boundToSession(cookie, request, secure);
    }

    /** Whether the submitted form token is the one {@link #csrfToken} gives for this request's cookies. */
    public static boolean csrfMatches(HttpServletRequest request, String submitted, boolean secure) {
        Optional<String> cookie = read(request, CSRF, secure);
        return cookie.isPresent() && submitted != null
                && Secrets.constantTimeEquals(boundToSession(cookie.get(), request, secure), submitted);
    }

    /** A new CSRF cookie (at sign-in, so no token from before the sign-in outlives it); returns its value. */
    public static String rotateCsrf(HttpServletResponse response, boolean secure) {
        String token = Secrets.newSecret();
        set(response, CSRF, token, Duration.ofHours(12), secure);
        return token;
    }

    private static String boundToSession(String csrfCookie, HttpServletRequest request, boolean secure) {
        return read(request, SESSION, secure).map(session -> Secrets.hmac(session, csrfCookie)).orElse(csrfCookie);
    }

    private static String wireName(String name, boolean secure) {
        return secure ? HOST_PREFIX + name : name;
    }
}
