package dev.portcullis.bench;

import static dev.portcullis.bench.Target.q;
import static dev.portcullis.bench.Target.require;

import dev.portcullis.bench.Target.BenchClient;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.Map;

/**
 * The benchmark's scenarios (docs/benchmark.md) and the admin-read smoke scenario, with the protocol steps they
 * share. Every response is checked: status, Location, state echo, the token fields; anything else is a
 * {@link FlowFailure}.
 */
final class Scenarios {

    private static final Base64.Encoder B64URL = Base64.getUrlEncoder().withoutPadding();

    private Scenarios() {
    }

    static Scenario byName(String name) {
        return switch (name) {
            case "admin-read" -> new AdminRead();
            case "sso-code-flow" -> new CodeFlow("sso-code-flow", false);
            case "pkce-code-flow" -> new CodeFlow("pkce-code-flow", true);
            case "refresh" -> new Refresh();
            case "userinfo" -> new UserInfo();
            case "sign-in" -> new SignInScenario();
            default -> throw new IllegalArgumentException(name);
        };
    }

    // ---------------------------------------------------------------------------------------------------------------
    // Protocol steps

    /** Fails with {@link ScenarioUnavailable} when the authorization or token endpoint answers 404. */
    static void requireFlowEndpoints(Target t, boolean token) throws IOException, ScenarioUnavailable {
        try (LoadHttp http = t.connect()) {
            if (http.get(t.authorizePath(t.confidential, "probe", null)).status() == 404) {
                throw new ScenarioUnavailable("authorization endpoint not available (404)");
            }
            if (token && http.postJson("/oauth/token", "{}", "Accept", "application/json").status() == 404) {
                throw new ScenarioUnavailable("token endpoint not available (404)");
            }
        }
    }

    /** A worker's SSO state: the session cookie, refreshed if the server ever sets a new one. */
    static final class Session {
        String cookie;

        Session(String cookie) {
            this.cookie = cookie;
        }
    }

    /** GET authorize with the SSO cookie → 302/303 to the redirect URI with code and the same state. */
    static String authorize(LoadHttp http, Target t, BenchClient c, Session s, String state, String challenge)
            throws IOException {
        Reply r = http.get(t.authorizePath(c, state, challenge), "Cookie", SignIn.SESSION_COOKIE + "=" + s.cookie);
        require(r.status() == 302 || r.status() == 303, "authorize: expected a redirect to the client", r);
        String location = r.header("location");
        require(location != null && location.startsWith(c.redirectUri() + "?"), "authorize: Location is not the redirect URI", r);
        Map<String, String> params = SignIn.query(location);
        require(!params.containsKey("error"), "authorize: error redirect", r);
        require(state.equals(params.get("state")), "authorize: state not echoed", r);
        require(!params.containsKey("iss") || t.issuer.equals(params.get("iss")), "authorize: wrong iss", r);
        String code = params.get("code");
        require(code != null && !code.isEmpty(), "authorize: no code", r);
        for (String sc : r.headers("set-cookie")) {
            if (sc.startsWith(SignIn.SESSION_COOKIE + "=")) {
                String v = sc.substring(SignIn.SESSION_COOKIE.length() + 1).split(";", 2)[0];
                if (!v.isEmpty()) {
                    s.cookie = v;
                }
            }
        }
        return code;
    }

    /** POST /oauth/token (JSON body) → 200 with access_token, token_type Bearer, refresh_token (and id_token). */
    static Map<String, Object> token(LoadHttp http, String step, String jsonBody, boolean idTokenRequired)
            throws IOException {
        Reply r = http.postJson("/oauth/token", jsonBody, "Accept", "application/json");
        require(r.status() == 200, step + ": expected 200", r);
        Map<String, Object> json = r.json(step);
        require(nonEmpty(json.get("access_token")), step + ": no access_token", r);
        require("bearer".equalsIgnoreCase(String.valueOf(json.get("token_type"))), step + ": token_type is not Bearer", r);
        require(nonEmpty(json.get("refresh_token")), step + ": no refresh_token", r);
        if (idTokenRequired) {
            Object idToken = json.get("id_token");
            require(nonEmpty(idToken) && idToken.toString().split("\\.").length == 3, step + ": no id_token (JWS)", r);
        }
        return json;
    }

