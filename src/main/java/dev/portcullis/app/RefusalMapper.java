package dev.portcullis.app;

import dev.portcullis.admin.Refusal;
import dev.portcullis.protocol.ErrorBody;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;
import jakarta.ws.rs.ext.Provider;

/** Renders a refused change as the admin API's JSON error: {@code {"error","error_description"}} and its status. */
@Provider
public class RefusalMapper implements ExceptionMapper<Refusal> {

    @Override
    public Response toResponse(Refusal e) {
        return ErrorBody.response(e.status(), e.error(), e.getMessage());
    }
}
