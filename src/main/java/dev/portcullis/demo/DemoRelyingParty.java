package dev.portcullis.demo;

import static dev.portcullis.page.HtmlPage.actions;
import static dev.portcullis.page.HtmlPage.element;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.crypto.RSASSAVerifier;
import com.nimbusds.jose.jwk.JWK;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import dev.portcullis.config.DemoSettings;
import dev.portcullis.config.IssuerSettings;
import dev.portcullis.crypto.Secrets;
import dev.portcullis.page.HtmlPage.Element;
import dev.portcullis.page.HtmlPage;
import dev.portcullis.protocol.JsonSupport;
import dev.portcullis.protocol.Pkce;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import jakarta.json.JsonWriter;
import jakarta.json.stream.JsonGenerator;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.CookieParam;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.NotFoundException;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.MultivaluedMap;
import jakarta.ws.rs.core.Response;
import java.io.StringReader;
import java.io.StringWriter;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Stream;

/**
 * {@code /demo/}: a deliberately small relying party — the one place Portcullis speaks as a client. It starts the
 * authorization code flow as {@value DemoSeed#CONFIDENTIAL} (the confidential client: the page asks for the client
 * secret from {@value DemoSeed#CREDENTIALS_FILE}, and only this backend uses it) or {@value DemoSeed#PUBLIC} (the
 * public client: PKCE S256, no secret),
 * completes the exchange with a JSON token request, validates the ID token (signature via the JWKS, iss,
 * aud, exp, nonce) and calls {@code /api/v1/me} with the access token. The transaction (state, nonce, verifier,
 * secret) lives in a short-lived HttpOnly cookie scoped to /demo, so any instance can finish what another started.
 */
@Path("")
@RequestScoped
public class DemoRelyingParty {

    private static final String COOKIE = "portcullis_demo";
    private static final String SCOPE = "openid profile email read_user";
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @Inject
    IssuerSettings issuer;

    @Inject
    DemoSettings demoSettings;

    @GET
    public Response index() {
        requireDemo();
        return page("Portcullis demo", null, List.of(
                element("p").cls("lead").text("A tiny relying party. Sign in as ").add(code("demo"))
                        .text(" with the password from ")
                        .add(code(DemoSeed.CREDENTIALS_FILE)).text(" in the server's data directory."),
                element("h2").text("Confidential client"),
                startForm("start-a", "confidential",
                        element("label").attr("for", "secret").text("Client secret of ")
                                .add(code(DemoSeed.CONFIDENTIAL)).text(" (from the same file)"),
                        element("input").attr("type", "password").id("secret").attr("name", "client_secret")
                                .attr("autocomplete", "off"),
                        actions(button("Sign in as the confidential client"))),
                element("h2").text("Public client with PKCE"),
                startForm("start-b", "public", actions(button("Sign in as the public client")))));
    }

    /** Starts a flow: a fresh state, nonce and PKCE verifier, remembered in the demo cookie; off to authorize. */
    @POST
    @Path("start")
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    public Response start(MultivaluedMap<String, String> form) {
        requireDemo();
        // a map, not @FormParam: Jersey fails with a 500 on @FormParam when a POST has no Content-Type
        String clientType = form == null ? null : form.getFirst("client_type");
        String secret = form == null ? null : form.getFirst("client_secret");
        boolean confidential = "confidential".equals(clientType);
        String state = Secrets.newSecret();
        String nonce = Secrets.newSecret();
        String verifier = Secrets.newSecret(); // 43 base64url characters: a valid RFC 7636 verifier
        StringBuilder authorize = new StringBuilder(issuer.endpoint("/oauth/authorize")).append("?response_type=code")
                .append("&client_id=").append(enc(confidential ? DemoSeed.CONFIDENTIAL : DemoSeed.PUBLIC))
                .append("&redirect_uri=").append(enc(issuer.endpoint(DemoSeed.CALLBACK)))
                .append("&scope=").append(enc(SCOPE)).append("&state=").append(state).append("&nonce=").append(nonce);
        if (!confidential) {
            authorize.append("&code_challenge=").append(Pkce.s256Challenge(verifier))
                    .append("&code_challenge_method=").append(Pkce.S256);
        }
        JsonObject tx = JsonSupport.JSON.createObjectBuilder().add("confidential", confidential).add("state", state)
                .add("nonce", nonce).add("verifier", verifier).add("secret", secret == null ? "" : secret.trim()).build();
        return Response.seeOther(URI.create(authorize.toString()))
                .header("Set-Cookie", cookie(Base64.getUrlEncoder().withoutPadding()
                        .encodeToString(tx.toString().getBytes(StandardCharsets.UTF_8)), 600))
                .build();
    }

