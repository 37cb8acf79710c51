package dev.portcullis.resource;

import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

/** Shared by the client-authenticated endpoints (revocation, introspection). */
final class Requests {

    private Requests() {
    }

    /** A JSON answer that no cache may keep (it describes credentials). */
    static Response noStoreJson(int status, String json) {
        return Response.status(status).type(MediaType.APPLICATION_JSON_TYPE.withCharset("UTF-8")).entity(json)
                .header("Cache-Control", "no-store").header("Pragma", "no-cache").build();
    }
}
