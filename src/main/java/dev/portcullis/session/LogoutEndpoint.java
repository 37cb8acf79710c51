package dev.portcullis.session;

import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSVerifier;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import dev.portcullis.audit.AuditEvent;
import dev.portcullis.audit.AuditLog;
import dev.portcullis.client.Client;
import dev.portcullis.client.ClientRepository;
import dev.portcullis.config.IssuerSettings;
import dev.portcullis.jose.SigningKeyService;
import dev.portcullis.metrics.Metrics;
import dev.portcullis.page.ErrorPage;
import dev.portcullis.page.HtmlPage;
import dev.portcullis.page.PageMessages;
import dev.portcullis.protocol.ClientAddress;
import dev.portcullis.protocol.OAuthException;
import dev.portcullis.protocol.ProtocolParameters;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.core.CacheControl;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * {@code GET} and {@code POST /oauth/logout} (OpenID Connect RP-Initiated Logout 1.0), the discovery document's
 * {@code end_session_endpoint}. Ending the SSO session deletes its row (so no instance knows it any more) and clears
 * the cookie. The parameters come by GET or form POST alike; a post carrying the page's own {@code csrf} field is
 * the confirmation form, and one carrying {@code refresh_token} is a client's logout by refresh token
 * ({@link RefreshTokenLogout}).
 * <ul>
 * <li>{@code id_token_hint}: an ID token of this issuer, signature verified with our keys; an expired one is still
 * good to identify the client and user. With a valid hint for the signed-in user (or nobody signed in), the session
 * ends at once; otherwise the user is asked to confirm (a form with a double-submit CSRF token, as on the sign-in
 * page, posted back here).</li>
 * <li>{@code post_logout_redirect_uri}: followed (with {@code state}) only when it is registered, exactly (character
 * for character), for the client named by the hint or {@code client_id}. Any other value is never followed, and with
 * a session the user is asked to confirm even with a valid hint: a request that names a target its client never
 * registered is not the client's plain request, so it ends nothing by itself; once confirmed, the signed-out page is
 * shown.</li>
 * <li>A malformed request or an invalid hint gets an HTML error page (400); nothing is ended.</li>
 * <li>Front-Channel Logout 1.0: when the ended session served clients that registered a
 * {@code frontchannel_logout_uri}, the signed-out page loads each in a hidden iframe ({@link FrontChannelLogout})
 * and, with a {@code post_logout_redirect_uri}, /js/logout.js continues there once the frames have loaded or after
 * a bounded wait (a link does the same without script).</li>
 * </ul>
 */
@Path("logout")
@RequestScoped
public class LogoutEndpoint {

    @Inject
    SsoSessionRepository sessions;

    @Inject
    Metrics metrics;

    @Inject
    ClientAddress clientAddress;

    @Inject
    ClientRepository clients;

    @Inject
    SigningKeyService keys;

    @Inject
    IssuerSettings issuer;

    @Inject
    AuditLog audit;

    @Inject
    RefreshTokenLogout refreshTokenLogout;

    /** The parameters of RP-Initiated Logout 1.0 sec. 2 that this endpoint reads. */
    private static final java.util.List<String> RP_PARAMETERS = java.util.List.of("id_token_hint",
            "post_logout_redirect_uri", "state", "client_id", "ui_locales");

    /** The confirmation form's CSRF field; a post that carries it is that form's. */
    private static final String CSRF = "csrf";

    @Context
    HttpServletRequest request;

    @Context
    HttpServletResponse response;

    /** What the request asks for, after validation. */
    private record LogoutRequest(Optional<String> hintSubject, Optional<Client> client, Optional<String> target,
                                 boolean targetRefused, Optional<String> state) {
    }

    /** Raised for a request that is refused with the error page. */
    private static final class Refused extends Exception {
        private static final long serialVersionUID = 1L;
        final String messageKey;

        Refused(String messageKey, String detail) {
            super(detail, null, false, false);
            this.messageKey = messageKey;
        }
    }

