package dev.portcullis.app;

import dev.portcullis.persistence.Jdbc;
import dev.portcullis.protocol.LogText;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.annotation.WebFilter;
import jakarta.servlet.http.HttpFilter;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Browser pages (Faces) answer broken or forged form posts with a friendly page, never the container's 500.
 * Every Portcullis view is stateless, so a POST whose {@code jakarta.faces.ViewState} is not {@code stateless} was
 * not produced by our pages: it is refused before Faces tries to restore a view that never existed, and a path that
 * names no page is 404 whatever the method. Anything else
 * that escapes Faces becomes 400 "start again" — or 503 when the database is unreachable.
 */
@WebFilter(filterName = "PageErrorFilter", urlPatterns = "*.xhtml")
public class PageErrorFilter extends HttpFilter {

    private static final long serialVersionUID = 1L;
    private static final Logger LOG = Logger.getLogger(PageErrorFilter.class.getName());
    private static final ErrorAnswer EXPIRED_FORM = new ErrorAnswer(400, "invalid_request",
            "The form post was not produced by this server", "This form has expired",
            "Please go back to the application and start signing in again.");
    private static final ErrorAnswer BROKEN_REQUEST = new ErrorAnswer(400, "invalid_request",
            "The request could not be processed", "This request could not be processed",
            "Please go back to the application and start signing in again.");

    @Override
    protected void doFilter(HttpServletRequest req, HttpServletResponse res, FilterChain chain)
            throws IOException, ServletException {
        if (req.getServletContext().getResource(req.getServletPath()) == null) {
            // no such page: Faces would answer a postback to it with 500 (its "not found" is an IOException)
            res.sendError(404);
            return;
        }
        if ("POST".equals(req.getMethod())) {
            String[] state = req.getParameterValues("jakarta.faces.ViewState");
            if (state == null || state.length != 1 || !"stateless".equals(state[0])) {
                EXPIRED_FORM.write(req.getRequestURI(), res);
                return;
            }
        }
        try {
            chain.doFilter(req, res);
        } catch (ServletException | RuntimeException e) {
            boolean database = Jdbc.isDatabaseFailure(e);
            LOG.log(database ? Level.WARNING : Level.INFO, "Page request failed: {0}", LogText.escape(e.toString()));
            if (res.isCommitted()) {
                return;
            }
            res.reset();
            (database ? ErrorAnswer.DATABASE_UNAVAILABLE : BROKEN_REQUEST).write(req.getRequestURI(), res);
        }
    }
}
