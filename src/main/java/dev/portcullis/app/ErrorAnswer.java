package dev.portcullis.app;

import dev.portcullis.page.HtmlPage;
import dev.portcullis.page.ResponseKind;
import dev.portcullis.protocol.ErrorBody;
import dev.portcullis.protocol.NoStoreJson;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.ws.rs.core.Response;
import java.io.IOException;

/**
 * A failure answered outside the endpoints' own error handling, in both of its forms: the JSON error shape
 * ({@code error}, {@code error_description}) and a page ({@code title}, {@code text}); {@link ResponseKind} picks one
 * by the request path. Titles and texts are constants, never request input.
 */
record ErrorAnswer(int status, String error, String description, String title, String text) {

    /** The database is unreachable: 503 {@code temporarily_unavailable} (RFC 6749 4.1.2.1). */
    static final ErrorAnswer DATABASE_UNAVAILABLE = new ErrorAnswer(503, "temporarily_unavailable",
            "The service is temporarily unavailable; try again shortly", "Sign-in is temporarily unavailable",
            "Please try again in a moment.");

    private static final String TRY_AGAIN = "Please go back to the application and try again.";

    /**
     * The answer for an HTTP error raised by the container or JAX-RS itself (no such path, wrong method, unreadable
     * body); 5xx statuses are {@code server_error}.
     */
    static ErrorAnswer forStatus(int status) {
        return switch (status) {
            case 404 -> new ErrorAnswer(404, "not_found", "No such endpoint or resource", "Page not found",
                    "There is nothing at this address.");
            case 405 -> new ErrorAnswer(405, "method_not_allowed", "Method not allowed on this endpoint",
                    "Method not allowed", "This address cannot be used that way. " + TRY_AGAIN);
            case 406 -> problem(406, "This endpoint answers application/json only");
            case 413 -> new ErrorAnswer(413, "invalid_request", "Request body too large", "Request too large",
                    TRY_AGAIN);
            case 415 -> problem(415, "Unsupported Content-Type for this endpoint");
            default -> status >= 500
                    ? new ErrorAnswer(status, "server_error", "The server could not complete the request",
                            "Something went wrong", TRY_AGAIN)
                    : problem(status, "The request could not be processed");
        };
    }

    /** A client error ({@code invalid_request}) with the generic page. */
    static ErrorAnswer problem(int status, String description) {
        return new ErrorAnswer(status, "invalid_request", description, "This request could not be processed",
                TRY_AGAIN);
    }

    Response response(String path) {
        return ResponseKind.of(path) == ResponseKind.PAGE
                ? HtmlPage.error(title, text).response(status).build()
                : ErrorBody.response(status, error, description);
    }

    void write(String path, HttpServletResponse res) throws IOException {
        if (ResponseKind.of(path) == ResponseKind.PAGE) {
            HtmlPage.error(title, text).write(res, status);
        } else {
            NoStoreJson.write(res, status, ErrorBody.json(error, description));
        }
    }
}
