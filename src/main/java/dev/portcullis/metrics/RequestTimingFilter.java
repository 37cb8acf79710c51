package dev.portcullis.metrics;

import jakarta.inject.Inject;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.annotation.WebFilter;
import jakarta.servlet.http.HttpFilter;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;

/**
 * Times every request into {@code portcullis_http_request_duration_seconds} by endpoint family (from the path, never
 * the path itself, which may carry a user name) and status class; an exception that escapes counts as 5xx.
 */
@WebFilter(filterName = "RequestTimingFilter", urlPatterns = "/*", asyncSupported = true)
public class RequestTimingFilter extends HttpFilter {

    private static final long serialVersionUID = 1L;

    @Inject
    transient Metrics metrics;

    @Override
    protected void doFilter(HttpServletRequest req, HttpServletResponse res, FilterChain chain)
            throws IOException, ServletException {
        long started = System.nanoTime();
        boolean failed = true;
        try {
            chain.doFilter(req, res);
            failed = false;
        } finally {
            metrics.request(family(req.getRequestURI().substring(req.getContextPath().length())),
                    failed ? 500 : res.getStatus(), started);
        }
    }

    static Metrics.Family family(String path) {
        if (path.startsWith("/oauth/authorize")) {
            return Metrics.Family.AUTHORIZE;
        } else if (path.startsWith("/oauth/token")) {
            return Metrics.Family.TOKEN;
        } else if (path.startsWith("/oauth/userinfo")) {
            return Metrics.Family.USERINFO;
        } else if (path.startsWith("/oauth/introspect")) {
            return Metrics.Family.INTROSPECT;
        } else if (path.startsWith("/admin/console/") || path.startsWith("/account") || path.endsWith(".xhtml")) {
            return Metrics.Family.PAGES;
        } else if (path.startsWith("/admin/") || path.startsWith("/api/")) {
            return Metrics.Family.ADMIN;
        }
        return Metrics.Family.OTHER;
    }
}
