package dev.portcullis.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.servlet.http.Cookie;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class BrowserCookiesTest {

    private static final String CSRF_VALUE = "c".repeat(43);

    private static HttpServletResponse capturing(List<String> setCookies) {
        return (HttpServletResponse) Proxy.newProxyInstance(BrowserCookiesTest.class.getClassLoader(),
                new Class<?>[] {HttpServletResponse.class}, (proxy, method, args) -> {
                    if (method.getName().equals("addHeader") && "Set-Cookie".equals(args[0])) {
                        setCookies.add((String) args[1]);
                    }
                    return null;
                });
    }

    /** A request carrying these cookies, given as name, value, name, value... */
    private static HttpServletRequest withCookies(String... nameValues) {
        Cookie[] cookies = new Cookie[nameValues.length / 2];
        for (int i = 0; i < cookies.length; i++) {
            cookies[i] = new Cookie(nameValues[2 * i], nameValues[2 * i + 1]);
        }
        return (HttpServletRequest) Proxy.newProxyInstance(BrowserCookiesTest.class.getClassLoader(),
                new Class<?>[] {HttpServletRequest.class},
                (proxy, method, args) -> method.getName().equals("getCookies") ? cookies : null);
    }

    @Test
    void sessionCookieAttributes() {
        List<String> headers = new ArrayList<>();
        BrowserCookies.set(capturing(headers), BrowserCookies.SESSION, "abc", Duration.ofSeconds(86400), false);
        BrowserCookies.set(capturing(headers), BrowserCookies.SESSION, "abc", Duration.ofSeconds(86400), true);
        assertEquals("portcullis_session=abc; Path=/; Max-Age=86400; HttpOnly; SameSite=Lax", headers.get(0));
        assertEquals("__Host-portcullis_session=abc; Path=/; Max-Age=86400; HttpOnly; SameSite=Lax; Secure",
                headers.get(1), "Secure, and the __Host- prefix (Path=/, no Domain), when the issuer is https");
    }

    @Test
    void httpsIssuerReadsOnlyTheHostPrefixedCookies() {
        // a sibling domain can plant a plain cookie for this host, never a __Host- one
        assertEquals(Optional.of("s1"), BrowserCookies.read(withCookies("__Host-portcullis_session", "s1",
                "portcullis_session", "planted"), BrowserCookies.SESSION, true));
        assertEquals(Optional.empty(), BrowserCookies.read(withCookies("portcullis_session", "planted"),
                BrowserCookies.SESSION, true));
        assertEquals(Optional.of("s1"), BrowserCookies.read(withCookies("portcullis_session", "s1"),
                BrowserCookies.SESSION, false), "an http issuer keeps today's names");
        List<String> headers = new ArrayList<>();
        BrowserCookies.clear(capturing(headers), BrowserCookies.CSRF, true);
        assertTrue(headers.get(0).startsWith("__Host-portcullis_csrf=; Path=/; Max-Age=0;"), headers::toString);
    }

    @Test
    void csrfTokenIsTheCookieWithoutASessionAndBoundToTheSessionWithOne() {
        HttpServletRequest signedOut = withCookies("portcullis_csrf", CSRF_VALUE);
        assertEquals(CSRF_VALUE, BrowserCookies.csrfToken(signedOut, capturing(new ArrayList<>()), false));
        assertTrue(BrowserCookies.csrfMatches(signedOut, CSRF_VALUE, false));

        HttpServletRequest signedIn = withCookies("portcullis_csrf", CSRF_VALUE, "portcullis_session", "s".repeat(43));
        String bound = BrowserCookies.csrfToken(signedIn, capturing(new ArrayList<>()), false);
        assertNotEquals(CSRF_VALUE, bound);
        assertTrue(BrowserCookies.csrfMatches(signedIn, bound, false));
        assertFalse(BrowserCookies.csrfMatches(signedIn, CSRF_VALUE, false),
                "knowing (or planting) the CSRF cookie is not enough while a session exists");
        HttpServletRequest otherSession = withCookies("portcullis_csrf", CSRF_VALUE, "portcullis_session",
                "t".repeat(43));
        assertFalse(BrowserCookies.csrfMatches(otherSession, bound, false), "the token is bound to its session");
        assertFalse(BrowserCookies.csrfMatches(withCookies("portcullis_session", "s".repeat(43)), bound, false));
    }

    @Test
    void rotatingTheCsrfCookieSetsAFreshValue() {
        List<String> headers = new ArrayList<>();
        BrowserCookies.rotateCsrf(capturing(headers), false);
        BrowserCookies.rotateCsrf(capturing(headers), false);
        assertEquals(2, headers.size());
        assertTrue(headers.get(0).matches("portcullis_csrf=[A-Za-z0-9_-]{43}; Path=/; .*"), headers::toString);
        assertNotEquals(headers.get(0), headers.get(1));
    }
}
