package dev.portcullis.app;

import dev.portcullis.protocol.CrossOrigin;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerResponseContext;
import jakarta.ws.rs.container.ContainerResponseFilter;
import jakarta.ws.rs.ext.Provider;

/**
 * CORS for {@link CrossOrigin} resources: any origin, no credentials. A browser-based public client posts the JSON
 * token request to the token endpoint, which needs a preflight; the resource answers OPTIONS itself.
 */
@Provider
@CrossOrigin
public class CrossOriginFilter implements ContainerResponseFilter {

    @Override
    public void filter(ContainerRequestContext request, ContainerResponseContext response) {
        if (request.getHeaderString("Origin") == null) {
            return;
        }
        response.getHeaders().putSingle("Access-Control-Allow-Origin", "*");
        if ("OPTIONS".equals(request.getMethod())) {
            response.getHeaders().putSingle("Access-Control-Allow-Methods", "GET, POST");
            response.getHeaders().putSingle("Access-Control-Allow-Headers", "Content-Type, Accept, Authorization, DPoP");
            response.getHeaders().putSingle("Access-Control-Max-Age", "600");
        } else {
            response.getHeaders().putSingle("Access-Control-Expose-Headers", "WWW-Authenticate, DPoP-Nonce");
        }
    }
}
