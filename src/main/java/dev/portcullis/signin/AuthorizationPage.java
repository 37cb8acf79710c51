package dev.portcullis.signin;

import dev.portcullis.account.SignInService;
import dev.portcullis.authorize.AuthorizationFlow;
import dev.portcullis.authorize.AuthorizationRequest;
import dev.portcullis.authorize.AuthorizationRequestValidator;
import dev.portcullis.authorize.FormPostPage;
import dev.portcullis.authorize.RejectedAuthorizationRequest;
import dev.portcullis.authorize.UnverifiedRequestException;
import dev.portcullis.config.IssuerSettings;
import dev.portcullis.mfa.SecondFactorService;
import dev.portcullis.page.PageMessages;
import dev.portcullis.protocol.ClientAddress;
import dev.portcullis.protocol.OAuthException;
import dev.portcullis.protocol.ProtocolParameters;
import dev.portcullis.session.BrowserCookies;
import dev.portcullis.session.SsoSession;
import dev.portcullis.session.SsoSessionRepository;
import jakarta.faces.context.ExternalContext;
import jakarta.faces.context.FacesContext;
import jakarta.inject.Inject;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Locale;
import java.util.Optional;

/**
 * Common part of the sign-in and consent backing beans. The pages are stateless Faces views: the pending
 * authorization request travels in the page URL (GET) and a hidden field (POST) as its original query string and is
 * validated again, by the endpoint's validator, on every request. A double-submit CSRF token (cookie + hidden field)
 * protects the POST. No HTTP session is created, so any instance can serve any step and a restart loses nothing.
 */
public abstract class AuthorizationPage {

    @Inject
    AuthorizationRequestValidator validator;

    @Inject
    ClientAddress clientAddress;

    @Inject
    AuthorizationFlow flow;

    @Inject
    SsoSessionRepository sessions;

    @Inject
    SignInService signIn;

    @Inject
    IssuerSettings issuer;

    private String authz;
    private String csrf;
    private AuthorizationRequest pending;
    private boolean resolved;
    private String errorKey;
    private String messageKey;
    private PageMessages msg;

    /** The id of the page's h:form, which prefixes its field names. */
    protected abstract String formId();

    /** f:viewAction of the GET: take the request from the URL, set the CSRF cookie, validate. */
    public String load() {
        authz = rawAuthz();
        csrf = BrowserCookies.csrfToken(servletRequest(), servletResponse(), issuer.isHttps());
        AuthorizationRequest r = resolve(302);
        if (r != null) {
            onLoad(r);
        }
        return null;
    }

    /** Page-specific work after a valid GET (may redirect). */
    protected void onLoad(AuthorizationRequest r) {
    }

    /**
     * The validated pending request, or null when the page shows an error or has redirected. A request that fails
     * after step 1 goes back to the client with the error (only possible if the URL was tampered with).
     */
    protected AuthorizationRequest resolve(int redirectStatus) {
        if (resolved) {
            return pending;
        }
        resolved = true;
        servletResponse().setHeader("Cache-Control", "no-store"); // pages hold a CSRF token and the pending request
        try {
            pending = validator.validatePending(ProtocolParameters.fromForm(rawAuthz()));
        } catch (OAuthException e) {
            fail("error.malformed");
        } catch (UnverifiedRequestException e) {
            fail(e.messageKey());
        } catch (RejectedAuthorizationRequest e) {
            if (redirectStatus > 0) {
                send(flow.rejected(e), redirectStatus);
            } else {
                fail("error.malformed");
            }
        }
        return pending;
    }

    /** Whether the POST carries the CSRF cookie's value in its hidden field; if not, the form is shown again. */
    protected boolean csrfValid() {
        if (BrowserCookies.csrfMatches(servletRequest(), csrf, issuer.isHttps())) {
            return true;
        }
        csrf = BrowserCookies.csrfToken(servletRequest(), servletResponse(), issuer.isHttps());
        message("page.csrf");
        external().setResponseStatus(403);
        return false;
    }

    /** The browser's live SSO session, if its user passes the directory re-check (else it has just ended). */
    protected Optional<SsoSession> liveSession() {
        return BrowserCookies.read(servletRequest(), BrowserCookies.SESSION, issuer.isHttps())
                .flatMap(sessions::findLive).filter(s -> signIn.sessionStillAllowed(s.userId(), ip()));
    }

    /** Sends the browser on: a redirect, or the form post page that carries the response to the client. */
    protected void send(AuthorizationFlow.Next next, int redirectStatus) {
        if (!next.formPost()) {
            redirect(next.location(), redirectStatus);
            return;
        }
        try {
            FormPostPage.of(next.toClient(), getMsg()).write(servletResponse(), 200);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        FacesContext.getCurrentInstance().responseComplete();
    }

    protected void redirect(String location, int status) {
        HttpServletResponse res = servletResponse();
        res.setStatus(status);
        res.setHeader("Location", location);
        res.setHeader("Cache-Control", "no-store");
        FacesContext.getCurrentInstance().responseComplete();
    }

    protected void fail(String key) {
        errorKey = key;
        external().setResponseStatus(400);
    }

    protected void message(String key) {
        messageKey = key;
    }

    /** Why a passkey was not accepted: the throttle's wait or lock, or refused as such (400). */
    protected void passkeyNotAccepted(SecondFactorService.Outcome outcome) {
        switch (outcome) {
            case WAIT -> message("login.wait");
            case LOCKED -> message("login.locked");
            default -> {
                message("passkey.invalid");
                servletResponse().setStatus(400);
            }
        }
    }

    protected String ip() {
        return clientAddress.of(servletRequest());
    }

    /** On GET the page's query string; on POST the hidden field (read raw, so it is available before rendering). */
    private String rawAuthz() {
        HttpServletRequest req = servletRequest();
        String posted = req.getParameter(formId() + ":authz");
        if (posted != null) {
            return posted;
        }
        return req.getQueryString() == null ? "" : req.getQueryString();
    }

    protected HttpServletRequest servletRequest() {
        return (HttpServletRequest) external().getRequest();
    }

    protected HttpServletResponse servletResponse() {
        return (HttpServletResponse) external().getResponse();
    }

    private static ExternalContext external() {
        return FacesContext.getCurrentInstance().getExternalContext();
    }

    // ---- for the page ----

    public PageMessages getMsg() {
        if (msg == null) {
            String uiLocales = null;
            try {
                uiLocales = ProtocolParameters.fromForm(rawAuthz()).get("ui_locales").orElse(null);
            } catch (OAuthException ignored) {
                // malformed request: the page shows an error in the browser's language
            }
            msg = new PageMessages(PageMessages.pick(uiLocales, servletRequest().getLocales()));
        }
        return msg;
    }

    public Locale getLocale() {
        return getMsg().locale();
    }

    public String getLanguage() {
        return getLocale().getLanguage();
    }

    public AuthorizationRequest getRequest() {
        return resolve(0);
    }

    public boolean isFailed() {
        return getRequest() == null;
    }

    public String getErrorKey() {
        return errorKey;
    }

    public String getMessageKey() {
        return messageKey;
    }

    public String getClientName() {
        AuthorizationRequest r = getRequest();
        return r == null ? "" : r.client().name();
    }

    public String getAuthz() {
        return authz != null ? authz : rawAuthz();
    }

    public void setAuthz(String authz) {
        this.authz = authz;
    }

    public String getCsrf() {
        return csrf;
    }

    public void setCsrf(String csrf) {
        this.csrf = csrf;
    }
}
