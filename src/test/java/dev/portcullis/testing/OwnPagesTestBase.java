package dev.portcullis.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;

/**
 * Base of the tests of Portcullis's own signed-in pages (the account page and the admin console): one Chromium for
 * the class, the admin API, test users with one password, an administrator, and the form of a table row.
 */
@Tag("browser")
public abstract class OwnPagesTestBase extends ServerTestBase {

    protected static final String PASSWORD = "correct horse battery";

    protected static Browser browser;

    protected final Admin admin = admin();
    protected final Http http = http();

    @BeforeAll
    static void startBrowser() {
        browser = new Browser("en-US");
    }

    @AfterAll
    static void stopBrowser() {
        if (browser != null) {
            browser.close();
        }
    }

    /** A new user with the admin role (granted by the admin API). */
    protected Admin.TestUser administrator() {
        Admin.TestUser u = admin.user(PASSWORD);
        Http.Res r = admin.patch("/admin/users/" + u.username(), "{\"roles\":[\"admin\"]}");
        assertEquals(200, r.status(), r::toString);
        return u;
    }

    /** The id of the first form after the element with id {@code rowId}. */
    public static String formIdOfRow(String html, String rowId) {
        int row = html.indexOf("id=\"" + rowId + "\"");
        assertTrue(row > 0, html);
        int form = html.indexOf("<form id=\"", row);
        return html.substring(form + 10, html.indexOf('"', form + 10));
    }
}
