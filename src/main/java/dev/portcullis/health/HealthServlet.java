package dev.portcullis.health;

import dev.portcullis.directory.Directory;
import dev.portcullis.directory.DirectoryUnavailableException;
import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedExecutorService;
import jakarta.inject.Inject;
import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import javax.sql.DataSource;

/**
 * {@code /health/ready} and {@code /health/live} on the application's port, the same on every server: WildFly's
 * default configuration has no MicroProfile Health (its MicroProfile configuration serves it on the management port
 * only), and on Payara, whose health endpoint sits in the application at "/", these exact paths win over it. The
 * answers have MicroProfile Health's JSON shape and codes (200 UP, 503 DOWN); the same checks stay registered with
 * MicroProfile Health ({@link DatabaseReadiness}, {@link Liveness}) for the server's own endpoints. This class names
 * no MicroProfile Health type, so it loads on a server without that API.
 */
@WebServlet(name = "HealthServlet", urlPatterns = {"/health/ready", "/health/live"})
public class HealthServlet extends HttpServlet {

    private static final long serialVersionUID = 1L;

    @Inject
    transient DataSource dataSource;

    @Inject
    transient Directory directory;

    @Resource
    transient ManagedExecutorService executor;

    @Override
    protected void doGet(HttpServletRequest req, HttpServletResponse res) throws IOException {
        boolean live = req.getServletPath().equals("/health/live");
        String check;
        boolean up;
        if (live) {
            check = "{\"name\":\"portcullis\",\"status\":\"UP\"}";
            up = true;
        } else {
            String error = databaseError(dataSource);
            up = error == null;
            DirectoryState d = directoryState(directory, executor);
            check = "{\"name\":\"database\",\"status\":\"" + (up ? "UP" : "DOWN") + "\""
                    + (up ? "" : ",\"data\":{\"error\":\"" + error + "\"}") + "},"
                    + "{\"name\":\"directory\",\"status\":\"UP\",\"data\":{\"directory\":\"" + d.state() + "\""
                    + (d.reason() == null ? "" : ",\"reason\":\"" + d.reason() + "\"") + "}}";
        }
        res.setStatus(up ? 200 : 503);
        res.setContentType("application/json");
        res.setHeader("Cache-Control", "no-store");
        res.getOutputStream().write(("{\"status\":\"" + (up ? "UP" : "DOWN") + "\",\"checks\":[" + check + "]}")
                .getBytes(StandardCharsets.UTF_8));
    }

    /** What readiness says of the directory: {@code up}, {@code degraded} (with a reason) or {@code not configured}. */
    record DirectoryState(String state, String reason) {
    }

    /**
     * Whether the LDAP directory answers within a second. It never makes readiness DOWN: tokens, refresh, userinfo
     * and local users do not need the directory, and every instance sees the same one, so DOWN would take all of them
     * out of the load balancer for what only new directory sign-ins need. The second's bound keeps a probe fast when
     * a directory server drops packets (connect time-outs are longer).
     */
    static DirectoryState directoryState(Directory directory, ManagedExecutorService executor) {
        if (!directory.configured()) {
            return new DirectoryState("not configured", null);
        }
        Future<?> ping = executor.submit(directory::ping);
        try {
            ping.get(1, TimeUnit.SECONDS);
            return new DirectoryState("up", null);
        } catch (ExecutionException | TimeoutException e) {
            boolean refused = e instanceof ExecutionException && e.getCause() instanceof DirectoryUnavailableException;
            return new DirectoryState("degraded", refused ? "no directory server answers" : "no answer within 1 s");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new DirectoryState("degraded", "interrupted");
        }
    }

    /**
     * Null while the database answers within 2 s, else the simple name of what went wrong (never a message, which
     * may carry a host name or a URL).
     */
    static String databaseError(DataSource dataSource) {
        try (Connection c = dataSource.getConnection()) {
            return c.isValid(2) ? null : "SQLException";
        } catch (Exception e) {
            return e.getClass().getSimpleName();
        }
    }
}
