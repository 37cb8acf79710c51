package dev.portcullis.session;

import dev.portcullis.crypto.Secrets;
import jakarta.servlet.http.Cookie;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.time.Duration;
import java.util.Optional;

/**
 * The two cookies of the browser pages: {@code portcullis_session} (the SSO session id) and {@code portcullis_csrf}
 * (the double-submit token of the sign-in and consent forms). Both HttpOnly, SameSite=Lax, Path=/, and Secure when
 * the issuer is https. Set-Cookie is written by hand because the Servlet API has no SameSite attribute before 6.1.
 */
public final class BrowserCookies {

    public static final String SESSION = "portcullis_session";
    public static final String CSRF = "portcullis_csrf";

    private BrowserCookies() {
    }

    public static Optional<String> read(HttpServletRequest request, String name) {
        Cookie[] cookies = request.getCookies();
        if (cookies == null) {
            return Optional.empty();
        }
        for (Cookie c : cookies) {
            if (name.equals(c.getName()) && c.getValue() != null && !c.getValue().isEmpty()) {
                return Optional.of(c.getValue());
            }
        }
        return Optional.empty();
    }

    public static void set(HttpServletResponse response, String name, String value, Duration maxAge, boolean secure) {
        response.addHeader("Set-Cookie", name + "=" + value + "; Path=/; Max-Age=" + maxAge.getSeconds()
                + "; HttpOnly; SameSite=Lax" + (secure ? "; Secure" : ""));
    }

    public static void clear(HttpServletResponse response, String name, boolean secure) {
        set(response, name, "", Duration.ZERO, secure);
    }

    /**
     * The CSRF token for a form: the browser's existing token, or a new one set as cookie now. The page puts the
     * same value in a hidden field; {@link #csrfMatches} compares them on POST.
     */
    public static String csrfToken(HttpServletRequest request, HttpServletResponse response, boolean secure) {
        Optional<String> existing = read(request, CSRF).filter(v -> v.matches("[A-Za-z0-9_-]{43}"));
        if (existing.isPresent()) {
            return existing.get();
        }
        String token = Secrets.newSecret();
        set(response, CSRF, token, Duration.ofHours(12), secure);
        return token;
    }

    /** Double-submit check: the hidden field equals the cookie, compared in constant time. */
    public static boolean csrfMatches(HttpServletRequest request, String submitted) {
        Optional<String> cookie = read(request, CSRF);
        return cookie.isPresent() && submitted != null && Secrets.constantTimeEquals(cookie.get(), submitted);
    }
}
