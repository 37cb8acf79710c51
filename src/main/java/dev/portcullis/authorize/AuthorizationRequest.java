package dev.portcullis.authorize;

import dev.portcullis.client.Client;
import dev.portcullis.client.Scopes;
import dev.portcullis.crypto.Secrets;
import dev.portcullis.protocol.ClaimsRequest;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * A validated authorization request (RFC 6749 4.1.1, OIDC Core 3.1.2.1). Only {@link AuthorizationRequestValidator}
 * creates it. {@link #parameters()} keeps the original protocol parameters so the sign-in and consent pages can carry
 * the pending request in their URL and hidden field and validate it again on POST: nothing lives in one JVM's memory.
 * {@code resources} are the RFC 8707 resources it names (API identifiers, checked), carried as repeated
 * {@code resource} parameters; {@code claims} the {@code claims} parameter (OIDC Core 5.5, {@link ClaimsRequest#NONE}
 * without one); {@code requestObject} the verified request object it came from, when it came as one at this step
 * (null once it is carried by hash), whose single use the endpoint then records.
 */
public record AuthorizationRequest(Client client, String redirectUri, boolean redirectUriGiven,
                                   ResponseMode responseMode, Set<String> scopes,
                                   String state, String nonce, String codeChallenge, String codeChallengeMethod,
                                   Set<String> prompt, Long maxAge, String loginHint, String uiLocales,
                                   List<String> acrValues, List<String> resources, ClaimsRequest claims,
                                   Map<String, String> parameters, RequestObject requestObject) {

    /** The parameters of the authorization endpoint; anything else in a request is ignored (and not carried). */
    public static final Set<String> PARAMETER_NAMES = Set.of("client_id", "redirect_uri", "response_type", "scope",
            "state", "nonce", "code_challenge", "code_challenge_method", "prompt", "max_age", "login_hint",
            "ui_locales", "acr_values", "response_mode", "claims");

    public String scope() {
        return Scopes.format(scopes);
    }

    public boolean promptNone() {
        return prompt.contains("none");
    }

    public boolean promptLogin() {
        return prompt.contains("login");
    }

    public boolean promptConsent() {
        return prompt.contains("consent");
    }

    /**
     * This request as the pages carry it: by {@code carried} (a redeemed pushed request's client_id and hash) instead
     * of its own parameters.
     */
    AuthorizationRequest carriedAs(Map<String, String> carried) {
        return new AuthorizationRequest(client, redirectUri, redirectUriGiven, responseMode, scopes, state, nonce,
                codeChallenge, codeChallengeMethod, prompt, maxAge, loginHint, uiLocales, acrValues, resources, claims,
                new java.util.TreeMap<>(carried), null);
    }

    /** This request as the parameters of {@code object}. */
    AuthorizationRequest fromObject(RequestObject object) {
        return new AuthorizationRequest(client, redirectUri, redirectUriGiven, responseMode, scopes, state, nonce,
                codeChallenge, codeChallengeMethod, prompt, maxAge, loginHint, uiLocales, acrValues, resources, claims,
                parameters, object);
    }

    /** Whether this is a redeemed pushed request, carried by its hash. */
    public boolean pushed() {
        return parameters.containsKey(AuthorizationRequestValidator.PUSHED_REQUEST);
    }

    /**
     * The known parameters as a form-encoded query string, for the page URLs and the pages' hidden field; for a
     * pushed request, its client_id and hash.
     */
    public String query() {
        StringBuilder q = new StringBuilder(query(parameters));
        for (String resource : pushed() ? List.<String>of() : resources) {
            q.append(q.length() == 0 ? "" : "&").append("resource=").append(enc(resource));
        }
        return q.toString();
    }

    /** Names exactly this request (its known parameters), to bind a sign-in to it without storing the request. */
    public String fingerprint() {
        return Secrets.hash(query());
    }

    static String query(Map<String, String> params) {
        return params.entrySet().stream()
                .map(e -> enc(e.getKey()) + "=" + enc(e.getValue()))
                .collect(Collectors.joining("&"));
    }

    static Map<String, String> known(Map<String, String> all) {
        Map<String, String> out = new LinkedHashMap<>();
        all.forEach((k, v) -> {
            if (PARAMETER_NAMES.contains(k) && !v.isEmpty()) {
                out.put(k, v);
            }
        });
        return out;
    }

    private static String enc(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }
}
