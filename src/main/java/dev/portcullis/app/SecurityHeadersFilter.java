package dev.portcullis.app;

import dev.portcullis.config.IssuerSettings;
import dev.portcullis.page.ContentSecurityPolicy;
import jakarta.inject.Inject;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.annotation.WebFilter;
import jakarta.servlet.http.HttpFilter;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;

/**
 * Headers every response carries. Pages may never be framed (clickjacking on the login and consent forms) and load
 * nothing but their own stylesheet and scripts ({@link ContentSecurityPolicy}); no inline script is needed anywhere.
 * CSP deliberately has no {@code form-action}: browsers apply it to the redirect after the login POST, which goes to
 * the client. An https issuer also gets HSTS, so a browser never again tries its sign-in page over plain http.
 */
@WebFilter(filterName = "SecurityHeadersFilter", urlPatterns = "/*", asyncSupported = true)
public class SecurityHeadersFilter extends HttpFilter {

    private static final long serialVersionUID = 1L;

    static final String CSP = ContentSecurityPolicy.PAGES;

    @Inject
    transient IssuerSettings issuer;

    @Override
    protected void doFilter(HttpServletRequest req, HttpServletResponse res, FilterChain chain)
            throws IOException, ServletException {
        res.setHeader("X-Content-Type-Options", "nosniff");
        res.setHeader("X-Frame-Options", "DENY");
        res.setHeader("Content-Security-Policy", CSP);
        res.setHeader("Referrer-Policy", "no-referrer");
        if (issuer.isHttps()) {
            res.setHeader("Strict-Transport-Security", "max-age=31536000");
        }
        chain.doFilter(req, res);
    }
}
