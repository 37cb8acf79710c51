package dev.portcullis.session;

import static org.junit.jupiter.api.Assertions.assertEquals;

import jakarta.servlet.http.HttpServletResponse;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class BrowserCookiesTest {

    private static HttpServletResponse capturing(List<String> setCookies) {
        return (HttpServletResponse) Proxy.newProxyInstance(BrowserCookiesTest.class.getClassLoader(),
                new Class<?>[] {HttpServletResponse.class}, (proxy, method, args) -> {
                    if (method.getName().equals("addHeader") && "Set-Cookie".equals(args[0])) {
                        setCookies.add((String) args[1]);
                    }
                    return null;
                });
    }

    @Test
    void sessionCookieAttributes() {
        List<String> headers = new ArrayList<>();
        BrowserCookies.set(capturing(headers), BrowserCookies.SESSION, "abc", Duration.ofSeconds(86400), false);
        BrowserCookies.set(capturing(headers), BrowserCookies.SESSION, "abc", Duration.ofSeconds(86400), true);
        assertEquals("portcullis_session=abc; Path=/; Max-Age=86400; HttpOnly; SameSite=Lax", headers.get(0));
        assertEquals("portcullis_session=abc; Path=/; Max-Age=86400; HttpOnly; SameSite=Lax; Secure", headers.get(1),
                "Secure when the issuer is https");
    }
}
