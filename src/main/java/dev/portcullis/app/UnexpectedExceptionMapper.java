package dev.portcullis.app;

import dev.portcullis.persistence.Jdbc;
import dev.portcullis.protocol.LogText;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.ws.rs.NotAllowedException;
import jakarta.ws.rs.NotSupportedException;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;
import jakarta.ws.rs.ext.Provider;
import java.io.EOFException;
import java.io.IOException;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Last line of defence: whatever escapes an endpoint becomes the endpoint's error shape (a page or JSON by path,
 * {@link ErrorAnswer}), never a stack trace. JAX-RS's own errors (404, 405, 415, ...) keep their status; a body cut
 * short by the client is 400; an unreachable database is 503 {@code temporarily_unavailable} (RFC 6749 4.1.2.1);
 * anything else is a bug, logged once and answered 500.
 */
@Provider
public class UnexpectedExceptionMapper implements ExceptionMapper<Throwable> {

    private static final Logger LOG = Logger.getLogger(UnexpectedExceptionMapper.class.getName());
    private static final ErrorAnswer BUG = new ErrorAnswer(500, "server_error",
            "The server could not complete the request", "Something went wrong",
            "Please go back to the application and try again.");

    @Context
    HttpServletRequest request;

    @Override
    public Response toResponse(Throwable e) {
        return respond(e, request);
    }

    /** The answer for {@code e}; {@code request} (may be null) decides between a page and JSON. */
    static Response respond(Throwable e, HttpServletRequest request) {
        if (e instanceof WebApplicationException wae && !causedBy(e, RequestBodyLimitFilter.BodyTooLargeException.class)
                && !causedBy(e, EOFException.class)) {
            int status = e instanceof NotSupportedException ? 415 : wae.getResponse().getStatus();
            Response r = ErrorAnswer.forStatus(status).response(path(request));
            if (e instanceof NotAllowedException) {
                r.getHeaders().put("Allow", wae.getResponse().getHeaders().get("Allow"));
            }
            return r;
        }
        return answerFor(e).response(path(request));
    }

    /** The same answer written straight to a servlet response, for endpoints served outside JAX-RS. */
    static void write(Throwable e, HttpServletRequest request, HttpServletResponse response) throws IOException {
        answerFor(e).write(path(request), response);
    }

    /** What a failure that is not JAX-RS's own means to the client; a bug is logged here, once. */
    private static ErrorAnswer answerFor(Throwable e) {
        if (causedBy(e, RequestBodyLimitFilter.BodyTooLargeException.class)) {
            return ErrorAnswer.forStatus(413);
        }
        if (causedBy(e, EOFException.class)) {
            // the client closed the connection before sending the body its headers announced: its mistake, no bug
            return ErrorAnswer.problem(400, "The request body ended early");
        }
        if (Jdbc.isDatabaseFailure(e)) {
            LOG.log(Level.WARNING, "Database unavailable: {0}", LogText.escape(rootMessage(e)));
            return ErrorAnswer.DATABASE_UNAVAILABLE;
        }
        LOG.log(Level.SEVERE, "Unexpected error", e);
        return BUG;
    }

    private static String path(HttpServletRequest request) {
        return request == null ? null : request.getRequestURI();
    }

    static boolean causedBy(Throwable e, Class<? extends Throwable> type) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (type.isInstance(t)) {
                return true;
            }
        }
        return false;
    }

    private static String rootMessage(Throwable e) {
        Throwable t = e;
        while (t.getCause() != null) {
            t = t.getCause();
        }
        return t.getClass().getSimpleName() + ": " + t.getMessage();
    }
}
