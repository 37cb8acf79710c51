package dev.portcullis.api;

import dev.portcullis.admin.Refusal;
import dev.portcullis.client.Scopes;
import java.net.InetAddress;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * What a registered API may look like, checked by {@link ApiService} before anything is written: pure functions that
 * either return the value as it is stored or throw {@link Refusal} naming the admin API's field.
 */
public final class ApiRules {

    /** Longest identifier: it travels in every token's {@code aud} and in the resources columns. */
    public static final int MAX_IDENTIFIER = 255;
    public static final int MAX_NAME = 200;
    public static final int MAX_SCOPES = 50;
    public static final int MAX_SCOPE = 64;
    /** The access-token signing algorithms an API may choose (RFC 9068 allows any asymmetric JWS algorithm). */
    public static final List<String> SIGNING_ALGS = List.of("RS256", "PS256", "ES256");

    private ApiRules() {
    }

    /**
     * An API identifier: an absolute https URI without fragment (RFC 8707 2), or http on a loopback host for local
     * development, at most {@link #MAX_IDENTIFIER} characters. Returned exactly as given, since a token's
     * {@code aud} is compared as a plain string.
     */
    public static String identifier(String raw) {
        if (raw == null || raw.isEmpty() || raw.length() > MAX_IDENTIFIER) {
            throw Refusal.invalid("identifier", "must be 1 to " + MAX_IDENTIFIER + " characters");
        }
        if (!isResourceUri(raw)) {
            throw Refusal.invalid("identifier", "must be an absolute https URI without fragment (http only on "
                    + "a loopback host), such as https://payroll-api.corp.example");
        }
        URI uri = URI.create(raw);
        String scheme = uri.getScheme().toLowerCase(Locale.ROOT);
        if (!scheme.equals("https") && !(scheme.equals("http") && isLoopback(uri.getHost()))) {
            throw Refusal.invalid("identifier", "must use https (http only on a loopback host)");
        }
        if (uri.getUserInfo() != null) {
            throw Refusal.invalid("identifier", "must not contain user information");
        }
        return raw;
    }

