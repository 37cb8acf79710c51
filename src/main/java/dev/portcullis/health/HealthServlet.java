package dev.portcullis.health;

import jakarta.inject.Inject;
import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.util.function.Supplier;
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
    transient DirectoryProbe directory;

    @Override
    protected void doGet(HttpServletRequest req, HttpServletResponse res) throws IOException {
        boolean live = req.getServletPath().equals("/health/live");
        String check;
        boolean up;
        if (live) {
            check = "{\"name\":\"portcullis\",\"status\":\"UP\"}";
            up = true;
        } else {
            String error = databaseError(() -> dataSource);
            up = error == null;
            DirectoryProbe.State d = directory.state();
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

    /**
     * Null while the database answers within 2 s, else the simple name of what went wrong (never a message, which
     * may carry a host name or a URL) — also when there is no datasource to ask yet.
     */
    static String databaseError(Supplier<DataSource> dataSource) {
        try (Connection c = dataSource.get().getConnection()) {
            return c.isValid(2) ? null : "SQLException";
        } catch (Exception e) {
            return e.getClass().getSimpleName();
        }
    }
}