    /**
     * The raw query, decoded by {@link ProtocolParameters} rather than by JAX-RS: RESTEasy throws on a broken escape
     * ({@code %zz}) or invalid UTF-8, a 500, where Jersey decodes on; read here, both answer the same error page.
     */
    @GET
    public Response get() {
        return rpInitiated(() -> ProtocolParameters.fromForm(request.getQueryString()), 302, false);
    }

    /**
     * A form post: with {@code refresh_token}, a client's server-to-server logout ({@link RefreshTokenLogout}, JSON
     * answers); with this page's {@code csrf} field, the confirmation form; otherwise a relying party's
     * RP-initiated logout by POST (RP-Initiated Logout 1.0 sec. 2), handled as the GET.
     */
    @POST
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    public Response post(String body) {
        if (request.getContentType() == null) {
            // a POST without a form content type: neither a relying party's form nor ours
            return ErrorPage.response(messages(null), "error.malformed",
                    "Send the logout parameters as a form (application/x-www-form-urlencoded) or by GET");
        }
        // the body as sent, decoded by the query's rules (the GET above says why JAX-RS's form reader is not used)
        ProtocolParameters form;
        try {
            form = ProtocolParameters.fromForm(body);
        } catch (OAuthException e) {
            // a body naming refresh_token is a client's server-to-server request, which hears JSON, never a page
            return ("&" + body).contains("&refresh_token=") ? e.toResponse()
                    : ErrorPage.response(messages(null), "error.malformed", e.description());
        }
        // by name, even when empty: an empty refresh_token is a refused client request, an empty csrf a forged form
        if (form.asMap().containsKey("refresh_token")) {
            return refreshTokenLogout(form);
        }
        if (!form.asMap().containsKey(CSRF)) {
            return rpInitiated(() -> form, 303, true);
        }
        PageMessages msg = messages(null);
        try {
            ProtocolParameters p = form;
            msg = messages(p.get("ui_locales").orElse(null));
            LogoutRequest r = validate(p);
            if (!BrowserCookies.csrfMatches(request, p.get(CSRF).orElse(null), issuer.isHttps())) {
                return confirmationPage(r, msg, "page.csrf", 403);
            }
            return signOut(r, liveSession(), msg, 303);
        } catch (OAuthException e) {
            return ErrorPage.response(msg, "error.malformed", e.description());
        } catch (Refused e) {
            return ErrorPage.response(msg, e.messageKey, e.getMessage());
        }
    }

    /**
     * The relying party's request, by GET or POST: with a valid hint for the signed-in user (or nobody signed in),
     * the session ends at once; otherwise the user confirms.
     */
    private Response rpInitiated(Supplier<ProtocolParameters> parameters, int redirectStatus, boolean posted) {
        PageMessages msg = messages(null);
        try {
            ProtocolParameters p = parameters.get();
            msg = messages(p.get("ui_locales").orElse(null));
            LogoutRequest r = validate(p);
            if (posted && BrowserCookies.read(request, BrowserCookies.SESSION, issuer.isHttps()).isEmpty()) {
                // a cross-site POST carries no SameSite=Lax cookie, but the top-level GET it is sent on to does: only
                // then can "no session" be told from "a session the browser did not send"
                return asGet(p);
            }
            Optional<SsoSession> session = liveSession();
            boolean sameUser = r.hintSubject().isPresent()
                    && (session.isEmpty() || session.get().userId().equals(r.hintSubject().get()));
            if (session.isEmpty() || sameUser && !r.targetRefused()) {
                return signOut(r, session, msg, redirectStatus);
            }
            return confirmationPage(r, msg, null, 200);
        } catch (OAuthException e) {
            return ErrorPage.response(msg, "error.malformed", e.description());
        } catch (Refused e) {
            return ErrorPage.response(msg, e.messageKey, e.getMessage());
        }
    }

