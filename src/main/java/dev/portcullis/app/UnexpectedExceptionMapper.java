package dev.portcullis.app;

import dev.portcullis.persistence.Jdbc;
import dev.portcullis.protocol.ErrorBody;
import dev.portcullis.protocol.LogText;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.ws.rs.NotAllowedException;
import jakarta.ws.rs.NotSupportedException;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;
import jakarta.ws.rs.ext.Provider;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Last line of defence: whatever escapes an endpoint becomes the JSON error shape, never a stack trace.
 * JAX-RS's own errors (404, 405, 415, ...) keep their status; an unreachable database is 503
 * {@code temporarily_unavailable} (RFC 6749 4.1.2.1); anything else is a bug, logged once and answered 500.
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
        if (causedBy(e, RequestBodyLimitFilter.BodyTooLargeException.class)) {
            return ErrorBody.response(413, "invalid_request", "Request body too large");
        }
        if (e instanceof WebApplicationException wae) {
            int status = wae.getResponse().getStatus();
            if (e instanceof NotSupportedException) {
                return ErrorBody.response(415, "invalid_request", "Unsupported Content-Type for this endpoint");
            }
            Response r = ErrorBody.response(status, status == 404 ? "not_found" : status == 405
                    ? "method_not_allowed" : "invalid_request", describe(status));
            if (e instanceof NotAllowedException) {
                r.getHeaders().put("Allow", wae.getResponse().getHeaders().get("Allow"));
            }
            return r;
        }
        if (Jdbc.isDatabaseFailure(e)) {
            LOG.log(Level.WARNING, "Database unavailable: {0}", LogText.escape(rootMessage(e)));
            return ErrorAnswer.DATABASE_UNAVAILABLE.response(path(request));
        }
        LOG.log(Level.SEVERE, "Unexpected error", e);
        return BUG.response(path(request));
    }

    private static String path(HttpServletRequest request) {
        return request == null ? null : request.getRequestURI();
    }

    private static String describe(int status) {
        return switch (status) {
            case 404 -> "No such endpoint or resource";
            case 405 -> "Method not allowed on this endpoint";
            case 406 -> "This endpoint answers application/json only";
            case 413 -> "Request body too large";
            default -> "The request could not be processed";
        };
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
