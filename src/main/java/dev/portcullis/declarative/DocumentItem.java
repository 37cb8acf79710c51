package dev.portcullis.declarative;

import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/** One object of a configuration document with its JSON path: typed reads that name the path of a wrong value. */
record DocumentItem(String path, JsonObject json) {

    static DocumentItem of(String path, JsonValue v, Set<String> fields) {
        if (v.getValueType() != JsonValue.ValueType.OBJECT) {
            throw new DocumentError(path, "must be an object");
        }
        JsonObject o = v.asJsonObject();
        for (String key : o.keySet()) {
            if (!fields.contains(key)) {
                throw new DocumentError(path + "." + key, "unknown field");
            }
        }
        return new DocumentItem(path, o);
    }

    String at(String field) {
        return path + "." + field;
    }

    boolean has(String field) {
        return json.containsKey(field);
    }

    boolean isNull(String field) {
        return has(field) && json.isNull(field);
    }

    String requiredString(String field) {
        if (!has(field)) {
            throw new DocumentError(at(field), "is required");
        }
        String s = string(field);
        if (s == null) {
            throw new DocumentError(at(field), "cannot be null");
        }
        return s;
    }

    /** The text, or null when absent or null. */
    String string(String field) {
        JsonValue v = json.get(field);
        if (v == null || v.getValueType() == JsonValue.ValueType.NULL) {
            return null;
        }
        if (v.getValueType() != JsonValue.ValueType.STRING) {
            throw new DocumentError(at(field), "must be a string");
        }
        return ((JsonString) v).getString();
    }

    /** The boolean, or null when absent. */
    Boolean bool(String field) {
        JsonValue v = json.get(field);
        if (v == null) {
            return null;
        }
        if (v == JsonValue.TRUE || v == JsonValue.FALSE) {
            return v == JsonValue.TRUE;
        }
        if (v.getValueType() == JsonValue.ValueType.TRUE || v.getValueType() == JsonValue.ValueType.FALSE) {
            return v.getValueType() == JsonValue.ValueType.TRUE;
        }
        throw new DocumentError(at(field), "must be true or false");
    }

    /** The strings of an array, or null when absent or null. */
    List<String> strings(String field) {
        JsonValue v = json.get(field);
        if (v == null || v.getValueType() == JsonValue.ValueType.NULL) {
            return null;
        }
        if (v.getValueType() != JsonValue.ValueType.ARRAY) {
            throw new DocumentError(at(field), "must be an array of strings");
        }
        JsonArray a = v.asJsonArray();
        List<String> out = new ArrayList<>();
        for (int i = 0; i < a.size(); i++) {
            if (a.get(i).getValueType() != JsonValue.ValueType.STRING) {
                throw new DocumentError(at(field) + "[" + i + "]", "must be a string");
            }
            out.add(a.getString(i));
        }
        return out;
    }

    /** The object as JSON text, or null when absent or null. */
    String objectText(String field) {
        JsonValue v = json.get(field);
        if (v == null || v.getValueType() == JsonValue.ValueType.NULL) {
            return null;
        }
        if (v.getValueType() != JsonValue.ValueType.OBJECT) {
            throw new DocumentError(at(field), "must be an object");
        }
        return v.toString();
    }
}
