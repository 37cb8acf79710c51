package dev.portcullis.protocol;

import jakarta.servlet.http.HttpServletResponse;
import jakarta.ws.rs.core.Response;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * The one way to answer JSON that no cache may keep — errors, tokens, secrets, claims (RFC 6749 5.1, 5.2):
 * {@code application/json;charset=UTF-8}, {@code Cache-Control: no-store}, {@code Pragma: no-cache}.
 */
public final class NoStoreJson {

    private static final String TYPE = "application/json;charset=UTF-8";

    private NoStoreJson() {
    }

    /** A JAX-RS answer; callers may add headers (Location, Allow) before building it. */
    public static Response.ResponseBuilder of(int status, String json) {
        return Response.status(status).type(TYPE).header("Cache-Control", "no-store").header("Pragma", "no-cache")
                .entity(json);
    }

    /** The same answer written straight to a servlet response, for filters and error servlets. */
    public static void write(HttpServletResponse res, int status, String json) throws IOException {
        res.setStatus(status);
        res.setContentType(TYPE);
        res.setHeader("Cache-Control", "no-store");
        res.setHeader("Pragma", "no-cache");
        res.getOutputStream().write(json.getBytes(StandardCharsets.UTF_8));
    }
}