    /** The same request as a GET, to which a relying party's POST without the session cookie is sent on (303). */
    private Response asGet(ProtocolParameters p) {
        StringBuilder query = new StringBuilder();
        for (String name : RP_PARAMETERS) {
            p.get(name).ifPresent(v -> query.append(query.length() == 0 ? "?" : "&").append(name).append('=')
                    .append(URLEncoder.encode(v, StandardCharsets.UTF_8)));
        }
        return Response.seeOther(URI.create(issuer.endpoint("/oauth/logout") + query))
                .cacheControl(CacheControl.valueOf("no-store")).build();
    }

    /** A client's logout with its refresh token: 204, or the OAuth error as JSON; never a page. */
    private Response refreshTokenLogout(ProtocolParameters form) {
        try {
            refreshTokenLogout.end(form, request.getHeader("Authorization"),
                    clientAddress.of(request));
            return Response.noContent().cacheControl(CacheControl.valueOf("no-store")).build();
        } catch (OAuthException e) {
            return e.toResponse();
        }
    }

    private LogoutRequest validate(ProtocolParameters p) throws Refused {
        Optional<JWTClaimsSet> hint = Optional.empty();
        if (p.has("id_token_hint")) {
            hint = Optional.of(verifiedHint(p.require("id_token_hint"))
                    .orElseThrow(() -> new Refused("error.logoutHint", "id_token_hint is not an ID token of this issuer")));
        }
        Optional<String> hintClient = hint.flatMap(c -> Optional.ofNullable(c.getAudience()))
                .filter(aud -> aud.size() == 1).map(aud -> aud.get(0));
        Optional<String> clientId = p.get("client_id");
        if (hint.isPresent() && hintClient.isEmpty()) {
            throw new Refused("error.logoutHint", "id_token_hint has no single audience");
        }
        if (clientId.isPresent() && hintClient.isPresent() && !clientId.equals(hintClient)) {
            throw new Refused("error.logoutHint", "client_id differs from the audience of id_token_hint");
        }
        Optional<String> id = hintClient.or(() -> clientId);
        Optional<Client> client = id.flatMap(clients::find);
        if (id.isPresent() && client.isEmpty()) {
            throw new Refused("error.clientUnknown", "unknown client");
        }
        Optional<String> asked = p.get("post_logout_redirect_uri");
        Optional<String> target = asked.filter(uri -> client.isPresent()
                && client.get().allowsPostLogoutRedirectUri(uri));
        return new LogoutRequest(hint.map(JWTClaimsSet::getSubject), client, target,
                asked.isPresent() && target.isEmpty(), p.get("state"));
    }

    /** The hint's claims when it is an RS256 JWT signed by one of our published keys and issued by us. */
    private Optional<JWTClaimsSet> verifiedHint(String hint) {
        try {
            SignedJWT jwt = SignedJWT.parse(hint);
            if (!JWSAlgorithm.RS256.equals(jwt.getHeader().getAlgorithm())) {
                return Optional.empty();
            }
            Optional<JWSVerifier> verifier = keys.verifier(jwt.getHeader().getKeyID(), JWSAlgorithm.RS256);
            if (verifier.isEmpty() || !jwt.verify(verifier.get())) {
                return Optional.empty();
            }
            JWTClaimsSet claims = jwt.getJWTClaimsSet();
            // exp deliberately not checked: an expired ID token still names its client and user (Logout 1.0 sec. 2)
            return issuer.issuerString().equals(claims.getIssuer()) && claims.getSubject() != null
                    ? Optional.of(claims) : Optional.empty();
        } catch (Exception e) {
            return Optional.empty();
        }
    }

    private Optional<SsoSession> liveSession() {
        return BrowserCookies.read(request, BrowserCookies.SESSION, issuer.isHttps())
                .flatMap(sessions::findLive);
    }

