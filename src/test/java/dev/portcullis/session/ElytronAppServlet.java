package dev.portcullis.session;

import jakarta.servlet.ServletException;
import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpSession;
import java.io.IOException;

/**
 * The page of {@link ElytronOidcLogoutIT}'s WildFly application, behind {@code elytron-oidc-client}: {@code /protected/who}
 * names the signed-in principal, {@code /protected/logout} signs out the way a Jakarta EE application does
 * ({@link HttpServletRequest#logout()}, which is where elytron tells the provider).
 */
@WebServlet("/protected/*")
public class ElytronAppServlet extends HttpServlet {

    @Override
    protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException, ServletException {
        resp.setContentType("text/html;charset=UTF-8");
        if ("/logout".equals(req.getPathInfo())) {
            req.logout();
            HttpSession session = req.getSession(false);
            if (session != null) {
                session.invalidate();
            }
            resp.getWriter().print("<!DOCTYPE html><html><body><p id=\"elytron-signed-out\">signed out</p></body></html>");
            return;
        }
        String name = req.getUserPrincipal() == null ? "" : req.getUserPrincipal().getName();
        resp.getWriter().print("<!DOCTYPE html><html><body><p id=\"who\">" + name.replaceAll("[^A-Za-z0-9._@-]", "")
                + "</p></body></html>");
    }
}
