package dev.portcullis.metrics;

import dev.portcullis.config.AddressRange;
import dev.portcullis.config.MetricsSettings;
import dev.portcullis.protocol.ClientAddress;
import io.prometheus.metrics.config.EscapingScheme;
import io.prometheus.metrics.expositionformats.ExpositionFormatWriter;
import io.prometheus.metrics.expositionformats.OpenMetricsTextFormatWriter;
import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import jakarta.inject.Inject;
import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Optional;

/**
 * {@code GET /metrics}: this deployment's registry ({@link Metrics}) in the Prometheus text format, or OpenMetrics when
 * {@code Accept} asks for it. Whoever may not read it gets the 404 of any unknown path, whatever the method: the
 * endpoint is off ({@code portcullis.metrics.enabled}), or the request bears neither the metrics token (an
 * {@code Authorization: Bearer} header; never a query parameter, which ends up in access logs) nor comes from
 * {@code portcullis.metrics.networks}. A reader using another method than GET gets 405.
 */
@WebServlet(name = "MetricsServlet", urlPatterns = "/metrics")
public class MetricsServlet extends HttpServlet {

    private static final long serialVersionUID = 1L;

    private static final ExpositionFormatWriter TEXT = PrometheusTextFormatWriter.create();
    private static final ExpositionFormatWriter OPEN_METRICS = OpenMetricsTextFormatWriter.create();

    @Inject
    transient MetricsSettings settings;

    @Inject
    transient ClientAddress clientAddress;

    @Inject
    transient Metrics metrics;

    @Override
    protected void service(HttpServletRequest req, HttpServletResponse res) throws IOException {
        if (!mayRead(req)) {
            res.sendError(HttpServletResponse.SC_NOT_FOUND);
            return;
        }
        res.setHeader("Cache-Control", "no-store");
        if (!req.getMethod().equals("GET")) {
            res.setHeader("Allow", "GET");
            res.sendError(HttpServletResponse.SC_METHOD_NOT_ALLOWED);
            return;
        }
        String accept = req.getHeader("Accept");
        ExpositionFormatWriter writer = accept != null && OPEN_METRICS.accepts(accept) ? OPEN_METRICS : TEXT;
        res.setStatus(200);
        res.setContentType(writer.getContentType());
        writer.write(res.getOutputStream(), metrics.registry().scrape(), EscapingScheme.DEFAULT);
    }

    private boolean mayRead(HttpServletRequest req) {
        if (!settings.enabled()) {
            return false;
        }
        if (settings.token().isPresent() && bearerMatches(req.getHeader("Authorization"), settings.token().get())) {
            return true;
        }
        if (settings.networks().isEmpty()) {
            return false;
        }
        Optional<InetAddress> client = AddressRange.literal(clientAddress.of(req));
        return client.isPresent() && settings.networks().stream().anyMatch(n -> n.contains(client.get()));
    }

    /** Compares digests of equal length, so the time taken says nothing about the token. */
    static boolean bearerMatches(String authorization, String token) {
        if (authorization == null || authorization.length() < 7
                || !authorization.regionMatches(true, 0, "Bearer ", 0, 7)) {
            return false;
        }
        return MessageDigest.isEqual(sha256(authorization.substring(7).trim()), sha256(token));
    }

    private static byte[] sha256(String s) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
