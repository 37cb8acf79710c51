package dev.portcullis.persistence;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.portcullis.testing.Admin;
import dev.portcullis.testing.CodeFixture;
import dev.portcullis.testing.Db;
import dev.portcullis.testing.Http;
import dev.portcullis.testing.PayaraProcess;
import dev.portcullis.testing.TcpProxy;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * PostgreSQL goes away mid-run and comes back: the server answers clean 503s (never a stack trace, never a
 * half-written row, never a good access token called invalid), readiness goes DOWN, and it recovers by itself.
 * The outage is simulated by a TCP proxy between this one server and the PostgreSQL that every other test uses.
 */
@Tag("postgres-only")
class DatabaseOutageIT {

    @Test
    void outageGivesCleanErrorsAndServiceRecoversWithoutRestart() {
        String url = System.getProperty("portcullis.test.jdbc-url");
        try (TcpProxy proxy = new TcpProxy(5432);
             PayaraProcess server = PayaraProcess.start("-Dportcullis.db.url="
                     + url.replace("127.0.0.1:5432", "127.0.0.1:" + proxy.port))) {
            Http http = server.http();
            Admin admin = new Admin(http, System.getProperty("portcullis.test.admin-token"));
            assertEquals(200, http.get("/health/ready").status(), server::output);
            Admin.TestUser user = admin.user("before outage pass");
            Admin.TestClient client = admin.confidentialClient("openid read_user", "https://rp.example.com/cb");
            String code = CodeFixture.issue(client.clientId(), user.userId(), client.redirectUri(), "openid read_user",
                    null, null);
            Http.Res tokens = http.postJson("/oauth/token", client.codeExchangeJson(code));
            assertEquals(200, tokens.status(), tokens::toString);
            String bearer = "Bearer " + tokens.jsonString("access_token");
            long usersBefore = Db.count("SELECT COUNT(*) FROM users");

            proxy.cut();

            Http.Res ready = http.get("/health/ready");
            assertEquals(503, ready.status(), ready::toString);
            assertTrue(ready.body().contains("DOWN"));
            Http.Res create = admin.post("/admin/users", "{\"username\":\"during-outage\",\"password\":\"during outage pass\"}");
            assertEquals(503, create.status(), create::toString);
            assertEquals("temporarily_unavailable", create.jsonString("error"));
            Http.Res list = admin.get("/admin/clients");
            assertEquals(503, list.status(), list::toString);
            assertFalse(list.body().contains("Exception"), "no stack trace or exception name reaches the client");
            // a good access token is not declared invalid because its record cannot be read: clients that are told
            // invalid_token throw their tokens away
            for (String path : new String[] {"/oauth/userinfo", "/api/v1/me"}) {
                Http.Res res = http.get(path, "Authorization", bearer);
                assertEquals(503, res.status(), () -> path + ": " + res);
                assertEquals("temporarily_unavailable", res.jsonString("error"), path);
            }

            proxy.restore();

            assertEquals(200, http.get("/health/ready").status(), "recovers without a restart");
            assertEquals(200, admin.get("/admin/clients").status());
            assertEquals(200, http.get("/api/v1/me", "Authorization", bearer).status(), "the token is still good");
            assertEquals(usersBefore, Db.count("SELECT COUNT(*) FROM users"), "nothing half-written");
            assertEquals(0, Db.count("SELECT COUNT(*) FROM users WHERE username = 'during-outage'"));
            admin.user("after outage pass");
        }
    }
}
