package dev.portcullis.resource;

import dev.portcullis.web.OAuthException;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

/** Small helpers shared by the client-authenticated endpoints (revocation, introspection). */
final class Requests {

    private Requests() {
    }

    /** The request's Content-Type; a malformed header is 415 invalid_request, as at the token endpoint. */
    static MediaType contentType(HttpHeaders headers) {
        try {
            return headers.getMediaType();
        } catch (RuntimeException e) {
            throw new OAuthException("invalid_request", "Malformed Content-Type header", 415);
        }
    }

    /** A JSON answer that no cache may keep (it describes credentials). */
    static Response noStoreJson(int status, String json) {
        return Response.status(status).type(MediaType.APPLICATION_JSON_TYPE.withCharset("UTF-8")).entity(json)
                .header("Cache-Control", "no-store").header("Pragma", "no-cache").build();
    }
}
