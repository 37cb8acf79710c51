package dev.portcullis.declarative;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.nimbusds.jose.util.JSONObjectUtils;
import dev.portcullis.testing.Admin;
import dev.portcullis.testing.ClassServer;
import dev.portcullis.testing.Db;
import dev.portcullis.testing.Http;
import dev.portcullis.testing.PayaraProcess;
import dev.portcullis.testing.ServerTestBase;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Configuration as code over HTTP: {@code GET /admin/config} exports, {@code POST /admin/config} applies (or plans
 * with {@code dry_run}), {@code portcullis.config.import} applies at start-up; secrets only by reference.
 */
class ConfigurationAsCodeIT extends ServerTestBase {

    /** Set for the test JVM and the servers it starts (pom.xml, failsafe), so {@code ${env:...}} has a value. */
    static final String ENV_SECRET_NAME = "CONFIG_IT_PAYROLL_SECRET";

    private static String run() {
        return Long.toHexString(System.nanoTime());
    }

    static String api(String run) {
        return "{\"identifier\":\"https://cfg-" + run + ".example.com\",\"name\":\"Cfg " + run + "\","
                + "\"scopes\":[\"cfg" + run + ".read\"]}";
    }

    static String client(String run, String secretReference) {
        return "{\"client_id\":\"cfg-" + run + "\",\"client_name\":\"Payroll " + run + "\",\"confidential\":true,"
                + "\"redirect_uris\":[\"https://payroll.example.com/cb\"],\"scopes\":\"cfg" + run + ".read\","
                + "\"grant_types\":[\"client_credentials\"]"
                + (secretReference == null ? "" : ",\"client_secret\":" + Http.q(secretReference)) + "}";
    }

    private static Path secretFile(String secret) throws Exception {
        Path file = Files.createTempFile("portcullis-secret", ".txt");
        Files.writeString(file, secret + "\n", StandardCharsets.UTF_8);
        return file;
    }

    private static String randomSecret() {
        byte[] b = new byte[32];
        new java.security.SecureRandom().nextBytes(b);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(b);
    }

    private static Http.Res token(Http http, String clientId, String secret) {
        return http.postForm("/oauth/token", Map.of("grant_type", "client_credentials"), "Authorization",
                "Basic " + Base64.getEncoder().encodeToString((Http.enc(clientId) + ":" + Http.enc(secret))
                        .getBytes(StandardCharsets.UTF_8)));
    }

    @SuppressWarnings("unchecked")
    private static Map<String, String> actions(Http.Res plan) {
        Map<String, String> out = new LinkedHashMap<>();
        for (Object o : (List<Object>) plan.json().get("items")) {
            Map<String, Object> item = (Map<String, Object>) o;
            out.put(item.get("kind") + " " + item.get("key"), item.get("action") + (item.containsKey("fields")
                    ? " " + item.get("fields") : ""));
        }
        return out;
    }

    @Test
    void appliesOnceThenFindsNothingToChangeAndAuditsNothing() throws Exception {
        String run = run();
        Admin.TestUser alice = admin().user("configuration pass");
        String secret = randomSecret();
        Path file = secretFile(secret);
        String doc = "{\"apis\":[" + api(run) + "],\"clients\":[" + client(run, "${file:" + file + "}") + "],"
                + "\"groups\":[{\"name\":\"cfg-" + run + "\",\"members\":[" + Http.q(alice.username()) + "]}]}";

        Http.Res first = admin().post("/admin/config", doc);
        assertEquals(200, first.status(), first::toString);
        Map<String, String> a = actions(first);
        assertEquals("created", a.get("api https://cfg-" + run + ".example.com"), a::toString);
        assertEquals("created", a.get("client cfg-" + run), a::toString);
        assertEquals("created", a.get("group cfg-" + run), a::toString);
        // the secret the file holds is the client's; the group is alice's
        Http.Res t = token(http(), "cfg-" + run, secret);
        assertEquals(200, t.status(), t::toString);
        assertTrue(admin().get("/admin/users/" + alice.username()).body().contains("cfg-" + run));

        long audited = Db.lastAuditEvent();
        Http.Res second = admin().post("/admin/config", doc);
        assertEquals(200, second.status(), second::toString);
        assertTrue(actions(second).values().stream().allMatch("unchanged"::equals), second::toString);
        assertEquals(0L, ((Number) ((Map<?, ?>) second.json().get("summary")).get("changed")).longValue());
        assertEquals(audited, Db.lastAuditEvent(), "a second application audits nothing");

        // a dry run answers the plan and writes nothing
        String renamed = doc.replace("\"Payroll " + run + "\"", "\"Payroll renamed " + run + "\"");
        Http.Res dry = admin().post("/admin/config?dry_run=true", renamed);
        assertEquals(200, dry.status(), dry::toString);
        assertEquals("changed [client_name]", actions(dry).get("client cfg-" + run), dry::toString);
        assertEquals(Boolean.TRUE, dry.json().get("dry_run"));
        assertEquals("Payroll " + run, admin().get("/admin/clients/cfg-" + run).jsonString("client_name"));
        assertEquals(audited, Db.lastAuditEvent(), "a dry run writes no audit event");

        // a new secret in the file is a change of the client's secret; the old one stops
        String next = randomSecret();
        Files.writeString(file, next, StandardCharsets.UTF_8);
        Http.Res rotated = admin().post("/admin/config", doc);
        assertEquals("changed [client_secret]", actions(rotated).get("client cfg-" + run), rotated::toString);
        assertEquals(401, token(http(), "cfg-" + run, secret).status());
        assertEquals(200, token(http(), "cfg-" + run, next).status());
    }

