package dev.portcullis.accountpage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.portcullis.testing.Admin;
import dev.portcullis.testing.Http;
import dev.portcullis.testing.PortcullisIT;
import dev.portcullis.testing.UserAgent;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The account page at {@code /account/}: Portcullis's own relying party. A browser without a session signs in
 * through the ordinary authorization endpoint as the built-in client {@code portcullis-account} and comes back to
 * the page it asked for.
 */
class AccountPageIT extends PortcullisIT {

    private static final String PASSWORD = "correct horse battery";

    private final Admin admin = admin();

    /** Follows the gate from {@code path} through sign-in to the page; returns the page. */
    static Http.Res signInTo(UserAgent ua, String path, Admin.TestUser user) {
        Http.Res r = ua.get(path);
        for (int step = 0; step < 8; step++) {
            if (r.status() == 302 || r.status() == 303) {
                r = ua.follow(r);
            } else if (r.status() == 200 && r.body().contains("id=\"login\"")) {
                r = ua.signIn(r, user.username(), user.password());
            } else {
                return r;
            }
        }
        throw new AssertionError("no page after sign-in: " + r);
    }

    @Test
    void anonymousBrowserSignsInAsTheBuiltInClientAndComesBack() {
        Admin.TestUser u = admin.user(PASSWORD);
        UserAgent ua = new UserAgent(BASE);
        Http.Res root = ua.get("/account/");
        assertEquals(302, root.status());
        assertEquals(BASE + "/account/index.xhtml", root.header("Location"));
        Http.Res gate = ua.follow(root);
        assertEquals(302, gate.status());
        assertEquals("no-store", gate.header("Cache-Control"));
        Map<String, String> q = Http.query(gate.header("Location"));
        assertEquals("portcullis-account", q.get("client_id"));
        assertEquals(BASE + "/account/callback", q.get("redirect_uri"));
        assertEquals("S256", q.get("code_challenge_method"));

        Http.Res page = signInTo(ua, "/account/index.xhtml", u);
        assertEquals(200, page.status(), page::toString);
        assertEquals("no-store", page.header("Cache-Control"));
        assertTrue(page.body().contains(u.username()), page::body);
    }

    @Test
    void callbackWithoutTheBrowsersSignInIsRefused() {
        UserAgent ua = new UserAgent(BASE);
        Http.Res r = ua.get("/account/callback?code=x.y&state=forged");
        assertEquals(400, r.status());
        assertTrue(r.body().contains("id=\"error-page\""), r::body);
    }
}
