package dev.portcullis.protocol;

import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonReader;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.io.StringReader;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The {@code claims} request parameter (OIDC Core 5.5): the claims a client asks for one by one, at userinfo and in
 * the ID token, each with {@code essential} and the {@code value} or {@code values} it asks for. Parsed once at the
 * authorization endpoint and stored with the code and its grant in the normal form {@link #toJson()} gives (only the
 * two members and what each claim asks; other members are ignored, as 5.5 says). Which claims it releases is the
 * token side's rule; a claim name Portcullis does not know is kept here and released nowhere.
 */
public final class ClaimsRequest {

    /** The longest {@code claims} parameter accepted. */
    public static final int MAX_LENGTH = 4000;
    /** At most this many claims per member. */
    public static final int MAX_CLAIMS = 50;

    public static final ClaimsRequest NONE = new ClaimsRequest(Map.of(), Map.of());

    public static final String USERINFO = "userinfo";
    public static final String ID_TOKEN = "id_token";

    /** What a client asks of one claim: whether it is essential, and the values it asks for (empty: any value). */
    public record Requested(boolean essential, List<JsonValue> values) {

        public Requested {
            values = List.copyOf(values);
        }

        /** Whether {@code value} (a String, Boolean or Long as the claim releases it) is one the client asks for. */
        public boolean allows(Object value) {
            if (values.isEmpty()) {
                return true;
            }
            for (JsonValue v : values) {
                if (v instanceof JsonString s && s.getString().equals(value)
                        || v == JsonValue.TRUE && Boolean.TRUE.equals(value)
                        || v == JsonValue.FALSE && Boolean.FALSE.equals(value)
                        || v.getValueType() == JsonValue.ValueType.NUMBER && value instanceof Long n
                        && v.toString().equals(n.toString())) {
                    return true;
                }
            }
            return false;
        }
    }

    private final Map<String, Requested> userinfo;
    private final Map<String, Requested> idToken;

    private ClaimsRequest(Map<String, Requested> userinfo, Map<String, Requested> idToken) {
        // in the request's order, which the consent page shows
        this.userinfo = Collections.unmodifiableMap(new LinkedHashMap<>(userinfo));
        this.idToken = Collections.unmodifiableMap(new LinkedHashMap<>(idToken));
    }

    /**
     * The parameter as a client sent it; absent or empty: {@link #NONE}.
     *
     * @throws OAuthException invalid_request when it is not a JSON object of the 5.5 shape, or too large
     */
    public static ClaimsRequest parse(Optional<String> parameter) {
        if (parameter.isEmpty() || parameter.get().isEmpty()) {
            return NONE;
        }
        String text = parameter.get();
        if (text.length() > MAX_LENGTH) {
            throw OAuthException.invalidRequest("claims must be at most " + MAX_LENGTH + " characters");
        }
        JsonObject object;
        try (JsonReader r = JsonSupport.JSON.createReader(new StringReader(text))) {
            JsonValue v = r.readValue();
            if (v.getValueType() != JsonValue.ValueType.OBJECT) {
                throw OAuthException.invalidRequest("claims must be a JSON object");
            }
            object = v.asJsonObject();
        } catch (OAuthException e) {
            throw e;
        } catch (RuntimeException e) {
            throw OAuthException.invalidRequest("claims is not valid JSON");
        }
        return new ClaimsRequest(member(object, USERINFO), member(object, ID_TOKEN));
    }

    /** A request as {@link #toJson()} stored it; null: {@link #NONE}. */
    public static ClaimsRequest stored(String json) {
        return json == null ? NONE : parse(Optional.of(json));
    }

    private static Map<String, Requested> member(JsonObject object, String name) {
        JsonValue member = object.get(name);
        if (member == null || member == JsonValue.NULL) {
            return Map.of();
        }
        if (member.getValueType() != JsonValue.ValueType.OBJECT) {
            throw OAuthException.invalidRequest("claims: " + name + " must be a JSON object");
        }
        if (member.asJsonObject().size() > MAX_CLAIMS) {
            throw OAuthException.invalidRequest("claims: at most " + MAX_CLAIMS + " claims in " + name);
        }
        Map<String, Requested> claims = new LinkedHashMap<>();
        member.asJsonObject().forEach((claim, spec) -> claims.put(claim, requested(name, spec)));
        return claims;
    }

    private static Requested requested(String member, JsonValue spec) {
        if (spec == JsonValue.NULL) {
            return new Requested(false, List.of());
        }
        if (spec.getValueType() != JsonValue.ValueType.OBJECT) {
            throw OAuthException.invalidRequest("claims: each claim in " + member + " must be null or an object");
        }
        JsonObject o = spec.asJsonObject();
        JsonValue essential = o.getOrDefault("essential", JsonValue.FALSE);
        if (essential != JsonValue.TRUE && essential != JsonValue.FALSE) {
            throw OAuthException.invalidRequest("claims: essential must be true or false");
        }
        List<JsonValue> values = new ArrayList<>();
        JsonValue value = o.get("value");
        if (value != null && value != JsonValue.NULL) {
            values.add(value);
        }
        JsonValue many = o.get("values");
        if (many != null && many != JsonValue.NULL) {
            if (many.getValueType() != JsonValue.ValueType.ARRAY) {
                throw OAuthException.invalidRequest("claims: values must be an array");
            }
            values.addAll(many.asJsonArray());
        }
        return new Requested(essential == JsonValue.TRUE, values);
    }

    /** The claims asked for at userinfo, by name. */
    public Map<String, Requested> userinfo() {
        return userinfo;
    }

    /** The claims asked for in the ID token, by name. */
    public Map<String, Requested> idToken() {
        return idToken;
    }

    public boolean isEmpty() {
        return userinfo.isEmpty() && idToken.isEmpty();
    }

    /** Every claim name asked for, at userinfo or in the ID token. */
    public Set<String> names() {
        Set<String> names = new LinkedHashSet<>(userinfo.keySet());
        names.addAll(idToken.keySet());
        return names;
    }

    /**
     * The {@code sub} values the request names (5.5.1: no positive answer for another user); empty when it names
     * none.
     */
    public Set<String> subjects() {
        Set<String> subjects = new LinkedHashSet<>();
        for (Map<String, Requested> member : List.of(userinfo, idToken)) {
            Requested sub = member.get("sub");
            if (sub != null) {
                sub.values().forEach(v -> subjects.add(v instanceof JsonString s ? s.getString() : v.toString()));
            }
        }
        return subjects;
    }

    /** The normal form stored with a code and its grant; null for {@link #NONE}. */
    public String toJson() {
        if (isEmpty()) {
            return null;
        }
        JsonObjectBuilder b = JsonSupport.JSON.createObjectBuilder();
        if (!userinfo.isEmpty()) {
            b.add(USERINFO, json(userinfo));
        }
        if (!idToken.isEmpty()) {
            b.add(ID_TOKEN, json(idToken));
        }
        return b.build().toString();
    }

    private static JsonObjectBuilder json(Map<String, Requested> claims) {
        JsonObjectBuilder b = JsonSupport.JSON.createObjectBuilder();
        claims.forEach((name, r) -> {
            JsonObjectBuilder spec = JsonSupport.JSON.createObjectBuilder();
            if (r.essential()) {
                spec.add("essential", true);
            }
            if (!r.values().isEmpty()) {
                spec.add("values", JsonSupport.JSON.createArrayBuilder(r.values()));
            }
            b.add(name, spec);
        });
        return b;
    }
}
