package dev.portcullis.bench;

import java.io.IOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The server under test as the scenarios see it: where it is and where its endpoints are ({@link Endpoints}), the
 * fixtures (one user, one confidential and one public client, both with skip_consent: provisioned through Portcullis'
 * admin API, or given to the peer when it starts) and the SSO sessions, one per worker, each established once through
 * the real sign-in and then reused by every flow of that worker.
 */
final class Target {

    /**
     * Where a server's flow endpoints are (paths on the server), the cookies that make up its SSO session, and
     * whether its token endpoint takes the request as a form (the OAuth default) or as JSON (what the bench sends
     * Portcullis, which takes both).
     */
    record Endpoints(String authorize, String token, String userinfo, List<String> sessionCookies,
                     boolean formTokenRequests) {
    }

    static final Endpoints PORTCULLIS = new Endpoints("/oauth/authorize", "/oauth/token", "/oauth/userinfo",
            List.of(SignIn.SESSION_COOKIE), false);

    /** A client as registered: secret is null for the public client. */
    record BenchClient(String clientId, String secret, String redirectUri) {
    }

    record BenchUser(String username, String password, String userId) {
    }

    static final String REDIRECT_URI = "http://127.0.0.1/bench/callback";
    static final String SCOPE = "openid profile";

    final BenchOptions options;
    final String host = "127.0.0.1";
    final int port;
    final String issuer;
    /** Portcullis' admin token; null for the peer (no admin API: admin-read is n/a). */
    final String adminToken;
    final Endpoints endpoints;
    BenchUser user;
    BenchClient confidential;
    BenchClient publicClient;
    /** The client whose access tokens the userinfo scenario presents (the confidential one, except on the peer). */
    BenchClient userinfoClient;
    private final List<String> sessions = new ArrayList<>();

    /** Portcullis at http://localhost:PORT; {@link #provision()} creates the fixtures. */
    Target(BenchOptions options, int port, String adminToken) {
        this(options, port, "http://localhost:" + port, adminToken, PORTCULLIS);
    }

    Target(BenchOptions options, int port, String issuer, String adminToken, Endpoints endpoints) {
        this.options = options;
        this.port = port;
        this.issuer = issuer;
        this.adminToken = adminToken;
        this.endpoints = endpoints;
    }

    /** The side-by-side peer rather than Portcullis (it has no admin API). */
    boolean isPeer() {
        return adminToken == null;
    }

    LoadHttp connect() {
        return LoadHttp.open(options.client(), host, port);
    }

    /** Creates the user and the two clients through the admin API (POST /admin/users, POST /admin/clients). */
    void provision() throws IOException {
        String password = "bench-Pa55-" + Long.toHexString(System.nanoTime());
        try (LoadHttp http = connect()) {
            String username = "bench" + Long.toHexString(System.nanoTime());
            Reply u = http.postJson("/admin/users", "{\"username\":" + q(username) + ",\"password\":" + q(password)
                    + ",\"email\":" + q(username + "@example.com") + ",\"name\":" + q("Bench " + username) + "}",
                    "Authorization", "Bearer " + adminToken);
            require(u.status() == 201, "POST /admin/users", u);
            user = new BenchUser(username, password, (String) u.json("POST /admin/users").get("user_id"));
            confidential = client(http, true);
            publicClient = client(http, false);
            userinfoClient = confidential;
        }
    }

    private BenchClient client(LoadHttp http, boolean confidential) throws IOException {
        Reply r = http.postJson("/admin/clients", "{\"client_name\":" + q((confidential ? "Bench confidential " : "Bench public ")
                        + Long.toHexString(System.nanoTime())) + ",\"redirect_uris\":[" + q(REDIRECT_URI)
                        + "],\"confidential\":" + confidential + ",\"scopes\":\"openid profile email\",\"skip_consent\":true}",
                "Authorization", "Bearer " + adminToken);
        require(r.status() == 201, "POST /admin/clients", r);
        var json = r.json("POST /admin/clients");
        String secret = (String) json.get("client_secret");
        require(confidential == (secret != null), "POST /admin/clients client_secret only for confidential", r);
        return new BenchClient((String) json.get("client_id"), secret, REDIRECT_URI);
    }

    /**
     * The SSO session of worker {@code index} as a Cookie header value (its session cookies), signing in through the
     * login page the first time.
     */
    synchronized String session(int index) throws IOException {
        while (sessions.size() <= index) {
            try (LoadHttp http = connect()) {
                sessions.add(SignIn.establishSession(http, this, confidential));
            }
        }
        return sessions.get(index);
    }

    /** The authorization request of the flows, as a path with query. */
    String authorizePath(BenchClient c, String state, String codeChallenge) {
        StringBuilder sb = new StringBuilder(256).append(endpoints.authorize())
                .append(endpoints.authorize().contains("?") ? '&' : '?').append("response_type=code&client_id=")
                .append(enc(c.clientId())).append("&redirect_uri=").append(enc(c.redirectUri()))
                .append("&scope=").append(enc(SCOPE).replace("+", "%20")).append("&state=").append(enc(state));
        if (codeChallenge != null) {
            sb.append("&code_challenge=").append(codeChallenge).append("&code_challenge_method=S256");
        }
        return sb.toString();
    }

    static void require(boolean condition, String what, Reply r) {
        if (!condition) {
            throw new FlowFailure(what, r);
        }
    }

    /** POST to the token endpoint: {@code params} as JSON (Portcullis) or as a form (the peer). */
    Reply postToken(LoadHttp http, Map<String, String> params) throws IOException {
        if (endpoints.formTokenRequests()) {
            return http.postForm(endpoints.token(), params.entrySet().stream()
                    .map(e -> enc(e.getKey()) + "=" + enc(e.getValue())).collect(Collectors.joining("&")),
                    "Accept", "application/json");
        }
        return http.postJson(endpoints.token(), params.entrySet().stream()
                .map(e -> q(e.getKey()) + ":" + q(e.getValue())).collect(Collectors.joining(",", "{", "}")),
                "Accept", "application/json");
    }

    static String enc(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }

    /** A JSON string literal. */
    static String q(String s) {
        StringBuilder sb = new StringBuilder(s.length() + 2).append('"');
        for (int i = 0; i < s.length(); i++) {
            char ch = s.charAt(i);
            switch (ch) {
                case '"' -> sb.append("\\\"");
                case '\\' -> sb.append("\\\\");
                default -> {
                    if (ch < 0x20) {
                        sb.append(String.format("\\u%04x", (int) ch));
                    } else {
                        sb.append(ch);
                    }
                }
            }
        }
        return sb.append('"').toString();
    }
}
