package dev.portcullis.bench;

import java.io.IOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The server under test as the scenarios see it: where it is, the fixtures provisioned through the admin API (one
 * user, one confidential and one public client, both with skip_consent) and the SSO sessions, one per worker, each
 * established once through the real sign-in and then reused by every flow of that worker.
 */
final class Target {

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
    final String adminToken;
    BenchUser user;
    BenchClient confidential;
    BenchClient publicClient;
    private final List<String> sessions = new ArrayList<>();

    Target(BenchOptions options, int port, String adminToken) {
        this.options = options;
        this.port = port;
        this.issuer = "http://localhost:" + port;
        this.adminToken = adminToken;
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

    /** The SSO session cookie of worker {@code index}, signing in through the login page the first time. */
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
        StringBuilder sb = new StringBuilder(256).append("/oauth/authorize?response_type=code&client_id=")
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
