package dev.portcullis.protocol;

import jakarta.ws.rs.core.CacheControl;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

/** The one JSON error shape of every API and OAuth endpoint: {@code {"error","error_description"}}. */
public final class ErrorBody {

    private static final CacheControl NO_STORE = CacheControl.valueOf("no-store");

    private ErrorBody() {
    }

    public static String json(String error, String description) {
        return JsonSupport.JSON.createObjectBuilder().add("error", error).add("error_description", description).build().toString();
    }

    public static Response response(int status, String error, String description) {
        return Response.status(status)
                .type(MediaType.APPLICATION_JSON_TYPE.withCharset("UTF-8"))
                .cacheControl(NO_STORE)
                .header("Pragma", "no-cache")
                .entity(json(error, description))
                .build();
    }
}