    /**
     * Whether {@code value} has the form of an RFC 8707 resource: an absolute URI with a host, no fragment, no
     * whitespace. Shared with the protocol checks, which answer {@code invalid_target} instead.
     */
    public static boolean isResourceUri(String value) {
        if (value == null || value.isEmpty() || value.length() > MAX_IDENTIFIER) {
            return false;
        }
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c <= 0x20 || c >= 0x7f) {
                return false;
            }
        }
        try {
            URI uri = new URI(value);
            return uri.isAbsolute() && !uri.isOpaque() && uri.getHost() != null && uri.getRawFragment() == null
                    && value.indexOf('#') < 0;
        } catch (URISyntaxException e) {
            return false;
        }
    }

    private static boolean isLoopback(String host) {
        if (host == null) {
            return false;
        }
        String h = host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
        if (h.equalsIgnoreCase("localhost")) {
            return true;
        }
        // only literal addresses: a name is never resolved here
        if (!h.matches("[0-9.]+|[0-9A-Fa-f:]+")) {
            return false;
        }
        try {
            return InetAddress.getByName(h).isLoopbackAddress();
        } catch (java.net.UnknownHostException e) {
            return false;
        }
    }

    public static String name(String raw) {
        String name = raw == null ? "" : raw.strip();
        if (name.isEmpty() || name.length() > MAX_NAME) {
            throw Refusal.invalid("name", "must be 1 to " + MAX_NAME + " characters");
        }
        return name;
    }

    /**
     * An API's scopes: 1 to {@link #MAX_SCOPES} distinct names of RFC 6749 3.3 syntax, none a built-in scope
     * ({@link Scopes#ALL}, and {@code offline_access}) nor one of {@code takenByOtherApis}. Returned in their order.
     */
    public static Set<String> scopes(Collection<String> raw, Set<String> takenByOtherApis) {
        if (raw == null || raw.isEmpty()) {
            throw Refusal.invalid("scopes", "at least one scope is required");
        }
        if (raw.size() > MAX_SCOPES) {
            throw Refusal.invalid("scopes", "at most " + MAX_SCOPES + " scopes");
        }
        Set<String> scopes = new LinkedHashSet<>();
        for (String s : raw) {
            if (s == null || s.isEmpty() || s.length() > MAX_SCOPE || !Scopes.isWellFormed(s)) {
                throw Refusal.invalid("scopes", "each scope must be 1 to " + MAX_SCOPE + " characters of "
                        + "RFC 6749 3.3 syntax (printable ASCII without space, '\"' and '\\')");
            }
            if (Scopes.isKnown(s) || s.equals(Scopes.OFFLINE_ACCESS)) {
                throw Refusal.invalid("scopes", "'" + s + "' is a built-in scope of Portcullis");
            }
            if (takenByOtherApis.contains(s)) {
                throw Refusal.invalid("scopes", "'" + s + "' belongs to another API");
            }
            if (!scopes.add(s)) {
                throw Refusal.invalid("scopes", "lists '" + s + "' twice");
            }
        }
        return scopes;
    }

    /**
     * {@code exchange_scopes}: what the API's backend may obtain by token exchange, at most {@link #MAX_SCOPES}
     * distinct scopes, each one of another registered API ({@code scopesOfOtherApis}). Never a built-in scope: an
     * exchanged token is never for Portcullis's own API (userinfo, {@code /api/v1}) nor carries OpenID scopes. Never
     * the API's own ({@code ownScopes}): its backend already holds those tokens. Null or empty: none.
     */
    public static Set<String> exchangeScopes(Collection<String> raw, Set<String> ownScopes,
                                             Set<String> scopesOfOtherApis) {
        if (raw == null) {
            return Set.of();
        }
        if (raw.size() > MAX_SCOPES) {
            throw Refusal.invalid("exchange_scopes", "at most " + MAX_SCOPES + " scopes");
        }
        Set<String> scopes = new LinkedHashSet<>();
        for (String s : raw) {
            if (s == null || s.isEmpty() || s.length() > MAX_SCOPE || !Scopes.isWellFormed(s)) {
                throw Refusal.invalid("exchange_scopes", "each must be a scope of another registered API");
            }
            if (Scopes.isKnown(s) || s.equals(Scopes.OFFLINE_ACCESS)) {
                throw Refusal.invalid("exchange_scopes", "'" + s + "' is a scope of Portcullis's own API, "
                        + "which a token exchange never issues");
            }
            if (ownScopes.contains(s)) {
                throw Refusal.invalid("exchange_scopes", "'" + s + "' is this API's own scope; name scopes of "
                        + "the APIs its backend calls");
            }
            if (!scopesOfOtherApis.contains(s)) {
                throw Refusal.invalid("exchange_scopes", "'" + s + "' is no scope of a registered API");
            }
            if (!scopes.add(s)) {
                throw Refusal.invalid("exchange_scopes", "lists '" + s + "' twice");
            }
        }
        return scopes;
    }

    /** RFC 9068's access-token type, every API's default. */
    public static final String AT_JWT = "at+jwt";

    /** The header typ values an API may choose for its access tokens: RFC 9068's, or plain {@code JWT}. */
    public static final List<String> TOKEN_TYPS = List.of(AT_JWT, "JWT");

    /** {@code access_token_typ}: one of {@link #TOKEN_TYPS}, exactly; null (not given) is {@code at+jwt}. */
    public static String accessTokenTyp(String raw) {
        if (raw == null) {
            return AT_JWT;
        }
        if (!TOKEN_TYPS.contains(raw)) {
            throw Refusal.invalid("access_token_typ", "must be at+jwt (RFC 9068, the default) or JWT");
        }
        return raw;
    }

    /** {@code access_token_signing_alg}: one of {@link #SIGNING_ALGS}, or null for the global default. */
    public static String signingAlg(String raw) {
        if (raw == null) {
            return null;
        }
        if (!SIGNING_ALGS.contains(raw)) {
            throw Refusal.invalid("access_token_signing_alg", "must be one of " + String.join(", ", SIGNING_ALGS)
                    + ", or null for portcullis.access-token.signing-alg");
        }
        return raw;
    }
}
