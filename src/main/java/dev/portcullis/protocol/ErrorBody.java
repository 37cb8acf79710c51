package dev.portcullis.protocol;

import jakarta.ws.rs.core.Response;

/** The one JSON error shape of every API and OAuth endpoint: {@code {"error","error_description"}}. */
public final class ErrorBody {

    private ErrorBody() {
    }

    public static String json(String error, String description) {
        return JsonSupport.JSON.createObjectBuilder().add("error", error).add("error_description", description).build().toString();
    }

    public static Response response(int status, String error, String description) {
        return NoStoreJson.of(status, json(error, description)).build();
    }
}
