package dev.portcullis.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.portcullis.testing.Db;
import dev.portcullis.testing.Http;
import dev.portcullis.testing.ItEnvironment;
import dev.portcullis.testing.PayaraProcess;
import dev.portcullis.testing.UserAgent;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.Map;
import java.util.Properties;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Demo mode on a Payara Micro started with {@code portcullis.demo=true}: the seeded user and clients, credentials in
 * a file the log names (never in the log), the relying-party page completing both clients' flows (token response,
 * validated ID token, /api/v1/me), a restart that seeds nothing again, and a start without demo mode that deletes
 * the demo rows and the credentials file. (Demo mode off: TokenUseEndpointsIT; non-loopback refusal:
 * PortcullisConfigTest.)
 */
class DemoModeIT {

    @Test
    void demoModeSeedsOnceAndTheRelyingPartyCompletesBothClientTypes() throws Exception {
        int port = ItEnvironment.freePort();
        Path credentials;
        try (PayaraProcess p = PayaraProcess.start(port, "-Dportcullis.demo=true")) {
            String log = p.output();
            String file = "(\\S+" + Pattern.quote(DemoSeed.CREDENTIALS_FILE) + ")";
            credentials = Path.of(find(log, "created user 'demo'; its password is in " + file));
            assertEquals(credentials, Path.of(find(log, "created client 'demo-confidential'; its client secret is in "
                    + file)));
            Properties saved = new Properties();
            try (Reader r = Files.newBufferedReader(credentials)) {
                saved.load(r);
            }
            String password = saved.getProperty("demo.password");
            String secret = saved.getProperty("demo-confidential.client_secret");
            assertTrue(password != null && secret != null, saved::toString);
            assertFalse(log.contains(password) || log.contains(secret), "no credential in the server log");
            assertTrue(log.contains("created client 'demo-public' (public, no secret)"), log);

            Http.Res index = p.http().get("/demo/");
            assertEquals(200, index.status(), index::toString);
            assertTrue(index.body().contains("id=\"start-a\"") && index.body().contains("id=\"start-b\""));

            assertExchangeSucceeded(runFlow(p.base, Map.of("client_type", "public"), password),
                    "public client (PKCE)");
            assertExchangeSucceeded(runFlow(p.base, Map.of("client_type", "confidential", "client_secret", secret),
                    password), "confidential client");

            UserAgent stranger = new UserAgent(p.base);
            stranger.setCookie("portcullis_demo", Base64.getUrlEncoder().withoutPadding()
                    .encodeToString("{\"state\":\"x\"}".getBytes(StandardCharsets.UTF_8)));
            Http.Res forged = stranger.get("/demo/callback?state=x&code=y&iss=" + Http.enc(p.base));
            assertEquals(400, forged.status(), "a forged or incomplete transaction cookie is no flow: " + forged);

            String wrongSecret = runFlow(p.base, Map.of("client_type", "confidential", "client_secret", "wrong"), password);
            assertTrue(wrongSecret.contains("Token response (HTTP 401)") && wrongSecret.contains("invalid_client"),
                    wrongSecret);
            // the success check itself: the same page for a failed exchange does not pass it
            assertThrows(AssertionError.class, () -> assertExchangeSucceeded(wrongSecret, "confidential client"));
        }
        try (PayaraProcess again = PayaraProcess.start(port, "-Dportcullis.demo=true")) {
            String log = again.output();
            assertFalse(log.contains("created user") || log.contains("created client"), "seeding is idempotent: " + log);
            assertTrue(log.contains("Demo user 'demo' exists") && log.contains("Demo client 'demo-confidential' exists"));
            assertEquals(200, again.http().get("/demo/").status());
        }
        try (PayaraProcess off = PayaraProcess.start(port)) {
            assertTrue(off.output().contains("Demo mode is off: deleted the demo user, the demo clients"), off::output);
            assertEquals(0, Db.count("SELECT COUNT(*) FROM clients WHERE client_id LIKE 'demo-%'"));
            assertEquals(0, Db.count("SELECT COUNT(*) FROM users WHERE user_id = ? OR username = ?",
                    DemoSeed.USER_ID, DemoSeed.USERNAME));
            assertFalse(Files.exists(credentials), "no known password left behind");
            assertEquals(404, off.http().get("/demo/").status());
        }
    }

    /** Browser part: start on the demo page, sign in as demo, consent; returns the callback page. */
    private static String runFlow(String base, Map<String, String> start, String password) {
        UserAgent ua = new UserAgent(base);
        Http.Res r = ua.http().postForm("/demo/start", start);
        assertEquals(303, r.status(), r::toString);
        assertTrue(r.header("Location").startsWith(base + "/oauth/authorize?"), r::toString);
        for (int step = 0; step < 8; step++) {
            if (r.status() == 302 || r.status() == 303) {
                r = ua.follow(r);
            } else if (r.status() == 200 && r.body().contains("id=\"login\"")) {
                r = ua.signIn(r, "demo", password);
            } else if (r.status() == 200 && r.body().contains("id=\"consent\"")) {
                r = ua.consent(r, true);
            } else if (r.status() == 200 && r.body().contains("id=\"demo\"")) {
                return r.body();
            } else {
                throw new AssertionError("unexpected answer in the demo flow: " + r);
            }
        }
        throw new AssertionError("demo flow did not end: " + r);
    }

    /**
     * The callback page of a client type that worked: its token request answered 200 with tokens, the ID token passed
     * the relying party's checks, and /api/v1/me answered 200 with the demo user's e-mail, each in its own section.
     */
    private static void assertExchangeSucceeded(String page, String clientType) {
        assertTrue(page.contains("Demo: " + clientType), () -> "not the " + clientType + " page: " + page);
        String token = section(page, "Token response (HTTP 200)", "ID token");
        assertTrue(token.contains("access_token") && token.contains("refresh_token") && token.contains("id_token"),
                () -> clientType + ": token response without tokens: " + page);
        String idToken = section(page, ">ID token<", "GET /api/v1/me");
        assertTrue(idToken.contains("id=\"id-token-valid\"") && !idToken.contains("Invalid:"),
                () -> clientType + ": ID token not verified: " + page);
        assertTrue(section(page, "GET /api/v1/me (HTTP 200)", "</pre>").contains("demo@example.com"),
                () -> clientType + ": /api/v1/me did not answer the demo user: " + page);
    }

    /** The part of {@code page} from {@code start} to the next {@code end}; fails when {@code start} is absent. */
    private static String section(String page, String start, String end) {
        int from = page.indexOf(start);
        assertTrue(from >= 0, () -> "no '" + start + "' on the page: " + page);
        int to = page.indexOf(end, from + start.length());
        return page.substring(from, to < 0 ? page.length() : to);
    }

    private static String find(String log, String regex) {
        Matcher m = Pattern.compile(regex).matcher(log);
        assertTrue(m.find(), () -> "not in the log: " + regex + "\n" + log);
        return m.group(1);
    }
}