    /** An estate's document outgrows the 64 KiB every other endpoint takes; /admin/config takes it, nothing else does. */
    @Test
    void aDocumentLargerThanTheCommonBodyLimitIsPlannedWhileOtherEndpointsStillRefuseThatSize() {
        String run = run();
        List<String> clients = new ArrayList<>();
        for (int i = 0; i < 400; i++) {
            clients.add(client(run, null).replace("\"cfg-" + run + "\"", "\"cfg-" + run + "-" + i + "\""));
        }
        String doc = "{\"apis\":[" + api(run) + "],\"clients\":[" + String.join(",", clients) + "]}";
        assertTrue(doc.length() > 65_536, "larger than portcullis.http.max-body-bytes: " + doc.length());
        Http.Res dry = admin().post("/admin/config?dry_run=true", doc);
        assertEquals(200, dry.status(), dry::toString);
        assertEquals("created", actions(dry).get("client cfg-" + run + "-399"), dry::toString);
        assertEquals(404, admin().get("/admin/clients/cfg-" + run + "-0").status(), "a dry run writes nothing");
        assertEquals(413, admin().post("/admin/clients", doc).status(), "the common limit holds elsewhere");
    }

    @Test
    void exportThenPruneThenImportGivesTheSameExport() {
        String run = run();
        Admin.TestUser bob = admin().user("configuration pass");
        String doc = "{\"apis\":[" + api(run) + "],\"clients\":[" + client(run, null) + "],"
                + "\"groups\":[{\"name\":\"cfg-" + run + "\",\"members\":[" + Http.q(bob.username()) + "]}]}";
        assertEquals(200, admin().post("/admin/config", doc).status());
        Http.Res exported = admin().get("/admin/config");
        assertEquals(200, exported.status(), exported::toString);
        // the member, not the auth methods client_secret_basic/_post that other classes' clients use
        assertFalse(exported.body().contains("\"client_secret\""), "no secret in an export");
        assertFalse(exported.body().contains("$argon2"), "no hash in an export");
        Map<String, Object> before = exported.json();

        // everything but this test's items, pruning: exactly those go
        Map<String, Object> without = new LinkedHashMap<>(before);
        without.put("prune", true);
        without.put("apis", withoutItem(before, "apis", "identifier", "https://cfg-" + run + ".example.com"));
        without.put("clients", withoutItem(before, "clients", "client_id", "cfg-" + run));
        without.put("groups", withoutItem(before, "groups", "name", "cfg-" + run));
        Http.Res pruned = admin().post("/admin/config", JSONObjectUtils.toJSONString(without));
        assertEquals(200, pruned.status(), pruned::toString);
        Map<String, String> a = actions(pruned);
        assertEquals("removed", a.get("client cfg-" + run), a::toString);
        assertEquals("removed", a.get("api https://cfg-" + run + ".example.com"), a::toString);
        assertEquals("removed", a.get("group cfg-" + run), a::toString);
        assertEquals(3, a.values().stream().filter("removed"::equals).count(), a::toString);
        assertEquals(404, admin().get("/admin/clients/cfg-" + run).status());

        // the export imported again: the same export
        Http.Res imported = admin().post("/admin/config", exported.body());
        assertEquals(200, imported.status(), imported::toString);
        assertEquals(normal(before), normal(admin().get("/admin/config").json()));
    }

