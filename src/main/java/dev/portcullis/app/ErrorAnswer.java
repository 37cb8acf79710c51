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
