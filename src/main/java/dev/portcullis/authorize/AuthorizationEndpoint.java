package dev.portcullis.authorize;

import dev.portcullis.account.SignInService;
import dev.portcullis.config.IssuerSettings;
import dev.portcullis.metrics.Metrics;
import dev.portcullis.page.ErrorPage;
import dev.portcullis.page.PageMessages;
import dev.portcullis.protocol.ClientAddress;
import dev.portcullis.protocol.LogText;
import dev.portcullis.protocol.OAuthException;
import dev.portcullis.protocol.ProtocolParameters;
import dev.portcullis.session.BrowserCookies;
import dev.portcullis.session.SsoSession;
import dev.portcullis.session.SsoSessionRepository;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.core.CacheControl;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.net.URI;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import java.util.logging.Logger;

/**
 * {@code GET|POST /oauth/authorize}: the authorization endpoint (RFC 6749 4.1.1, OIDC Core 3.1.2). It validates
 * the request ({@link AuthorizationRequestValidator}), then sends the browser to the sign-in page, the consent page,
 * or back to the client with a code or an error ({@link AuthorizationFlow}). Requests that cannot safely go back to
 * a client get an HTML error page (400). Redirects are 302 after GET and 303 after POST; with
 * {@code response_mode=form_post} the answer to the client is a {@link FormPostPage} (200) instead. A request
 * object (RFC 9101) is verified by the validator and its request then carried by hash ({@link RequestObjectService}).
 */
@Path("authorize")
@ApplicationScoped // one instance: no per-request bean creation or field injection
public class AuthorizationEndpoint {

    private static final Logger LOG = Logger.getLogger(AuthorizationEndpoint.class.getName());

    @Inject
    AuthorizationRequestValidator validator;

    @Inject
    Metrics metrics;

    @Inject
    ClientAddress clientAddress;

    @Inject
    AuthorizationFlow flow;

    @Inject
    SsoSessionRepository sessions;

    @Inject
    SignInService signIns;

    @Inject
    IssuerSettings issuer;

    @Inject
    PushedRequestRepository pushedRequests;

    @Inject
    RequestObjectService requestObjects;

    /**
     * The raw query, decoded here rather than by JAX-RS: Jersey and RESTEasy decode broken escapes ({@code %zz}),
     * invalid UTF-8 and repeated names each their own way (RESTEasy throws on some, a 500), so both servers answer
     * the same request with the same page only if Portcullis reads it itself, as the token endpoint does its body.
     */
    @GET
    public Response get(@Context HttpServletRequest request) {
        return handle(() -> ProtocolParameters.fromForm(request.getQueryString()), 302, request);
    }

    /** The posted form as sent, decoded by the same rules as the query. */
    @POST
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    public Response post(String form, @Context HttpServletRequest request) {
        return handle(() -> ProtocolParameters.fromForm(form), 303, request);
    }

    /**
     * RFC 9126 4: a request_uri of a pushed request is redeemed, once, for the client_id sent with it; the pushed
     * parameters then replace every other parameter. Any other request_uri is left to the validator, which refuses it.
     */
    private ProtocolParameters redeemPushed(ProtocolParameters params) {
        Optional<String> requestUri = params.get("request_uri");
        if (requestUri.isEmpty() || !requestUri.get().startsWith(PushedRequestRepository.REQUEST_URI_PREFIX)) {
            return params;
        }
        String clientId = params.get("client_id").orElseThrow(() -> new UnverifiedRequestException(
                "error.clientMissing", "The request has no client_id"));
        String hash = pushedRequests.redeem(requestUri.get(), clientId).orElseThrow(() ->
                new UnverifiedRequestException("error.requestUriInvalid", "invalid_request_uri: the request_uri is "
                        + "unknown, of another client, used before or expired"));
        return ProtocolParameters.fromForm(AuthorizationRequest.query(Map.of("client_id", clientId,
                AuthorizationRequestValidator.PUSHED_REQUEST, hash)));
    }

    private Response handle(Supplier<ProtocolParameters> parse, int redirectStatus, HttpServletRequest request) {
        ProtocolParameters params;
        try {
            params = parse.get();
        } catch (OAuthException e) {
            // duplicated or malformed parameters: we cannot trust client_id/redirect_uri, so no redirect
            metrics.authorizationRefused(e.error().code());
            return ErrorPage.response(new PageMessages(PageMessages.pick(null, request.getLocales())),
                    "error.malformed", e.description());
        }
        AuthorizationFlow.Next next;
        try {
            AuthorizationRequest r = requestObjects.carry(validator.validate(redeemPushed(params)));
            String ip = clientAddress.of(request);
            // a directory user whose entry was refused at the re-check has no session any more: sign in again
            Optional<SsoSession> session = BrowserCookies.read(request, BrowserCookies.SESSION, issuer.isHttps())
                    .flatMap(sessions::findLive).filter(s -> signIns.sessionStillAllowed(s.userId(), ip));
            next = flow.atEndpoint(r, session, ip);
        } catch (UnverifiedRequestException e) {
            LOG.fine(() -> "Authorization request refused: " + LogText.escape(e.getMessage()));
            metrics.authorizationRefused("unverified_request");
            // the texts only for the error page: a redirect, the common answer, needs none
            PageMessages msg = new PageMessages(
                    PageMessages.pick(params.get("ui_locales").orElse(null), request.getLocales()));
            return ErrorPage.response(msg, e.messageKey(), e.getMessage());
        } catch (RejectedAuthorizationRequest e) {
            next = flow.rejected(e);
        }
        if (next.formPost()) {
            PageMessages msg = new PageMessages(
                    PageMessages.pick(params.get("ui_locales").orElse(null), request.getLocales()));
            return FormPostPage.of(next.toClient(), msg).response(200).build();
        }
        return Response.status(redirectStatus)
                .location(URI.create(next.location()))
                .cacheControl(CacheControl.valueOf("no-store"))
                .build();
    }
}
