package dev.portcullis.signin;

import dev.portcullis.account.User;
import dev.portcullis.account.UserLookupService;
import dev.portcullis.audit.Actor;
import dev.portcullis.config.IssuerSettings;
import dev.portcullis.page.PageMessages;
import dev.portcullis.protocol.ClientAddress;
import dev.portcullis.session.BrowserCookies;
import dev.portcullis.session.SsoSession;
import jakarta.enterprise.context.RequestScoped;
import jakarta.faces.context.FacesContext;
import jakarta.inject.Inject;
import jakarta.inject.Named;
import jakarta.servlet.DispatcherType;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.util.Optional;

/**
 * Who is signed in on a page under {@code /account/} or {@code /admin/console/}: {@link OwnPagesGate} lets a request
 * reach such a page only with a live SSO session (and, on the console, the admin role) and leaves the session and
 * user here. Pages read {@code #{signedInUser.user}}; their forms carry
 * {@code <input type="hidden" name="csrf" value="#{signedInUser.csrf}"/>} and their actions call
 * {@link #authorizedActor()} first, so no change is made, or audited, without an actor.
 */
@Named("signedInUser")
@RequestScoped
public class SignedInUser {

    static final String SESSION = SignedInUser.class.getName() + ".session";
    static final String USER = SignedInUser.class.getName() + ".user";
    static final String CSRF = SignedInUser.class.getName() + ".csrf";

    @Inject
    HttpServletRequest request;

    @Inject
    IssuerSettings issuer;

    @Inject
    UserLookupService users;

    @Inject
    ClientAddress clientAddress;

    private PageMessages msg;

    /** The signed-in user; a page outside the gated paths has none and fails loudly. */
    public User getUser() {
        return attribute(USER, User.class);
    }

    /** The browser's SSO session (its hash identifies "this session" in lists of sessions). */
    public SsoSession getSession() {
        return attribute(SESSION, SsoSession.class);
    }

    public String getUserId() {
        return getUser().userId();
    }

    /** The name to show: the display name with the username, or the username alone. */
    public String getDisplayName() {
        User u = getUser();
        return u.name() != null && !u.name().isBlank() ? u.name() + " (" + u.username() + ")" : u.username();
    }

    /** Whether the user may open the admin console (the link on the account page). */
    public boolean isAdmin() {
        return users.isAdmin(getUserId());
    }

    /** The CSRF token for a form of this page, bound to the SSO session (see {@link BrowserCookies#csrfToken}). */
    public String getCsrf() {
        return attribute(CSRF, String.class);
    }

    /**
     * The actor of a posted action, decided before the action changes anything; empty, and the action does nothing,
     * unless all of these hold now:
     * <ul>
     *   <li>{@link OwnPagesGate} admitted this very request (a live session and an enabled user);</li>
     *   <li>the page is one of an area ({@link OwnPage#dispatchedPath}) and, on the console, the user is still an
     *       administrator (read again, not taken from the gate);</li>
     *   <li>the form carried this browser's CSRF token in its field {@code csrf}, bound to that session.</li>
     * </ul>
     * The token is read from the request, not bound to a component: a form repeated in a table row (ui:repeat) does
     * not reliably update its model in a stateless view.
     */
    public Optional<Actor> authorizedActor() {
        if (!(request.getAttribute(SESSION) instanceof SsoSession session)
                || !(request.getAttribute(USER) instanceof User user)
                || request.getDispatcherType() != DispatcherType.REQUEST) {
            return Optional.empty();
        }
        Optional<OwnPage> area = OwnPage.of(OwnPage.dispatchedPath(request));
        boolean allowed = area.isPresent() && session.userId().equals(user.userId())
                && (area.get() != OwnPage.CONSOLE ? users.findById(user.userId()).filter(User::enabled).isPresent()
                        : users.isAdmin(user.userId()));
        String[] submitted = request.getParameterValues("csrf");
        if (!allowed || submitted == null || submitted.length != 1
                || BrowserCookies.read(request, BrowserCookies.SESSION, issuer.isHttps()).isEmpty()
                || !BrowserCookies.csrfMatches(request, submitted[0], issuer.isHttps())) {
            return Optional.empty();
        }
        return Optional.of(Actor.administrator(user.userId(), ip()));
    }

    /**
     * A request parameter that may be looked up (an id, a username, search text): present once, at most {@code max}
     * characters, no control characters (PostgreSQL refuses NUL in text, which would be a 503); else null, and the
     * page treats it as matching nothing.
     */
    public String parameter(String name, int max) {
        String[] values = request.getParameterValues(name);
        if (values == null || values.length != 1 || values[0].length() > max
                || values[0].codePoints().anyMatch(Character::isISOControl)) {
            return null;
        }
        return values[0];
    }

    /** The client address of the request, as the audit trail records it. */
    public String ip() {
        return clientAddress.of(request);
    }

    /** Ends an action with 303 to a page of this server (post/redirect/get, so a reload repeats nothing). */
    public void redirect(String path) {
        HttpServletResponse res = response();
        res.setStatus(303);
        res.setHeader("Location", issuer.endpoint(path));
        FacesContext.getCurrentInstance().responseComplete();
    }

    /** The status of the page rendered for a refused action (400 bad input, 403 bad form token). */
    public void status(int status) {
        response().setStatus(status);
    }

    public HttpServletResponse response() {
        return (HttpServletResponse) FacesContext.getCurrentInstance().getExternalContext().getResponse();
    }

    /** The page texts in the browser's language (English or German). */
    public PageMessages getMsg() {
        if (msg == null) {
            msg = new PageMessages(PageMessages.pick(null, request.getLocales()));
        }
        return msg;
    }

    public String getLanguage() {
        return getMsg().locale().getLanguage();
    }

    private <T> T attribute(String name, Class<T> type) {
        Object value = request.getAttribute(name);
        if (value == null) {
            throw new IllegalStateException("SignedInUser is only available on pages behind OwnPagesGate");
        }
        return type.cast(value);
    }
}