    /** The redirect back: check state and iss, exchange the code, validate the ID token, call the API. */
    @GET
    @Path("callback")
    public Response callback(@QueryParam("code") String code, @QueryParam("state") String state,
                             @QueryParam("iss") String iss, @QueryParam("error") String error,
                             @QueryParam("error_description") String errorDescription,
                             @CookieParam(COOKIE) String cookie) {
        requireDemo();
        JsonObject tx = transaction(cookie);
        if (tx == null || state == null || !Secrets.constantTimeEquals(state, tx.getString("state"))) {
            return page("Demo: flow not recognised", 400, List.of(problem("No matching state: start again.")));
        }
        if (!issuer.issuerString().equals(iss)) {
            return page("Demo: wrong issuer", 400,
                    List.of(problem("The iss parameter is not this issuer (RFC 9207).")));
        }
        if (error != null || code == null) {
            return page("Demo: authorization failed", 200,
                    List.of(problem(Objects.toString(error, "") + ": " + Objects.toString(errorDescription, ""))));
        }
        boolean confidential = tx.getBoolean("confidential");
        String clientId = confidential ? DemoSeed.CONFIDENTIAL : DemoSeed.PUBLIC;
        try {
            return page("Demo: " + (confidential ? "confidential client" : "public client (PKCE)"), 200,
                    exchange(code, clientId, confidential, tx));
        } catch (IllegalStateException e) {
            return page("Demo: issuer unreachable", 502, List.of(problem(e.getMessage())));
        }
    }