    /** The items of {@code doc}'s {@code array} but the one whose {@code key} is {@code value}, which is there. */
    @SuppressWarnings("unchecked")
    private static List<Object> withoutItem(Map<String, Object> doc, String array, String key, String value) {
        List<Object> items = new ArrayList<>((List<Object>) doc.get(array));
        assertTrue(items.removeIf(i -> value.equals(((Map<String, Object>) i).get(key))), () -> value + " in " + doc);
        return items;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> normal(Map<String, Object> doc) {
        Map<String, Object> out = new LinkedHashMap<>();
        doc.forEach((k, v) -> {
            List<Map<String, Object>> items = new ArrayList<>((List<Map<String, Object>>) v);
            items.sort(Comparator.comparing(m -> String.valueOf(m.getOrDefault("client_id",
                    m.getOrDefault("identifier", m.get("name"))))));
            out.put(k, items);
        });
        return out;
    }

    @Test
    void aDocumentThatCannotBeAppliedNamesItsPathAndWritesNothing() throws Exception {
        String run = run();
        Map<String, String> cases = new LinkedHashMap<>();
        cases.put("not json", "$");
        cases.put("[]", "$");
        cases.put("{\"colour\":1}", "$.colour");
        cases.put("{\"clients\":{}}", "$.clients");
        cases.put("{\"clients\":[" + client(run, null).replace("}", ",\"colour\":\"red\"}") + "]}",
                "$.clients[0].colour");
        cases.put("{\"clients\":[" + client(run, "plain-text-secret-that-is-long-enough-1234") + "]}",
                "$.clients[0].client_secret");
        cases.put("{\"clients\":[" + client(run, "${env:CONFIG_IT_NOT_SET_" + run + "}") + "]}",
                "$.clients[0].client_secret");
        cases.put("{\"clients\":[" + client(run, null).replace("https://payroll.example.com/cb", "ftp://x/cb") + "]}",
                "$.clients[0].redirect_uris");
        cases.put("{\"apis\":[" + api(run) + "],\"clients\":[" + client(run, null) + "," + client(run, null) + "]}",
                "$.clients[1].client_id");
        cases.put("{\"apis\":[" + api(run).replace("[\"cfg" + run + ".read\"]", "\"cfg.read\"") + "]}",
                "$.apis[0].scopes");
        cases.put("{\"apis\":[" + api(run) + "],\"groups\":[{\"name\":\"g\",\"members\":[\"nobody-" + run + "\"]}]}",
                "$.groups[0].members[0]");
        // a valid API before the bad client: neither is written
        cases.put("{\"apis\":[" + api(run) + "],\"clients\":[" + client(run, null).replace("\"confidential\":true",
                "\"confidential\":\"yes\"") + "]}", "$.clients[0].confidential");
        long audited = Db.lastAuditEvent();
        for (Map.Entry<String, String> c : cases.entrySet()) {
            for (String query : List.of("", "?dry_run=true")) {
                Http.Res r = admin().post("/admin/config" + query, c.getKey());
                assertEquals(400, r.status(), () -> c.getKey() + " → " + r);
                assertEquals("invalid_request", r.jsonString("error"), r::toString);
                assertTrue(r.jsonString("error_description").startsWith(c.getValue() + ": "),
                        () -> c.getKey() + " → " + r);
            }
        }
        assertFalse(admin().get("/admin/apis").body().contains("https://cfg-" + run + ".example.com"),
                "nothing half-written");
        assertEquals(404, admin().get("/admin/clients/cfg-" + run).status());
        assertEquals(audited, Db.lastAuditEvent(), "nothing audited");
        assertEquals(401, http().postJson("/admin/config", "{}").status(), "the admin token is required");
    }

    @Test
    void theStartUpAppliesTheDocumentItIsGivenWithSecretsFromTheEnvironment() throws Exception {
        String envSecret = System.getenv(ENV_SECRET_NAME);
        assertNotNull(envSecret, ENV_SECRET_NAME + " is set for the integration tests (pom.xml)");
        String run = run();
        Path doc = Files.createTempFile("portcullis-config", ".json");
        Files.writeString(doc, "{\"apis\":[" + api(run) + "],\"clients\":["
                + client(run, "${env:" + ENV_SECRET_NAME + "}") + "]}", StandardCharsets.UTF_8);
        try (ClassServer own = ClassServer.startOwn("-Dportcullis.config.import=" + doc)) {
            Http.Res t = token(own.http(), "cfg-" + run, envSecret);
            assertEquals(200, t.status(), () -> t + "\n" + own.output());
        }
    }

    @Test
    void aDocumentThatCannotBeAppliedRefusesTheStart() throws Exception {
        String run = run();
        Path doc = Files.createTempFile("portcullis-config", ".json");
        Files.writeString(doc, "{\"apis\":[" + api(run) + "],\"clients\":[" + client(run, null)
                .replace("https://payroll.example.com/cb", "ftp://x/cb") + "]}", StandardCharsets.UTF_8);
        try (PayaraProcess p = PayaraProcess.start("-Dportcullis.config.import=" + doc)) {
            String out = p.output();
            assertTrue(out.contains("$.clients[0].redirect_uris"), out);
            assertEquals(404, p.http().get("/.well-known/openid-configuration").status(), "not serving");
        }
        assertFalse(admin().get("/admin/apis").body().contains("https://cfg-" + run + ".example.com"));
    }
}
