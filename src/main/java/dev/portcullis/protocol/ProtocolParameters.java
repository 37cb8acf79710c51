package dev.portcullis.protocol;

import jakarta.json.stream.JsonParser;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.MultivaluedMap;
import java.io.StringReader;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The parameters of one protocol request, from a query string, a form body or a flat JSON object (the JSON token
 * request). Parsing is strict in one place, so every endpoint rejects the same hostile input the same way:
 * a parameter given twice, a control character, a JSON value that is not a string, broken encodings — all
 * {@code invalid_request}. (OAuth 2.1: "Request and response parameters MUST NOT be included more than once.")
 * The one exception is {@link #REPEATABLE}: RFC 8707's {@code resource}, which a request repeats to name several
 * resources, read with {@link #all}.
 */
public final class ProtocolParameters {

    /** Longest value accepted for any single parameter; longer is invalid_request, not truncation. */
    public static final int MAX_VALUE_LENGTH = 4096;

    /** The parameters a request may repeat (RFC 8707 2: {@code resource}); they are not in {@link #asMap}. */
    public static final Set<String> REPEATABLE = Set.of("resource");

    /** Most values of one repeatable parameter. */
    public static final int MAX_REPEATS = 20;

    private final Map<String, String> values;
    private final Map<String, List<String>> repeated;

    private ProtocolParameters(Map<String, String> values, Map<String, List<String>> repeated) {
        this.values = Collections.unmodifiableMap(values);
        this.repeated = Collections.unmodifiableMap(repeated);
    }

    /**
     * From already-decoded multi-valued parameters (JAX-RS query or form parameters); null (a POST without a body or
     * Content-Type, which JAX-RS hands over as no form at all) is no parameters.
     */
    public static ProtocolParameters of(MultivaluedMap<String, String> params) {
        Map<String, String> out = new LinkedHashMap<>();
        Map<String, List<String>> repeated = new LinkedHashMap<>();
        if (params == null) {
            return new ProtocolParameters(out, repeated);
        }
        for (Map.Entry<String, List<String>> e : params.entrySet()) {
            if (e.getValue().size() > 1 && !REPEATABLE.contains(e.getKey())) {
                throw duplicate(e.getKey());
            }
            if (e.getValue().isEmpty()) {
                put(out, repeated, e.getKey(), "");
            }
            for (String value : e.getValue()) {
                put(out, repeated, e.getKey(), value == null ? "" : value); // "a" without "=" arrives as null
            }
        }
        return new ProtocolParameters(out, repeated);
    }

    /**
     * From a request body: {@code application/json} (one flat object of strings) or
     * {@code application/x-www-form-urlencoded}. Any other media type is rejected with 415.
     */
    public static ProtocolParameters fromBody(MediaType type, String body) {
        if (type != null && type.isCompatible(MediaType.APPLICATION_JSON_TYPE)) {
            return fromJson(body);
        }
        if (type != null && type.isCompatible(MediaType.APPLICATION_FORM_URLENCODED_TYPE)) {
            return fromForm(body);
        }
        throw new OAuthException(OAuthError.INVALID_REQUEST,
                "Content-Type must be application/json or application/x-www-form-urlencoded", 415);
    }

    /** {@link #fromBody(MediaType, String)} with the request's Content-Type; a malformed header is 415. */
    public static ProtocolParameters fromBody(jakarta.ws.rs.core.HttpHeaders headers, String body) {
        MediaType type;
        try {
            type = headers.getMediaType();
        } catch (RuntimeException e) {
            throw new OAuthException(OAuthError.INVALID_REQUEST, "Malformed Content-Type header", 415);
        }
        return fromBody(type, body);
    }

    public static ProtocolParameters fromForm(String body) {
        Map<String, String> out = new LinkedHashMap<>();
        Map<String, List<String>> repeated = new LinkedHashMap<>();
        if (body == null || body.isEmpty()) {
            return new ProtocolParameters(out, repeated);
        }
        for (String pair : body.split("&", -1)) {
            if (pair.isEmpty()) {
                continue;
            }
            int eq = pair.indexOf('=');
            String name = decode(eq < 0 ? pair : pair.substring(0, eq));
            String value = eq < 0 ? "" : decode(pair.substring(eq + 1));
            if (out.containsKey(name)) {
                throw duplicate(name);
            }
            put(out, repeated, name, value);
        }
        return new ProtocolParameters(out, repeated);
    }

    public static ProtocolParameters fromJson(String body) {
        Map<String, String> out = new LinkedHashMap<>();
        Map<String, List<String>> repeated = new LinkedHashMap<>();
        if (body == null || body.isBlank()) {
            throw OAuthException.invalidRequest("The request body must be a JSON object");
        }
        try (JsonParser p = JsonSupport.JSON.createParser(new StringReader(body))) {
            if (!p.hasNext() || p.next() != JsonParser.Event.START_OBJECT) {
                throw OAuthException.invalidRequest("The request body must be a JSON object");
            }
            while (true) {
                JsonParser.Event ev = p.next();
                if (ev == JsonParser.Event.END_OBJECT) {
                    break;
                }
                String name = p.getString();
                JsonParser.Event valueEvent = p.next();
                if (valueEvent != JsonParser.Event.VALUE_STRING) {
                    throw OAuthException.invalidRequest("Parameter '" + safeName(name) + "' must be a JSON string");
                }
                if (out.containsKey(name)) {
                    throw duplicate(name);
                }
                put(out, repeated, name, p.getString());
            }
            if (p.hasNext()) {
                throw OAuthException.invalidRequest("Unexpected content after the JSON object");
            }
        } catch (OAuthException e) {
            throw e;
        } catch (RuntimeException e) {
            // JsonParsingException, NoSuchElementException at a truncated body, Parsson's nesting limit
            throw OAuthException.invalidRequest("The request body is not valid JSON");
        }
        return new ProtocolParameters(out, repeated);
    }

    /** The value, or empty when absent. An empty string counts as absent (RFC 6749 3.1). */
    public Optional<String> get(String name) {
        String v = values.get(name);
        return v == null || v.isEmpty() ? Optional.empty() : Optional.of(v);
    }

    /** The value, or invalid_request naming the missing parameter. */
    public String require(String name) {
        return get(name).orElseThrow(() -> OAuthException.invalidRequest("Missing parameter: " + name));
    }

    /** Every non-empty value of a {@link #REPEATABLE} parameter, in the order given; empty when absent. */
    public List<String> all(String name) {
        return List.copyOf(repeated.getOrDefault(name, List.of()));
    }

    public boolean has(String name) {
        return get(name).isPresent();
    }

    public Map<String, String> asMap() {
        return values;
    }

    private static void put(Map<String, String> out, Map<String, List<String>> repeated, String name, String value) {
        if (!REPEATABLE.contains(name)) {
            put(out, name, value);
            return;
        }
        Map<String, String> one = new LinkedHashMap<>();
        put(one, name, value); // the same checks as any parameter
        if (value.isEmpty()) {
            return;
        }
        List<String> values = repeated.computeIfAbsent(name, n -> new ArrayList<>());
        if (values.size() >= MAX_REPEATS) {
            throw OAuthException.invalidRequest("Parameter '" + name + "' is repeated more than " + MAX_REPEATS
                    + " times");
        }
        values.add(value);
    }

    private static void put(Map<String, String> out, String name, String value) {
        if (name.length() > 128 || hasControlCharacter(name)) {
            throw OAuthException.invalidRequest("Malformed parameter name");
        }
        if (value.length() > MAX_VALUE_LENGTH) {
            throw OAuthException.invalidRequest("Parameter '" + safeName(name) + "' is too long");
        }
        if (hasControlCharacter(value)) {
            throw OAuthException.invalidRequest("Parameter '" + safeName(name) + "' contains control characters");
        }
        out.put(name, value);
    }

    private static boolean hasControlCharacter(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < 0x20 || c == 0x7f || c == '\uFFFD' || Character.isSurrogate(c) && !validSurrogateAt(s, i)) {
                return true;
            }
        }
        return false;
    }

    private static boolean validSurrogateAt(String s, int i) {
        char c = s.charAt(i);
        if (Character.isHighSurrogate(c)) {
            return i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1));
        }
        return i > 0 && Character.isHighSurrogate(s.charAt(i - 1));
    }

    private static String decode(String s) {
        try {
            return URLDecoder.decode(s, StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            throw OAuthException.invalidRequest("Malformed form encoding");
        }
    }

    private static OAuthException duplicate(String name) {
        return OAuthException.invalidRequest("Parameter '" + safeName(name) + "' is included more than once");
    }

    /** A parameter name fit to echo in an error description: short and plain. */
    private static String safeName(String name) {
        String n = name.length() > 40 ? name.substring(0, 40) : name;
        return n.replaceAll("[^A-Za-z0-9_.-]", "?");
    }
}
