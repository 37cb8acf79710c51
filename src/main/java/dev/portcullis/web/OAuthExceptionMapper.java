package dev.portcullis.web;

import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;
import jakarta.ws.rs.ext.Provider;

/** Renders {@link OAuthException} as RFC 6749 5.2 JSON. */
@Provider
public class OAuthExceptionMapper implements ExceptionMapper<OAuthException> {

    @Override
    public Response toResponse(OAuthException e) {
        Response r = ErrorBody.response(e.status(), e.error(), e.description());
        if (e.wwwAuthenticate() != null) {
            r.getHeaders().putSingle(HttpHeaders.WWW_AUTHENTICATE, e.wwwAuthenticate());
        }
        return r;
    }
}
