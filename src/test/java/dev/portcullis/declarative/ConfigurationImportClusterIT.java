package dev.portcullis.declarative;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.portcullis.testing.Db;
import dev.portcullis.testing.PayaraProcess;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * {@code portcullis.config.import} on two Payara Micro instances of one PostgreSQL database starting together with
 * the same document: the configuration lock lets one apply it, and the other finds nothing to change.
 */
@Tag("postgres-only")
class ConfigurationImportClusterIT {

    private static String run() {
        return Long.toHexString(System.nanoTime());
    }

    @Test
    void twoInstancesStartingWithTheSameDocumentApplyItOnce() throws Exception {
        String run = run();
        Path doc = Files.createTempFile("portcullis-config", ".json");
        Files.writeString(doc, "{\"apis\":[" + ConfigurationAsCodeIT.api(run) + "],\"clients\":["
                + ConfigurationAsCodeIT.client(run, null) + "]}", StandardCharsets.UTF_8);
        String setting = "-Dportcullis.config.import=" + doc;
        CompletableFuture<PayaraProcess> one = CompletableFuture.supplyAsync(() -> PayaraProcess.start(setting));
        CompletableFuture<PayaraProcess> two = CompletableFuture.supplyAsync(() -> PayaraProcess.start(setting));
        try (PayaraProcess a = one.get(); PayaraProcess b = two.get()) {
            assertEquals(200, a.http().get("/.well-known/openid-configuration").status(), a::output);
            assertEquals(200, b.http().get("/.well-known/openid-configuration").status(), b::output);
            assertEquals(1, Db.count("SELECT COUNT(*) FROM clients WHERE client_id = ?", "cfg-" + run));
            assertEquals(1, Db.count("SELECT COUNT(*) FROM apis WHERE identifier = ?",
                    "https://cfg-" + run + ".example.com"));
            assertEquals(1, Db.count("SELECT COUNT(*) FROM audit_events WHERE event_type = 'CLIENT_CREATED' "
                    + "AND client_id = ?", "cfg-" + run), "created by one instance, left alone by the other");
        }
    }
}
