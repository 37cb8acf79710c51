package dev.portcullis.signin;

import dev.portcullis.account.User;
import dev.portcullis.config.PortcullisConfig;
import dev.portcullis.page.PageMessages;
import dev.portcullis.session.BrowserCookies;
import dev.portcullis.session.SsoSession;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.inject.Named;
import jakarta.servlet.http.HttpServletRequest;

/**
 * Who is signed in on a page under {@code /account/} or {@code /admin/console/}: {@link OwnPagesGate} lets a request
 * reach such a page only with a live SSO session (and, on the console, the admin role) and leaves the session and
 * user here. Pages read {@code #{signedInUser.user}}; their forms carry {@code #{signedInUser.csrf}} in a hidden
 * field and their actions call {@link #csrfValid()} first.
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
    PortcullisConfig config;

    private String submittedCsrf;
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

    public boolean isAdmin() {
        return OwnPagesGate.isAdmin(getUser());
    }

    /** The CSRF token for a form of this page, bound to the SSO session (see {@link BrowserCookies#csrfToken}). */
    public String getCsrf() {
        return attribute(CSRF, String.class);
    }

    /** The token a form posted back (its hidden field). */
    public void setCsrf(String submitted) {
        this.submittedCsrf = submitted;
    }

    /** Whether the posted form carried this browser's CSRF token; an action does nothing otherwise. */
    public boolean csrfValid() {
        return BrowserCookies.csrfMatches(request, submittedCsrf, config.issuerIsHttps());
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
