package dev.portcullis.app;

import dev.portcullis.admin.Refusal;
import dev.portcullis.protocol.OAuthException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.transaction.TransactionalException;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;
import jakarta.ws.rs.ext.Provider;

/**
 * A failure at the commit of a {@code @Transactional} method surfaces as {@link TransactionalException}. Jersey ships
 * its own mapper for that type, which wins over {@link UnexpectedExceptionMapper} (closer type) and rethrows, so the
 * container answered a 500 HTML page. This one keeps the JSON error shape (503 for database failures).
 */
@Provider
public class TransactionalExceptionMapper implements ExceptionMapper<TransactionalException> {

    @Context
    HttpServletRequest request;

    @Override
    public Response toResponse(TransactionalException e) {
        if (e.getCause() instanceof OAuthException oauth) {
            return new OAuthExceptionMapper().toResponse(oauth);
        }
        if (e.getCause() instanceof Refusal refused) {
            return new RefusalMapper().toResponse(refused);
        }
        return UnexpectedExceptionMapper.respond(e, request);
    }
}
