package dev.portcullis.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The pure rules of the metrics: whose bearer token reads them, which family a path is timed in, status classes. */
class MetricsUnitTest {

    private static final String TOKEN = "t".repeat(40);

    @Test
    void onlyTheExactTokenAsABearerCredentialMatches() {
        assertTrue(MetricsServlet.bearerMatches("Bearer " + TOKEN, TOKEN));
        assertTrue(MetricsServlet.bearerMatches("bearer " + TOKEN, TOKEN), "the scheme is case-insensitive");
        assertFalse(MetricsServlet.bearerMatches(null, TOKEN));
        assertFalse(MetricsServlet.bearerMatches("", TOKEN));
        assertFalse(MetricsServlet.bearerMatches("Bearer", TOKEN));
        assertFalse(MetricsServlet.bearerMatches("Bearer " + TOKEN + "t", TOKEN), "longer");
        assertFalse(MetricsServlet.bearerMatches("Bearer " + TOKEN.substring(1), TOKEN), "shorter");
        assertFalse(MetricsServlet.bearerMatches("Basic " + TOKEN, TOKEN), "another scheme");
        assertFalse(MetricsServlet.bearerMatches(TOKEN, TOKEN), "no scheme");
    }

    @Test
    void pathsFallIntoTheirEndpointFamilies() {
        assertEquals(Metrics.Family.AUTHORIZE, RequestTimingFilter.family("/oauth/authorize"));
        assertEquals(Metrics.Family.TOKEN, RequestTimingFilter.family("/oauth/token"));
        assertEquals(Metrics.Family.USERINFO, RequestTimingFilter.family("/oauth/userinfo"));
        assertEquals(Metrics.Family.INTROSPECT, RequestTimingFilter.family("/oauth/introspect"));
        assertEquals(Metrics.Family.ADMIN, RequestTimingFilter.family("/admin/users/alice"));
        assertEquals(Metrics.Family.ADMIN, RequestTimingFilter.family("/api/v1/me"));
        assertEquals(Metrics.Family.PAGES, RequestTimingFilter.family("/admin/console/users.xhtml"));
        assertEquals(Metrics.Family.PAGES, RequestTimingFilter.family("/login.xhtml"));
        assertEquals(Metrics.Family.PAGES, RequestTimingFilter.family("/account/"));
        assertEquals(Metrics.Family.OTHER, RequestTimingFilter.family("/oauth/logout"));
        assertEquals(Metrics.Family.OTHER, RequestTimingFilter.family("/.well-known/openid-configuration"));
    }

    @Test
    void statusClassesAreBounded() {
        assertEquals("2xx", Metrics.statusClass(204));
        assertEquals("4xx", Metrics.statusClass(404));
        assertEquals("5xx", Metrics.statusClass(503));
        assertEquals("5xx", Metrics.statusClass(0), "no status is a failure");
        assertEquals("5xx", Metrics.statusClass(999));
    }
}
