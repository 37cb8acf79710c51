package dev.portcullis.persistence;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.portcullis.testing.Admin;
import dev.portcullis.testing.ItEnvironment;
import dev.portcullis.testing.PayaraProcess;
import org.junit.jupiter.api.Test;

/**
 * The server's life cycle, with Payara Micro processes started directly: invalid settings stop the deployment
 * with a message naming the key, and a restart keeps what was stored (H2 file or PostgreSQL) without migrating
 * again.
 */
class ServerLifecycleIT {

    @Test
    void invalidSettingStopsDeploymentNamingTheKey() {
        try (PayaraProcess p = PayaraProcess.start("-Dportcullis.code.ttl=-5")) {
            assertTrue(p.output().contains("Invalid configuration: portcullis.code.ttl (PORTCULLIS_CODE_TTL) "
                    + "must be between 1 and 600, got -5"), "log names the key and its environment variable");
            assertTrue(p.http().get("/.well-known/openid-configuration").status() >= 400, "nothing is served");
            assertTrue(p.http().get("/admin/clients").status() != 200);
        }
    }

    @Test
    void restartKeepsDataAndMigratesNothing() {
        int port = ItEnvironment.freePort();
        Admin.TestUser user;
        Admin.TestClient client;
        try (PayaraProcess first = PayaraProcess.start(port)) {
            assertTrue(first.output().contains("Database schema"), first.output());
            Admin admin = new Admin(first.http(), System.getProperty("portcullis.test.admin-token"));
            assertEquals(200, first.http().get("/health/ready").status(), first::output);
            user = admin.user("restart passphrase");
            client = admin.confidentialClient("openid", "https://restart.example.com/cb");
        }
        try (PayaraProcess second = PayaraProcess.start(port)) {
            assertTrue(second.output().contains("Database schema is up to date"), "a second start migrates nothing");
            Admin admin = new Admin(second.http(), System.getProperty("portcullis.test.admin-token"));
            assertEquals(200, admin.get("/admin/users/" + user.username()).status());
            assertEquals(200, admin.get("/admin/clients/" + client.clientId()).status());
            assertEquals(200, second.http().get("/health/ready").status());
        }
    }
}
