package dev.portcullis.admin;

import dev.portcullis.config.AdminApiSettings;
import dev.portcullis.crypto.Secrets;
import dev.portcullis.protocol.ErrorBody;
import dev.portcullis.protocol.OAuthError;
import jakarta.annotation.Priority;
import jakarta.inject.Inject;
import jakarta.ws.rs.Priorities;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerRequestFilter;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.Provider;
import java.util.Optional;

/**
 * Every admin call must carry {@code Authorization: Bearer <portcullis.admin.token>}, compared in constant time.
 * When no admin token is configured the admin API is closed: every call answers 401 and says how to open it.
 */
@Provider
@Priority(Priorities.AUTHENTICATION)
public class AdminAuthenticationFilter implements ContainerRequestFilter {

    static final String CHALLENGE = "Bearer realm=\"portcullis-admin\"";

    @Inject
    AdminApiSettings adminApiSettings;

    @Override
    public void filter(ContainerRequestContext request) {
        Optional<String> expected = adminApiSettings.token();
        if (expected.isEmpty()) {
            abort(request, "The admin API is disabled: set portcullis.admin.token (PORTCULLIS_ADMIN_TOKEN)");
            return;
        }
        String header = request.getHeaderString(HttpHeaders.AUTHORIZATION);
        if (header == null || !header.regionMatches(true, 0, "Bearer ", 0, 7)) {
            abort(request, "Missing admin bearer token");
            return;
        }
        if (!Secrets.constantTimeEquals(header.substring(7).trim(), expected.get())) {
            abort(request, "Invalid admin token");
        }
    }

    private static void abort(ContainerRequestContext request, String description) {
        Response r = ErrorBody.response(401, OAuthError.INVALID_TOKEN.code(), description);
        r.getHeaders().putSingle(HttpHeaders.WWW_AUTHENTICATE, CHALLENGE + ", error=\"invalid_token\"");
        request.abortWith(r);
    }
}