    private Response signOut(LogoutRequest r, Optional<SsoSession> session, PageMessages msg, int redirectStatus) {
        List<String> frames = session.map(s -> FrontChannelLogout.uris(s.clients().stream().sorted()
                .map(clients::find).flatMap(Optional::stream).map(Client::logoutNotifications).toList(),
                issuer.issuerString(), s.sid())).orElse(List.of());
        Optional<String> cookie = BrowserCookies.read(request, BrowserCookies.SESSION, issuer.isHttps());
        cookie.ifPresent(sessions::end);
        if (cookie.isPresent()) {
            BrowserCookies.clear(response, BrowserCookies.SESSION, issuer.isHttps());
        }
        session.ifPresent(s -> audit.success(AuditEvent.Type.SIGN_OUT, r.client().map(Client::clientId).orElse(null),
                s.userId(), clientAddress.of(request), "RP-initiated logout"));
        session.ifPresent(s -> metrics.logout(Metrics.LogoutTrigger.RP_INITIATED));
        Optional<String> location = r.target().map(target -> r.state().isEmpty() ? target
                : target + (target.contains("?") ? "&" : "?") + "state="
                + URLEncoder.encode(r.state().get(), StandardCharsets.UTF_8));
        if (location.isPresent() && frames.isEmpty()) {
            return Response.status(redirectStatus).location(URI.create(location.get()))
                    .cacheControl(CacheControl.valueOf("no-store")).build();
        }
        HtmlPage page = HtmlPage.titled(msg.get("logout.doneTitle")).lang(msg.locale().getLanguage())
                .id("signed-out-page")
                .add(HtmlPage.element("p").cls("lead").id("signed-out").text(msg.get("logout.done")));
        if (!frames.isEmpty()) {
            // the script goes first so that its capturing listener sees every frame's load event
            page.add(HtmlPage.element("script").attr("src", "/js/logout.js"));
            for (String uri : frames) {
                page.add(HtmlPage.element("iframe").cls("frontchannel-logout").attr("src", uri).attr("hidden", "")
                        .attr("title", msg.get("logout.frame")));
            }
            // this page alone may frame, and only the relying parties' own logout pages
            response.setHeader("Content-Security-Policy", FrontChannelLogout.contentSecurityPolicy(frames));
        }
        location.ifPresent(l -> page.add(HtmlPage.actions(HtmlPage.element("a").id("continue").attr("href", l)
                .text(msg.get("logout.continue")))));
        return page.response(200).build();
    }

    private Response confirmationPage(LogoutRequest r, PageMessages msg, String messageKey, int status) {
        String csrf = BrowserCookies.csrfToken(request, response, issuer.isHttps());
        HtmlPage.Element form = HtmlPage.element("form").id("logout").attr("method", "post")
                .attr("action", issuer.endpoint("/oauth/logout"));
        if (messageKey != null) {
            form.add(HtmlPage.element("div").cls("error").attr("role", "alert").id("message")
                    .text(msg.get(messageKey)));
        }
        if (r.targetRefused()) {
            // the address itself is not shown: it is the requester's text, not the client's
            form.add(HtmlPage.element("p").id("target-not-registered").text(msg.get("logout.targetNotRegistered")));
        }
        form.add(HtmlPage.hidden(CSRF, csrf));
        r.client().ifPresent(c -> form.add(HtmlPage.hidden("client_id", c.clientId())));
        r.target().ifPresent(t -> form.add(HtmlPage.hidden("post_logout_redirect_uri", t)));
        r.state().ifPresent(s -> form.add(HtmlPage.hidden("state", s)));
        form.add(HtmlPage.hidden("ui_locales", msg.locale().getLanguage()),
                HtmlPage.actions(HtmlPage.element("button").attr("type", "submit").id("confirm")
                        .text(msg.get("logout.submit"))));
        String lead = r.client().map(c -> msg.format("logout.leadClient", c.name())).orElse(msg.get("logout.lead"));
        return HtmlPage.titled(msg.get("logout.title")).lang(msg.locale().getLanguage()).id("logout-page")
                .lead(lead).add(form).response(status).build();
    }

    private PageMessages messages(String uiLocales) {
        return new PageMessages(PageMessages.pick(uiLocales, request.getLocales()));
    }
}
