package dev.portcullis.app;

import dev.portcullis.protocol.OAuthException;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;
import jakarta.ws.rs.ext.Provider;

/** Renders {@link OAuthException} as RFC 6749 5.2 JSON. */
@Provider
public class OAuthExceptionMapper implements ExceptionMapper<OAuthException> {

    @Override
    public Response toResponse(OAuthException e) {
        return e.toResponse();
    }
}
