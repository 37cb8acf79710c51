package dev.portcullis.console;

import dev.portcullis.account.User;
import dev.portcullis.account.UserAdminService;
import dev.portcullis.account.UserLookupService;
import dev.portcullis.protocol.Username;
import dev.portcullis.signin.SignedInUser;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.inject.Named;
import jakarta.servlet.http.HttpServletRequest;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Backing bean of {@code /admin/console/users.xhtml}: search users (username, e-mail, name; a page at a time, in
 * username order) and disable or enable one. A disabled user cannot sign in, and their sessions and tokens end at
 * once ({@link UserAdminService#update}); the change is audited with the administrator's id. A refused change (an
 * administrator disabling themself, which the service refuses) shows its reason.
 */
@Named("consoleUsers")
@RequestScoped
public class ConsoleUsersPage {

    static final int PAGE = 50;

    @Inject
    SignedInUser signedIn;

    @Inject
    ConsoleForm form;

    @Inject
    UserLookupService users;

    @Inject
    UserAdminService userAdmin;

    @Inject
    HttpServletRequest request;

    private List<User> found;

    /** The search text of the query (GET form), or empty. */
    public String getQ() {
        String q = signedIn.parameter("q", UserLookupService.MAX_SEARCH_TEXT);
        return q == null ? "" : q;
    }

    public List<User> getUsers() {
        if (found == null) {
            String after = request.getParameter("after") == null ? null
                    : signedIn.parameter("after", Username.MAX_LENGTH);
            found = after == null && request.getParameter("after") != null ? List.of()
                    : users.search(getQ(), after, PAGE);
        }
        return found;
    }

    /** The link to the next page, or null on the last one. */
    public String getNextPage() {
        List<User> page = getUsers();
        if (page.size() < PAGE) {
            return null;
        }
        return "users.xhtml?q=" + enc(getQ()) + "&after=" + enc(page.get(page.size() - 1).username());
    }

    /** Disables or enables the user of the row's hidden fields {@code username} and {@code enable}. */
    public String setEnabled() {
        String username = signedIn.parameter("username", Username.MAX_LENGTH);
        boolean enable = "true".equals(request.getParameter("enable"));
        form.submit(actor -> {
            if (username != null) {
                userAdmin.update(username, UserAdminService.UserPatch.patch().enabled(enable).build(), actor);
            }
            signedIn.redirect("/admin/console/users.xhtml?q=" + enc(getQ()) + "&done="
                    + (enable ? "console.users.enabled" : "console.users.disabled"));
        });
        return null;
    }

    private static String enc(String s) {
        return URLEncoder.encode(s == null ? "" : s, StandardCharsets.UTF_8);
    }
}
