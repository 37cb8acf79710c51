package dev.portcullis.app;

import jakarta.servlet.RequestDispatcher;
import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;

/**
 * The container's error page (web.xml {@code <error-page>}) for errors raised before or outside the application
 * code — an encoded slash in a path, an unknown static file, an exception that escaped everything else. API and
 * OAuth paths still get the JSON error shape, browser paths a page ({@link dev.portcullis.page.ResponseKind});
 * never a stack trace.
 */
@WebServlet(name = "ErrorPageServlet", urlPatterns = "/error")
public class ErrorPageServlet extends HttpServlet {

    private static final long serialVersionUID = 1L;

    @Override
    protected void service(HttpServletRequest req, HttpServletResponse res) throws IOException {
        Object code = req.getAttribute(RequestDispatcher.ERROR_STATUS_CODE);
        Object uri = req.getAttribute(RequestDispatcher.ERROR_REQUEST_URI);
        int status = code instanceof Integer i ? i : 404;
        String path = uri instanceof String s ? s : req.getRequestURI();
        ErrorAnswer.forStatus(status).write(path, res);
    }
}
