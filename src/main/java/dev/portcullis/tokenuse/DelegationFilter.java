package dev.portcullis.tokenuse;

import dev.portcullis.config.IssuerSettings;
import dev.portcullis.dpop.DpopProofVerifier;
import dev.portcullis.protocol.OAuthException;
import dev.portcullis.token.AccessTokenVerifier.VerifiedAccessToken;
import dev.portcullis.token.AccessTokenVerifier;
import jakarta.annotation.Priority;
import jakarta.inject.Inject;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.ws.rs.Priorities;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerRequestFilter;
import jakarta.ws.rs.container.ResourceInfo;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.ext.Provider;
import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The one place that decides whether an endpoint may be called on behalf of a user. Registered in every JAX-RS
 * application whose endpoints take bearer credentials ({@code /api}, {@code /admin}); it reads the matched resource
 * method's declaration ({@link ResourceInfo}):
 * <ul>
 * <li>{@link Delegable}: a valid access token with every declared scope is required — missing: 401
 * ({@code WWW-Authenticate: Bearer realm}); invalid, expired or revoked: 401 {@code error="invalid_token"}; a scope
 * missing: 403 {@code error="insufficient_scope", scope="..."}; a token without a user (client credentials): 401
 * {@code error="invalid_token"}; a DPoP-bound token only as {@code Authorization: DPoP} with a proof for the request
 * ({@link DpopPresentation}, RFC 9449 7). The verified token is handed to the method
 * ({@link #accessToken}).</li>
 * <li>anything else ({@link NotDelegable}, or no declaration at all): a request presenting a <em>valid user access
 * token</em> is refused with 403 "does not accept delegated tokens"; other credentials (the admin token) pass on to
 * the application's own authentication, e.g. {@code AdminAuthenticationFilter}.</li>
 * </ul>
 * Its priority is below {@link Priorities#AUTHENTICATION}, so it runs before the admin filter: a user token at an
 * admin endpoint gets this 403, not the admin filter's 401 "invalid admin token".
 */
@Provider
@Priority(Priorities.AUTHENTICATION - 100)
public class DelegationFilter implements ContainerRequestFilter {

    /** Request attribute holding the {@link VerifiedAccessToken} of a {@link Delegable} call. */
    static final String ACCESS_TOKEN = DelegationFilter.class.getName() + ".accessToken";

    @Context
    ResourceInfo resourceInfo;

    @Inject
    AccessTokenVerifier verifier;

    @Inject
    DpopProofVerifier dpop;

    @Inject
    IssuerSettings issuer;

    @Context
    HttpServletRequest servletRequest;

    @Override
    public void filter(ContainerRequestContext request) {
        try {
            check(request);
        } catch (OAuthException e) {
            request.abortWith(e.toResponse());
        }
    }

    private void check(ContainerRequestContext request) {
        Method method = resourceInfo.getResourceMethod();
        if (method == null) {
            return;
        }
        decide(method, resourceInfo.getResourceClass(), request.getHeaderString(HttpHeaders.AUTHORIZATION),
                request.getHeaders().get(DpopProofVerifier.HEADER), request.getMethod(),
                () -> issuer.endpoint(DpopPresentation.path(servletRequest)))
                .ifPresent(verified -> request.setProperty(ACCESS_TOKEN, verified));
    }

    /**
     * The decision on one call of {@code method}: the verified access token a {@link Delegable} method is called
     * with, empty for any other method whose call passes on; a refused call throws {@link OAuthException}.
     */
    Optional<VerifiedAccessToken> decide(Method method, Class<?> resourceClass, String authorization) {
        return decide(method, resourceClass, authorization, List.of(), null, () -> null);
    }

    /**
     * As {@link #decide(Method, Class, String)}, for a request that may carry DPoP {@code proofs}: a DPoP-bound token
     * is used as {@code Authorization: DPoP} with a proof for {@code httpMethod} at {@code url} (RFC 9449 7); the URL
     * is built only then, so a bearer or admin request pays nothing for it.
     */
    Optional<VerifiedAccessToken> decide(Method method, Class<?> resourceClass, String authorization,
                                         List<String> proofs, String httpMethod, Supplier<String> url) {
        Optional<Delegable> delegable = delegable(method, resourceClass);
        if (delegable.isPresent()) {
            Optional<String> dpopToken = DpopPresentation.dpopToken(authorization);
            VerifiedAccessToken verified = dpopToken.isPresent()
                    ? DpopPresentation.withProof(verifier.check(dpopToken.get()), dpopToken.get(), dpop, proofs,
                            httpMethod, url.get())
                    : DpopPresentation.asBearer(verifier.verify(BearerToken.fromHeader(authorization)
                            .orElseThrow(BearerToken::missing)));
            if (!verified.hasUser()) {
                throw BearerToken.noUser(); // every delegable endpoint acts on behalf of the token's user
            }
            String[] required = delegable.get().scopes();
            if (!verified.scopes().containsAll(Arrays.asList(required))) {
                throw BearerToken.insufficientScope(String.join(" ", required));
            }
            return Optional.of(verified);
        }
        Optional<String> token;
        try {
            token = BearerToken.fromHeader(authorization).or(() -> DpopPresentation.dpopToken(authorization));
        } catch (OAuthException e) {
            return Optional.empty(); // not a token of ours; the application's own authentication answers
        }
        if (token.isPresent() && verifier.check(token.get()).isPresent()) {
            throw BearerToken.notDelegable();
        }
        return Optional.empty();
    }

    /**
     * The method's {@link Delegable} declaration, unless it (or its class) is {@link NotDelegable}. Contradictory
     * declarations count as not delegable (and fail {@code DelegationDeclarationsTest}).
     */
    static Optional<Delegable> delegable(Method method, Class<?> resourceClass) {
        if (method.isAnnotationPresent(NotDelegable.class)
                || resourceClass != null && resourceClass.isAnnotationPresent(NotDelegable.class)
                || method.getDeclaringClass().isAnnotationPresent(NotDelegable.class)) {
            return Optional.empty();
        }
        return Optional.ofNullable(method.getAnnotation(Delegable.class));
    }

    /** The verified access token of the current {@link Delegable} call. */
    public static VerifiedAccessToken accessToken(HttpServletRequest request) {
        Object token = request.getAttribute(ACCESS_TOKEN);
        if (!(token instanceof VerifiedAccessToken verified)) {
            throw new IllegalStateException("not a @Delegable endpoint: no verified access token");
        }
        return verified;
    }
}
