package dev.portcullis.app;

import dev.portcullis.authorize.AuthorizationEndpoint;
import dev.portcullis.discovery.JwksResource;
import dev.portcullis.par.PushedAuthorizationEndpoint;
import dev.portcullis.tokenuse.IntrospectionEndpoint;
import dev.portcullis.tokenuse.RevocationEndpoint;
import dev.portcullis.session.LogoutEndpoint;
import dev.portcullis.token.TokenEndpoint;
import jakarta.ws.rs.ApplicationPath;
import jakarta.ws.rs.core.Application;
import java.util.Map;
import java.util.Set;

/**
 * The OAuth 2.0 / OpenID Connect protocol endpoints under {@code /oauth}. Why several JAX-RS applications instead
 * of one at {@code /}: a JAX-RS servlet at {@code /*} would also capture the Faces pages ({@code *.xhtml}) and the
 * stylesheet, because a servlet path mapping beats an extension mapping. See docs/decisions.md. Userinfo is not
 * here: {@link UserInfoServlet} serves it.
 */
@ApplicationPath("oauth")
public class OAuthApplication extends Application {

    @Override
    public Set<Class<?>> getClasses() {
        return WebProviders.with(AuthorizationEndpoint.class, TokenEndpoint.class, JwksResource.class,
                RevocationEndpoint.class, IntrospectionEndpoint.class, LogoutEndpoint.class,
                PushedAuthorizationEndpoint.class);
    }

    @Override
    public Map<String, Object> getProperties() {
        return WebProviders.PROPERTIES;
    }
}