    static String codeExchangeBody(BenchClient c, String code, String verifier) {
        StringBuilder sb = new StringBuilder(400).append("{\"grant_type\":\"authorization_code\",\"code\":").append(q(code))
                .append(",\"redirect_uri\":").append(q(c.redirectUri())).append(",\"client_id\":").append(q(c.clientId()));
        if (c.secret() != null) {
            sb.append(",\"client_secret\":").append(q(c.secret()));
        }
        if (verifier != null) {
            sb.append(",\"code_verifier\":").append(q(verifier));
        }
        return sb.append('}').toString();
    }

    /** One complete code flow (authorize + exchange) for a worker, returning the token response. */
    static Map<String, Object> codeFlow(LoadHttp http, Target t, BenchClient c, Session s, String state,
                                        SecureRandom random) throws IOException {
        String verifier = null;
        String challenge = null;
        if (c.secret() == null) {
            byte[] b = new byte[32];
            random.nextBytes(b);
            verifier = B64URL.encodeToString(b); // 43 characters of A-Z a-z 0-9 - _
            challenge = B64URL.encodeToString(sha256(verifier));
        }
        String code = authorize(http, t, c, s, state, challenge);
        return token(http, "token (authorization_code)", codeExchangeBody(c, code, verifier), true);
    }

    static boolean nonEmpty(Object v) {
        return v instanceof String str && !str.isEmpty();
    }

