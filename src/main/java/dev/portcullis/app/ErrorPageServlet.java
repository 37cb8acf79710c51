package dev.portcullis.app;

import dev.portcullis.page.PlainPage;
import dev.portcullis.protocol.ErrorBody;
import jakarta.servlet.RequestDispatcher;
import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * The container's error page (web.xml {@code <error-page>}) for errors raised before or outside the application
 * code — an encoded slash in a path, an unknown static file, an exception that escaped everything else. API and
 * OAuth paths still get the JSON error shape, browser paths a page; never a stack trace.
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
        boolean notFound = status == 404;
        res.setStatus(status);
        res.setHeader("Cache-Control", "no-store");
        byte[] body;
        if (PlainPage.isBrowserPath(path)) {
            res.setContentType("text/html;charset=UTF-8");
            body = (notFound ? PlainPage.html("Page not found", "There is nothing at this address.")
                    : PlainPage.html("Something went wrong", "Please go back to the application and try again."))
                    .getBytes(StandardCharsets.UTF_8);
        } else {
            res.setContentType("application/json;charset=UTF-8");
            body = (notFound ? ErrorBody.json("not_found", "No such endpoint or resource")
                    : status < 500 ? ErrorBody.json("invalid_request", "The request could not be processed")
                    : ErrorBody.json("server_error", "The server could not complete the request"))
                    .getBytes(StandardCharsets.UTF_8);
        }
        res.getOutputStream().write(body);
    }
}
