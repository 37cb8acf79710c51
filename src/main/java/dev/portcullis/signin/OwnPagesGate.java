package dev.portcullis.signin;

import dev.portcullis.account.User;
import dev.portcullis.account.UserService;
import dev.portcullis.authorize.AuthorizationFlow;
import dev.portcullis.config.PortcullisConfig;
import dev.portcullis.page.HtmlPage;
import dev.portcullis.page.PageMessages;
import dev.portcullis.protocol.ClientAddress;
import dev.portcullis.session.BrowserCookies;
import dev.portcullis.session.SsoSession;
import dev.portcullis.session.SsoSessions;
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
 *   <li>on the console, a signed-in user without the {@value User#ADMIN} role gets 403 on every path;</li>
 *   <li>otherwise the session, the user and the form token are left for {@link SignedInUser} and the page runs.</li>
 * </ul>
 * A filter rather than a check in each page, so no page can forget it, and the callback needs no view.
 */
@WebFilter(filterName = "OwnPagesGate", urlPatterns = {"/account/*", "/admin/console/*"})
public class OwnPagesGate extends HttpFilter {

    private static final long serialVersionUID = 1L;

    @Inject
    SsoSessions sessions;

    @Inject
    UserService users;

    @Inject
    OwnPagesSignIn signIn;

    @Inject
    AuthorizationFlow flow;

    @Inject
    ClientAddress clientAddress;

    @Inject
    PortcullisConfig config;

    @Override
    protected void doFilter(HttpServletRequest req, HttpServletResponse res, FilterChain chain)
            throws IOException, ServletException {
        String path = req.getRequestURI().substring(req.getContextPath().length());
        OwnPage page = OwnPage.of(path).orElse(null);
        if (page == null) {
            chain.doFilter(req, res);
            return;
        }
        res.setHeader("Cache-Control", "no-store");
        boolean secure = config.issuerIsHttps();
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
        // a session whose sign-in still owes its second factor signs in again (the authorization endpoint asks for it)
        session = session.filter(s -> !flow.secondFactorOwed(s, false));
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
                        .attr("href", config.endpoint(page.home())).text(msg.get("own.signin.again"))))
                .write(res, 400);
    }

    private void forbidden(HttpServletRequest req, HttpServletResponse res, User user) throws IOException {
        PageMessages msg = new PageMessages(PageMessages.pick(null, req.getLocales()));
        HtmlPage.error(msg.get("console.forbidden.title"), msg.format("console.forbidden", user.username()))
                .lang(msg.locale().getLanguage()).id("forbidden-page")
                .add(HtmlPage.element("p").add(HtmlPage.element("a").id("to-account")
                        .attr("href", config.endpoint(OwnPage.ACCOUNT.home())).text(msg.get("console.to-account"))))
                .write(res, 403);
    }

    private void redirect(HttpServletResponse res, int status, String path) {
        res.setStatus(status);
        res.setHeader("Location", config.endpoint(path));
    }
}
