package dev.portcullis.bench;

import static dev.portcullis.bench.Target.require;

import dev.portcullis.bench.Target.BenchClient;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.LinkedHashMap;
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
            if (token && t.postToken(http, Map.of()).status() == 404) {
                throw new ScenarioUnavailable("token endpoint not available (404)");
            }
        }
    }

    /** A worker's SSO state: the session's cookies (a Cookie header value), updated when the server sets new ones. */
    static final class Session {
        private final Map<String, String> cookies = new LinkedHashMap<>();
        String cookieHeader;

        Session(String cookieHeader) {
            this.cookieHeader = cookieHeader;
            for (String pair : cookieHeader.split("; ")) {
                int eq = pair.indexOf('=');
                cookies.put(pair.substring(0, eq), pair.substring(eq + 1));
            }
        }

        /** Keeps a new value of one of the session's cookies from the Set-Cookie headers of {@code r}. */
        void update(Reply r) {
            boolean changed = false;
            for (String sc : r.headers("set-cookie")) {
                int eq = sc.indexOf('=');
                String name = eq < 0 ? "" : sc.substring(0, eq);
                String v = eq < 0 ? "" : sc.substring(eq + 1).split(";", 2)[0];
                if (cookies.containsKey(name) && !v.isEmpty() && !v.equals(cookies.get(name))) {
                    cookies.put(name, v);
                    changed = true;
                }
            }
            if (changed) {
                cookieHeader = SignIn.cookieHeader(cookies);
            }
        }
    }

    /** GET authorize with the SSO cookie → 302/303 to the redirect URI with code and the same state. */
    static String authorize(LoadHttp http, Target t, BenchClient c, Session s, String state, String challenge)
            throws IOException {
        Reply r = http.get(t.authorizePath(c, state, challenge), "Cookie", s.cookieHeader);
        require(r.status() == 302 || r.status() == 303, "authorize: expected a redirect to the client", r);
        String location = r.header("location");
        require(location != null && location.startsWith(c.redirectUri() + "?"), "authorize: Location is not the redirect URI", r);
        Map<String, String> params = SignIn.query(location);
        require(!params.containsKey("error"), "authorize: error redirect", r);
        require(state.equals(params.get("state")), "authorize: state not echoed", r);
        require(!params.containsKey("iss") || t.issuer.equals(params.get("iss")), "authorize: wrong iss", r);
        String code = params.get("code");
        require(code != null && !code.isEmpty(), "authorize: no code", r);
        s.update(r);
        return code;
    }

    /** POST to the token endpoint → 200 with access_token, token_type Bearer, refresh_token (and id_token). */
    static Map<String, Object> token(LoadHttp http, Target t, String step, Map<String, String> params,
                                     boolean idTokenRequired) throws IOException {
        Reply r = t.postToken(http, params);
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

    static Map<String, String> codeExchangeParams(BenchClient c, String code, String verifier) {
        Map<String, String> p = new LinkedHashMap<>();
        p.put("grant_type", "authorization_code");
        p.put("code", code);
        p.put("redirect_uri", c.redirectUri());
        p.put("client_id", c.clientId());
        if (c.secret() != null) {
            p.put("client_secret", c.secret());
        }
        if (verifier != null) {
            p.put("code_verifier", verifier);
        }
        return p;
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
        return token(http, t, "token (authorization_code)", codeExchangeParams(c, code, verifier), true);
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
        public Worker prepare(int index, Target t) throws ScenarioUnavailable {
            if (t.isPeer()) {
                throw new ScenarioUnavailable("n/a: the peer has no admin API");
            }
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
                    Map<String, Object> json = token(http, t, "token (refresh_token)", Map.of("grant_type",
                            "refresh_token", "refresh_token", previous, "client_id", c.clientId(), "client_secret",
                            c.secret()), false);
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
            String accessToken = (String) codeFlow(http, t, t.userinfoClient, session, "u" + index, new SecureRandom())
                    .get("access_token");
            String auth = "Bearer " + accessToken;
            String path = t.endpoints.userinfo();
            if (index == 0 && http.get(path, "Authorization", auth).status() == 404) {
                http.close();
                throw new ScenarioUnavailable("endpoint not available (404)");
            }
            return new Worker() {
                @Override
                public long runOnce() throws IOException {
                    long start = System.nanoTime();
                    Reply r = http.get(path, "Authorization", auth);
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
            if (t.isPeer()) {
                throw new ScenarioUnavailable("n/a: the peer's login form is the bench's stand-in without a password hash");
            }
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
                    SignIn.finish(http, page.cookies(), posted, t.confidential.redirectUri(), t.endpoints.sessionCookies());
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
