package dev.portcullis.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.portcullis.config.IssuerSettings;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.lang.reflect.Proxy;
import java.net.URI;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SecurityHeadersFilterTest {

    private static Map<String, String> headersFor(boolean httpsIssuer) throws Exception {
        SecurityHeadersFilter filter = new SecurityHeadersFilter();
        filter.issuer = new IssuerSettings(URI.create(httpsIssuer ? "https://id.example.com" : "http://id.example.com"));
        Map<String, String> headers = new HashMap<>();
        HttpServletResponse res = (HttpServletResponse) Proxy.newProxyInstance(getLoader(),
                new Class<?>[] {HttpServletResponse.class}, (proxy, method, args) -> {
                    if (method.getName().equals("setHeader")) {
                        headers.put((String) args[0], (String) args[1]);
                    }
                    return null;
                });
        HttpServletRequest req = (HttpServletRequest) Proxy.newProxyInstance(getLoader(),
                new Class<?>[] {HttpServletRequest.class}, (proxy, method, args) -> null);
        boolean[] passedOn = {false};
        filter.doFilter(req, res, (rq, rs) -> passedOn[0] = true);
        assertTrue(passedOn[0]);
        return headers;
    }

    private static ClassLoader getLoader() {
        return SecurityHeadersFilterTest.class.getClassLoader();
    }

    @Test
    void httpsIssuerAddsStrictTransportSecurity() throws Exception {
        Map<String, String> h = headersFor(true);
        assertEquals("max-age=31536000", h.get("Strict-Transport-Security"));
        assertEquals("DENY", h.get("X-Frame-Options"));
    }

    @Test
    void httpIssuerSendsNoStrictTransportSecurity() throws Exception {
        Map<String, String> h = headersFor(false);
        assertFalse(h.containsKey("Strict-Transport-Security"), "HSTS over plain http is ignored and misleading");
        assertEquals("nosniff", h.get("X-Content-Type-Options"));
    }
}
