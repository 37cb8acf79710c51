package dev.portcullis.protocol;

import jakarta.json.JsonArray;
import jakarta.json.JsonConfig;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import jakarta.json.JsonReaderFactory;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.io.StringReader;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Strict reading of JSON request bodies for the admin and user APIs: one object, duplicate keys rejected, only
 * known fields, typed getters that answer {@code invalid_request} naming the field.
 */
public final class JsonObjects {

    private static final JsonReaderFactory READERS =
            JsonSupport.JSON.createReaderFactory(Map.of(JsonConfig.KEY_STRATEGY, JsonConfig.KeyStrategy.NONE));

    private final JsonObject object;

    private JsonObjects(JsonObject object) {
        this.object = object;
    }

    /** Parses {@code body} as one JSON object that may only contain {@code allowedFields}. */
    public static JsonObjects parse(String body, Set<String> allowedFields) {
        if (body == null || body.isBlank()) {
            throw OAuthException.invalidRequest("The request body must be a JSON object");
        }
        JsonObject obj;
        try (JsonReader r = READERS.createReader(new StringReader(body))) {
            JsonValue v = r.readValue();
            if (v.getValueType() != JsonValue.ValueType.OBJECT) {
                throw OAuthException.invalidRequest("The request body must be a JSON object");
            }
            obj = v.asJsonObject();
        } catch (OAuthException e) {
            throw e;
        } catch (RuntimeException e) {
            // JsonException, and Parsson's plain RuntimeException for nesting deeper than its limit
            throw OAuthException.invalidRequest("The request body is not valid JSON (or repeats a key)");
        }
        for (String key : obj.keySet()) {
            if (!allowedFields.contains(key)) {
                throw OAuthException.invalidRequest("Unknown field: " + printable(key));
            }
        }
        return new JsonObjects(obj);
    }

    /** The media type of a JSON merge patch (RFC 7396). */
    public static final String MERGE_PATCH = "application/merge-patch+json";

    /** Whether the object has {@code field}, null or not (RFC 7396: absent leaves a value, null removes it). */
    public boolean has(String field) {
        return object.containsKey(field);
    }

    /** Whether {@code field} is present with the value JSON null. */
    public boolean isNull(String field) {
        return object.get(field) == JsonValue.NULL;
    }

    /**
     * A merge-patch member that may be removed (RFC 7396): null when the field is absent (leave as is), empty when
     * it is JSON null (remove), else the string.
     */
    public Optional<String> removableString(String field, int maxLength) {
        return has(field) ? string(field, maxLength) : null;
    }

    public Optional<String> string(String field, int maxLength) {
        return text(field, maxLength, false);
    }

    /** As {@link #removableString}, with line breaks (LF) allowed, as in a postal address. */
    public Optional<String> removableLines(String field, int maxLength) {
        return has(field) ? text(field, maxLength, true) : null;
    }

    /**
     * A member that must be a JSON object with only {@code allowedFields}, for a nested merge patch: null when
     * absent, empty when JSON null.
     */
    public Optional<JsonObjects> removableObject(String field, Set<String> allowedFields) {
        if (!has(field)) {
            return null;
        }
        JsonValue v = object.get(field);
        if (v == JsonValue.NULL) {
            return Optional.empty();
        }
        if (v.getValueType() != JsonValue.ValueType.OBJECT) {
            throw OAuthException.invalidRequest(field + ": must be a JSON object");
        }
        for (String key : v.asJsonObject().keySet()) {
            if (!allowedFields.contains(key)) {
                throw OAuthException.invalidRequest(field + ": unknown member: " + printable(key));
            }
        }
        return Optional.of(new JsonObjects(v.asJsonObject()));
    }

    private Optional<String> text(String field, int maxLength, boolean lines) {
        JsonValue v = object.get(field);
        if (v == null || v == JsonValue.NULL) {
            return Optional.empty();
        }
        if (v.getValueType() != JsonValue.ValueType.STRING) {
            throw OAuthException.invalidRequest(field + ": must be a string");
        }
        String s = ((JsonString) v).getString();
        if (s.length() > maxLength) {
            throw OAuthException.invalidRequest(field + ": must be at most " + maxLength + " characters");
        }
        if (s.chars().anyMatch(c -> (c < 0x20 || c == 0x7f) && !(lines && c == '\n'))) {
            throw OAuthException.invalidRequest(field + ": must not contain control characters");
        }
        return Optional.of(s);
    }

    public String requiredString(String field, int maxLength) {
        return string(field, maxLength).filter(s -> !s.isBlank())
                .orElseThrow(() -> OAuthException.invalidRequest(field + ": is required"));
    }

    public Optional<Boolean> bool(String field) {
        JsonValue v = object.get(field);
        if (v == null || v == JsonValue.NULL) {
            return Optional.empty();
        }
        if (v != JsonValue.TRUE && v != JsonValue.FALSE) {
            throw OAuthException.invalidRequest(field + ": must be true or false");
        }
        return Optional.of(v == JsonValue.TRUE);
    }

    /** A member that must be a JSON object, as its JSON text (at most {@code maxLength} characters). */
    public Optional<String> objectText(String field, int maxLength) {
        JsonValue v = object.get(field);
        if (v == null || v == JsonValue.NULL) {
            return Optional.empty();
        }
        if (v.getValueType() != JsonValue.ValueType.OBJECT) {
            throw OAuthException.invalidRequest(field + ": must be a JSON object");
        }
        String text = v.toString();
        if (text.length() > maxLength) {
            throw OAuthException.invalidRequest(field + ": must be at most " + maxLength + " characters");
        }
        return Optional.of(text);
    }

    /** A whole number from {@code min} to {@code max}. */
    public Optional<Long> integer(String field, long min, long max) {
        JsonValue v = object.get(field);
        if (v == null || v == JsonValue.NULL) {
            return Optional.empty();
        }
        if (v.getValueType() != JsonValue.ValueType.NUMBER || !((jakarta.json.JsonNumber) v).isIntegral()) {
            throw OAuthException.invalidRequest(field + ": must be a whole number");
        }
        java.math.BigDecimal n = ((jakarta.json.JsonNumber) v).bigDecimalValue();
        if (n.compareTo(java.math.BigDecimal.valueOf(min)) < 0 || n.compareTo(java.math.BigDecimal.valueOf(max)) > 0) {
            throw OAuthException.invalidRequest(field + ": must be from " + min + " to " + max);
        }
        return Optional.of(n.longValueExact());
    }

    public Optional<List<String>> stringList(String field, int maxItems, int maxLength) {
        JsonValue v = object.get(field);
        if (v == null || v == JsonValue.NULL) {
            return Optional.empty();
        }
        if (v.getValueType() != JsonValue.ValueType.ARRAY) {
            throw OAuthException.invalidRequest(field + ": must be an array of strings");
        }
        JsonArray a = v.asJsonArray();
        if (a.size() > maxItems) {
            throw OAuthException.invalidRequest(field + ": at most " + maxItems + " entries");
        }
        List<String> out = new ArrayList<>();
        for (JsonValue item : a) {
            if (item.getValueType() != JsonValue.ValueType.STRING) {
                throw OAuthException.invalidRequest(field + ": must be an array of strings");
            }
            String s = ((JsonString) item).getString();
            if (s.length() > maxLength) {
                throw OAuthException.invalidRequest(field + ": entries must be at most " + maxLength + " characters");
            }
            out.add(s);
        }
        return Optional.of(out);
    }

    private static String printable(String s) {
        String t = s.length() > 40 ? s.substring(0, 40) : s;
        return t.replaceAll("[^A-Za-z0-9_.-]", "?");
    }
}
