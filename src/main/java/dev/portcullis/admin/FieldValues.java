package dev.portcullis.admin;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The members of a registration or merge patch as an {@link AdminSchema} read them, by JSON name: a value, absent
 * (not named: the patch leaves it), or removed (named null where the field allows it).
 */
public final class FieldValues {

    static final Object REMOVED = new Object();

    private final Map<String, Object> values;

    FieldValues(Map<String, Object> values) {
        this.values = values;
    }

    public boolean has(SchemaField<?> field) {
        return values.containsKey(field.name());
    }

    /** Whether the member was named null, to remove the value. */
    public boolean removed(SchemaField<?> field) {
        return values.get(field.name()) == REMOVED;
    }

    /** The string; null when absent, empty when removed. */
    public String string(SchemaField<?> field) {
        Object v = values.get(field.name());
        return v == REMOVED ? "" : (String) v;
    }

    /** The list; null when absent, empty when removed. */
    @SuppressWarnings("unchecked")
    public List<String> list(SchemaField<?> field) {
        Object v = values.get(field.name());
        return v == REMOVED ? List.of() : (List<String>) v;
    }

    /** The flag; null when absent. */
    public Boolean bool(SchemaField<?> field) {
        return (Boolean) values.get(field.name());
    }

    /** A removable string: null when absent, empty when removed, else the string. */
    public Optional<String> removable(SchemaField<?> field) {
        Object v = values.get(field.name());
        return v == null ? null : v == REMOVED ? Optional.empty() : Optional.of((String) v);
    }
}
