package dev.portcullis.signin;

import dev.portcullis.account.SignInService;
import dev.portcullis.account.User;
import dev.portcullis.account.UserLookupService;
import dev.portcullis.authorize.AuthorizationFlow;
import dev.portcullis.client.Client;
import dev.portcullis.client.ClientService;
import dev.portcullis.config.IssuerSettings;
import dev.portcullis.page.HtmlPage;
import dev.portcullis.page.PageMessages;
import dev.portcullis.protocol.ClientAddress;
import dev.portcullis.session.BrowserCookies;
import dev.portcullis.session.SsoSession;
import dev.portcullis.session.SsoSessionRepository;
import jakarta.inject.Inject;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.annotation.WebFilter;
import jakarta.servlet.http.HttpFilter;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.Optional;

/**
 * The gate of every request under {@code /account/} and {@code /admin/console/} ({@link OwnPage}), before Faces:
 * <ul>
 *   <li>every answer is {@code no-store};</li>
 *   <li>the area's callback redeems the sign-in ({@link OwnPagesSignIn#finish}) and continues to the page asked
 *       for;</li>
 *   <li>without a live SSO session the browser is sent to sign in as the area's built-in client, and comes back to
 *       the page it asked for (a form posted without a session is lost: it goes to the area's home);</li>
 *   <li>a session that owes a second factor (to {@code portcullis.mfa.required} or to the area's client's
 *       {@code require_mfa}, as at any client) signs in again, which asks for it;</li>
 *   <li>on the console, a signed-in user without the {@value User#ADMIN} role gets 403 on every path;</li>
 *   <li>otherwise the session, the user and the form token are left for {@link SignedInUser} and the page runs.</li>
 * </ul>
 * The request is classified by the path the container dispatched ({@link OwnPage#dispatchedPath}), never by the raw
 * URI, and a request this filter sees but cannot place in an area is refused. A filter rather than a check in each
 * page, so no page can forget it, and the callback needs no view; the pages' actions check again
 * ({@link SignedInUser#authorizedActor}) before they change anything.
 */
@WebFilter(filterName = "OwnPagesGate", urlPatterns = {"/account/*", "/admin/console/*"})
public class OwnPagesGate extends HttpFilter {

    private static final long serialVersionUID = 1L;

    @Inject
    SsoSessionRepository sessions;

    @Inject
    UserLookupService users;

    @Inject
    SignInService signIns;

    @Inject
    OwnPagesSignIn signIn;

    @Inject
    AuthorizationFlow flow;

    @Inject
    ClientAddress clientAddress;

    @Inject
    ClientService clients;

    @Inject
    IssuerSettings issuer;

    @Override
    protected void doFilter(HttpServletRequest req, HttpServletResponse res, FilterChain chain)
            throws IOException, ServletException {
        res.setHeader("Cache-Control", "no-store");
        String path = OwnPage.dispatchedPath(req);
        OwnPage page = OwnPage.of(path).orElse(null);
        if (page == null) {
            // the container matched this filter's patterns yet dispatches elsewhere: what cannot be classified is refused
            res.sendError(404);
            return;
        }
        boolean secure = issuer.isHttps();
        Optional<SsoSession> session = BrowserCookies.read(req, BrowserCookies.SESSION, secure)
                .flatMap(sessions::findLive);
        if (path.equals(page.callback())) {
            callback(page, req, res, session);
            return;
        }
        if (path.equals(page.root()) || page.root().equals(path + "/")) {
            redirect(res, 302, page.home());
            return;
        }
        // a session whose sign-in still owes its second factor signs in again (the authorization endpoint asks for it):
        // the area's built-in client's require_mfa counts like any client's; a missing client counts as requiring it
        boolean clientRequiresMfa = clients.find(page.clientId()).map(Client::requireMfa).orElse(true);
        session = session.filter(s -> !flow.secondFactorOwed(s, clientRequiresMfa));
        // the directory re-check: a refused entry ends the session; the admin group is taken from it
        session = session.filter(s -> signIns.sessionStillAllowed(s.userId(), clientAddress.of(req)));
        User user = session.flatMap(s -> users.findById(s.userId())).filter(User::enabled).orElse(null);
        if (user == null) {
            boolean get = "GET".equals(req.getMethod()) || "HEAD".equals(req.getMethod());
            String back = get ? path + (req.getQueryString() == null ? "" : "?" + req.getQueryString()) : null;
            res.setStatus(get ? 302 : 303);
            res.setHeader("Location", signIn.start(page, back, res));
            return;
        }
        if (page == OwnPage.CONSOLE && !users.isAdmin(user.userId())) {
            forbidden(req, res, user);
            return;
        }
        req.setAttribute(SignedInUser.SESSION, session.get());
        req.setAttribute(SignedInUser.USER, user);
        req.setAttribute(SignedInUser.CSRF, BrowserCookies.csrfToken(req, res, secure));
        chain.doFilter(req, res);
    }

    private void callback(OwnPage page, HttpServletRequest req, HttpServletResponse res,
                          Optional<SsoSession> session) throws IOException {
        Optional<String> next = signIn.finish(page, req, res, session, clientAddress.of(req));
        if (next.isPresent() || session.isPresent()) {
            // a stale or repeated callback of a browser that is signed in anyway: the session decides, not the code
            redirect(res, 303, next.orElse(page.home()));
            return;
        }
        PageMessages msg = new PageMessages(PageMessages.pick(null, req.getLocales()));
        HtmlPage.error(msg.get("own.signin.failed.title"), msg.get("own.signin.failed"))
                .lang(msg.locale().getLanguage()).id("error-page")
                .add(HtmlPage.element("p").add(HtmlPage.element("a").id("start-again")
                        .attr("href", issuer.endpoint(page.home())).text(msg.get("own.signin.again"))))
                .write(res, 400);
    }

    private void forbidden(HttpServletRequest req, HttpServletResponse res, User user) throws IOException {
        PageMessages msg = new PageMessages(PageMessages.pick(null, req.getLocales()));
        HtmlPage.error(msg.get("console.forbidden.title"), msg.format("console.forbidden", user.username()))
                .lang(msg.locale().getLanguage()).id("forbidden-page")
                .add(HtmlPage.element("p").add(HtmlPage.element("a").id("to-account")
                        .attr("href", issuer.endpoint(OwnPage.ACCOUNT.home())).text(msg.get("console.to-account"))))
                .write(res, 403);
    }

    private void redirect(HttpServletResponse res, int status, String path) {
        res.setStatus(status);
        res.setHeader("Location", issuer.endpoint(path));
    }
}