    /** The client's back-channel part: token request, ID token check, API call; the page's blocks. */
    private List<Element> exchange(String code, String clientId, boolean confidential, JsonObject tx) {
        // the JSON token request, of the confidential or the public client
        var body = JsonSupport.JSON.createObjectBuilder().add("client_id", clientId).add("code", code)
                .add("grant_type", "authorization_code").add("redirect_uri", issuer.endpoint(DemoSeed.CALLBACK));
        body = confidential ? body.add("client_secret", tx.getString("secret")) : body.add("code_verifier", tx.getString("verifier"));
        HttpResponse<String> token = send(HttpRequest.newBuilder(URI.create(issuer.endpoint("/oauth/token")))
                .header("Content-Type", "application/json").header("Accept", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body.build().toString())).build());
        List<Element> html = new ArrayList<>(List.of(
                element("h2").text("Token response (HTTP " + token.statusCode() + ")"), pre(token.body())));
        JsonObject tokens = parse(token.body());
        if (token.statusCode() == 200 && tokens != null) {
            String idToken = tokens.getString("id_token", "");
            html.add(element("h2").text("ID token"));
            html.addAll(idTokenSection(idToken, clientId, tx.getString("nonce")));
            HttpResponse<String> me = send(HttpRequest.newBuilder(URI.create(issuer.endpoint("/api/v1/me")))
                    .header("Authorization", "Bearer " + tokens.getString("access_token")).GET().build());
            html.add(element("h2").text("GET /api/v1/me (HTTP " + me.statusCode() + ")"));
            html.add(pre(me.body()));
            html.add(actions(element("a").cls("button").attr("href", "/demo/").text("Start again"),
                    element("a").cls("button secondary").id("logout")
                            .attr("href", issuer.endpoint("/oauth/logout") + "?id_token_hint=" + idToken
                                    + "&post_logout_redirect_uri=" + enc(issuer.endpoint("/demo/")))
                            .text("Sign out")));
        }
        return html;
    }

    /** The client's ID token checks (OIDC Core 3.1.3.7), with the keys fetched from the JWKS like any client. */
    private List<Element> idTokenSection(String idToken, String clientId, String nonce) {
        try {
            SignedJWT jwt = SignedJWT.parse(idToken);
            String problem = idTokenProblem(jwt, clientId, nonce);
            Element verdict = problem == null
                    ? element("p").id("id-token-valid")
                            .text("Valid: signature (JWKS), iss, aud, exp and nonce checked.")
                    : problem("Invalid: " + problem);
            return List.of(verdict, pre(jwt.getHeader().toString()), pre(jwt.getJWTClaimsSet().toString()));
        } catch (java.text.ParseException e) {
            return List.of(problem("No ID token in the response."));
        }
    }

    private String idTokenProblem(SignedJWT jwt, String clientId, String nonce) throws java.text.ParseException {
        JWKSet jwks = JWKSet.parse(send(HttpRequest.newBuilder(URI.create(issuer.endpoint("/oauth/discovery/keys")))
                .GET().build()).body());
        JWK key = jwks.getKeyByKeyId(jwt.getHeader().getKeyID());
        try {
            if (!JWSAlgorithm.RS256.equals(jwt.getHeader().getAlgorithm()) || !(key instanceof RSAKey rsa)
                    || !jwt.verify(new RSASSAVerifier(rsa))) {
                return "signature";
            }
        } catch (JOSEException e) {
            return "signature: " + e.getMessage();
        }
        JWTClaimsSet c = jwt.getJWTClaimsSet();
        if (!issuer.issuerString().equals(c.getIssuer())) {
            return "iss";
        }
        if (c.getAudience() == null || !c.getAudience().contains(clientId)) {
            return "aud";
        }
        if (c.getExpirationTime() == null || c.getExpirationTime().toInstant().isBefore(java.time.Instant.now())) {
            return "exp";
        }
        return nonce.equals(c.getStringClaim("nonce")) ? null : "nonce";
    }

    private void requireDemo() {
        if (!demoSettings.enabled()) {
            throw new NotFoundException();
        }
    }

    private static JsonObject transaction(String cookie) {
        if (cookie == null || cookie.length() > 4096) {
            return null;
        }
        try {
            JsonObject tx = parse(new String(Base64.getUrlDecoder().decode(cookie), StandardCharsets.UTF_8));
            boolean complete = tx != null
                    && tx.get("confidential") != null
                    && EnumSet.of(JsonValue.ValueType.TRUE, JsonValue.ValueType.FALSE)
                            .contains(tx.get("confidential").getValueType())
                    && Stream.of("state", "nonce", "verifier", "secret").allMatch(k -> tx.get(k) instanceof JsonString);
            return complete ? tx : null; // a tampered cookie is just "no flow"
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    private static JsonObject parse(String json) {
        try (JsonReader r = JsonSupport.JSON.createReader(new StringReader(json))) {
            return r.readObject();
        } catch (RuntimeException e) {
            return null;
        }
    }

    private static HttpResponse<String> send(HttpRequest request) {
        try {
            return HTTP.send(request, HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        } catch (java.io.IOException e) {
            throw new IllegalStateException("The demo could not reach " + request.uri() + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private String cookie(String value, int maxAge) {
        return COOKIE + "=" + value + "; Path=/demo; Max-Age=" + maxAge + "; HttpOnly; SameSite=Lax"
                + (issuer.isHttps() ? "; Secure" : "");
    }

    private static Element pre(String json) {
        JsonObject o = parse(json);
        if (o == null) {
            return element("pre").text(json);
        }
        StringWriter out = new StringWriter();
        try (JsonWriter w = JsonSupport.JSON.createWriterFactory(Map.of(JsonGenerator.PRETTY_PRINTING, true)).createWriter(out)) {
            w.writeObject(o);
        }
        return element("pre").text(out.toString().trim());
    }

    private static Element problem(String text) {
        return element("p").cls("error").text(text);
    }

    private static Element code(String text) {
        return element("code").text(text);
    }

    private static Element button(String text) {
        return element("button").attr("type", "submit").text(text);
    }

    /** A form starting the flow of one demo client ({@code clientType} = confidential or public). */
    private static Element startForm(String id, String clientType, Element... fields) {
        return element("form").attr("method", "post").attr("action", "/demo/start").id(id)
                .add(HtmlPage.hidden("client_type", clientType)).add(fields);
    }

    /** A demo page; a status means the flow has ended (or failed), so its transaction cookie is cleared. */
    private Response page(String title, Integer status, List<Element> body) {
        Response.ResponseBuilder b = HtmlPage.titled(title).brand("Portcullis demo").wide().id("demo").add(body)
                .response(status == null ? 200 : status);
        if (status != null) {
            b.header("Set-Cookie", cookie("", 0)); // a finished or failed flow forgets its transaction
        }
        return b.build();
    }

    private static String enc(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }
}