    private static byte[] sha256(String s) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.US_ASCII));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    // ---------------------------------------------------------------------------------------------------------------
    // Scenarios

    /** Smoke scenario on what main already has: GET /admin/clients/{id} with the admin token → 200, same client_id. */
    static final class AdminRead implements Scenario {
        @Override
        public String name() {
            return "admin-read";
        }

        @Override
        public Worker prepare(int index, Target t) {
            LoadHttp http = t.connect();
            String path = "/admin/clients/" + t.confidential.clientId();
            String auth = "Bearer " + t.adminToken;
            return new Worker() {
                @Override
                public long runOnce() throws IOException {
                    long start = System.nanoTime();
                    Reply r = http.get(path, "Authorization", auth);
                    long latency = System.nanoTime() - start;
                    require(r.status() == 200, "admin read: expected 200", r);
                    require(t.confidential.clientId().equals(r.json("admin read").get("client_id")),
                            "admin read: wrong client_id", r);
                    return latency;
                }

                @Override
                public void close() {
                    http.close();
                }
            };
        }
    }

    /** sso-code-flow (confidential client with secret) and pkce-code-flow (public client, fresh S256 verifier). */
    static final class CodeFlow implements Scenario {
        private final String name;
        private final boolean pkce;

        CodeFlow(String name, boolean pkce) {
            this.name = name;
            this.pkce = pkce;
        }

        @Override
        public String name() {
            return name;
        }

        @Override
        public Worker prepare(int index, Target t) throws IOException, ScenarioUnavailable {
            if (index == 0) {
                requireFlowEndpoints(t, true);
            }
            Session session = new Session(t.session(index));
            BenchClient client = pkce ? t.publicClient : t.confidential;
            LoadHttp http = t.connect();
            SecureRandom random = new SecureRandom();
            return new Worker() {
                long n;

                @Override
                public long runOnce() throws IOException {
                    long start = System.nanoTime();
                    codeFlow(http, t, client, session, "w" + index + "-" + n++, random);
                    return System.nanoTime() - start;
                }

                @Override
                public void close() {
                    http.close();
                }
            };
        }
    }

    /** Rotating refresh: each call presents the refresh token of the previous answer (one chain per worker). */
    static final class Refresh implements Scenario {
        @Override
        public String name() {
            return "refresh";
        }

        @Override
        public Worker prepare(int index, Target t) throws IOException, ScenarioUnavailable {
            if (index == 0) {
                requireFlowEndpoints(t, true);
            }
            Session session = new Session(t.session(index));
            BenchClient c = t.confidential;
            LoadHttp http = t.connect();
            SecureRandom random = new SecureRandom();
            return new Worker() {
                String refreshToken;
                long n;

                @Override
                public long runOnce() throws IOException {
                    if (refreshToken == null) { // first call, or the chain broke on an error: a new grant (not timed)
                        refreshToken = (String) codeFlow(http, t, c, session, "r" + index + "-" + n++, random)
                                .get("refresh_token");
                    }
                    String previous = refreshToken;
                    refreshToken = null;
                    long start = System.nanoTime();
                    Map<String, Object> json = token(http, "token (refresh_token)",
                            "{\"grant_type\":\"refresh_token\",\"refresh_token\":" + q(previous) + ",\"client_id\":"
                                    + q(c.clientId()) + ",\"client_secret\":" + q(c.secret()) + "}", false);
                    long latency = System.nanoTime() - start;
                    String next = (String) json.get("refresh_token");
                    if (next.equals(previous)) {
                        throw new FlowFailure("refresh: refresh token was not rotated");
                    }
                    refreshToken = next;
                    return latency;
                }

                @Override
                public void close() {
                    http.close();
                }
            };
        }
    }

    /** GET /oauth/userinfo with a Bearer access token (one per worker) → 200 with the user's sub. */
    static final class UserInfo implements Scenario {
        @Override
        public String name() {
            return "userinfo";
        }

        @Override
        public Worker prepare(int index, Target t) throws IOException, ScenarioUnavailable {
            if (index == 0) {
                requireFlowEndpoints(t, true);
            }
            Session session = new Session(t.session(index));
            LoadHttp http = t.connect();
            String accessToken = (String) codeFlow(http, t, t.confidential, session, "u" + index, new SecureRandom())
                    .get("access_token");
            String auth = "Bearer " + accessToken;
            if (index == 0 && http.get("/oauth/userinfo", "Authorization", auth).status() == 404) {
                http.close();
                throw new ScenarioUnavailable("endpoint not available (404)");
            }
            return new Worker() {
                @Override
                public long runOnce() throws IOException {
                    long start = System.nanoTime();
                    Reply r = http.get("/oauth/userinfo", "Authorization", auth);
                    long latency = System.nanoTime() - start;
                    require(r.status() == 200, "userinfo: expected 200", r);
                    require(t.user.userId().equals(r.json("userinfo").get("sub")), "userinfo: wrong sub", r);
                    return latency;
                }

                @Override
                public void close() {
                    http.close();
                }
            };
        }
    }

    /**
     * The credential POST of the login page (Argon2id: deliberately slow). Each iteration opens the login page
     * without a session (not timed), POSTs the credentials (timed) and follows the redirects to the client
     * (checked, not timed). One worker by default (bench.signin.workers) so p50 is the hash, not a queue.
     */
    static final class SignInScenario implements Scenario {
        @Override
        public String name() {
            return "sign-in";
        }

        @Override
        public int workers(BenchOptions o) {
            return o.signInWorkers();
        }

        @Override
        public Worker prepare(int index, Target t) throws IOException, ScenarioUnavailable {
            if (index == 0) {
                requireFlowEndpoints(t, false);
            }
            LoadHttp http = t.connect();
            return new Worker() {
                long n;

                @Override
                public long runOnce() throws IOException {
                    SignIn.LoginPage page = SignIn.openLoginPage(http, t, t.confidential, "s" + index + "-" + n++);
                    long start = System.nanoTime();
                    Reply posted = SignIn.submit(http, page, t.user.username(), t.user.password());
                    long latency = System.nanoTime() - start;
                    SignIn.finish(http, page.cookies(), posted, t.confidential.redirectUri());
                    return latency;
                }

                @Override
                public void close() {
                    http.close();
                }
            };
        }
    }
}
