package dev.portcullis.admin;

import dev.portcullis.protocol.JsonObjects;
import dev.portcullis.protocol.JsonSupport;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonValue;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The fields of an administered aggregate {@code A}, in the order of its admin JSON: which members a registration
 * and a merge patch (RFC 7396) may hold and of which type, how the aggregate is written as JSON, and which changes
 * the audit trail names. The values' rules stay with the aggregate's service, which validates, audits and commits.
 */
public final class AdminSchema<A> {

    private final List<SchemaField<A>> fields;

    @SafeVarargs
    public AdminSchema(SchemaField<A>... fields) {
        this.fields = List.of(fields);
    }

    public List<SchemaField<A>> fields() {
        return fields;
    }

    /** The field named {@code name}; a name not in the schema is a programming error. */
    public SchemaField<A> field(String name) {
        return fields.stream().filter(f -> f.name().equals(name)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no field " + name));
    }

    /** The members a registration may hold. */
    public Set<String> registrationFields() {
        return names(fields.stream().filter(SchemaField::atRegistration).toList());
    }

    /** The members a merge patch may hold. */
    public Set<String> patchFields() {
        return names(fields.stream().filter(f -> f.patch() != PatchRule.NONE).toList());
    }

    /**
     * A registration's members, typed and bounded; a member not named (or named null) has its default.
     *
     * @throws Refusal for an unknown member, a wrong type, a value over its bounds or a required one missing
     */
    public FieldValues readRegistration(String body) {
        JsonObjects json = JsonObjects.parse(body, registrationFields());
        Map<String, Object> values = new LinkedHashMap<>();
        for (SchemaField<A> f : fields) {
            if (f.atRegistration()) {
                Object v = f.required() && f.type() == FieldType.STRING
                        ? json.requiredString(f.name(), f.maxLength()) : read(json, f).orElse(f.defaultValue());
                if (v != null) {
                    values.put(f.name(), v);
                }
            }
        }
        return new FieldValues(values);
    }

    /**
     * A merge patch's members, typed and bounded: a member not named is absent, one named null is removed where the
     * field's {@link PatchRule} allows it.
     *
     * @throws Refusal for an unknown member, a wrong type, a value over its bounds or a null the field refuses
     */
    public FieldValues readPatch(String body) {
        JsonObjects json = JsonObjects.parse(body, patchFields());
        for (SchemaField<A> f : fields) {
            if (f.patch() == PatchRule.CHANGE && json.has(f.name()) && json.isNull(f.name())) {
                throw Refusal.invalid(f.name(), "cannot be removed (null)");
            }
        }
        Map<String, Object> values = new LinkedHashMap<>();
        for (SchemaField<A> f : fields) {
            if (f.patch() == PatchRule.CHANGE_OR_REMOVE && json.has(f.name()) && json.isNull(f.name())) {
                values.put(f.name(), FieldValues.REMOVED);
            } else if (f.patch() != PatchRule.NONE) {
                read(json, f).ifPresent(x -> values.put(f.name(), x));
            }
        }
        return new FieldValues(values);
    }

    private static Optional<Object> read(JsonObjects json, SchemaField<?> f) {
        return switch (f.type()) {
            case STRING -> json.string(f.name(), f.maxLength()).map(Object.class::cast);
            case STRING_LIST -> json.stringList(f.name(), f.maxItems(), f.maxLength()).map(Object.class::cast);
            case BOOLEAN -> json.bool(f.name()).map(Object.class::cast);
            case OBJECT -> json.objectText(f.name(), f.maxLength()).map(Object.class::cast);
            case INTEGER -> json.integer(f.name(), 0, Long.MAX_VALUE).map(Object.class::cast);
        };
    }

    /** {@code a} as the admin API answers it: every field whose value is present, in the schema's order. */
    public JsonObjectBuilder write(A a) {
        JsonObjectBuilder out = JsonSupport.JSON.createObjectBuilder();
        for (SchemaField<A> f : fields) {
            JsonValue v = f.read().apply(a);
            if (v != null) {
                out.add(f.name(), v);
            }
        }
        return out;
    }

    /** The audited values of {@code a}, to compare with {@link #changes} after a change. */
    public Map<String, Object> audited(A a) {
        Map<String, Object> values = new LinkedHashMap<>();
        for (SchemaField<A> f : fields) {
            if (f.auditLabel() != null) {
                values.put(f.name(), f.audited().apply(a));
            }
        }
        return values;
    }

    /** The audit labels of the fields whose value differs from {@code before}, each label once, in schema order. */
    public List<String> changes(Map<String, Object> before, A after) {
        Set<String> labels = new LinkedHashSet<>();
        audited(after).forEach((name, value) -> {
            if (!Objects.equals(before.get(name), value)) {
                labels.add(field(name).auditLabel());
            }
        });
        return new ArrayList<>(labels);
    }

    /** A string member of an answer. */
    public static JsonValue string(String s) {
        return JsonSupport.JSON.createValue(s);
    }

    /** A string member of an answer that is left out when not set. */
    public static JsonValue optional(String s) {
        return s == null ? null : string(s);
    }

    public static JsonValue bool(boolean b) {
        return b ? JsonValue.TRUE : JsonValue.FALSE;
    }

    /** An instant as epoch seconds. */
    public static JsonValue epoch(Instant t) {
        return JsonSupport.JSON.createValue(t.getEpochSecond());
    }

    public static JsonValue strings(Collection<String> values) {
        JsonArrayBuilder a = JsonSupport.JSON.createArrayBuilder();
        values.forEach(a::add);
        return a.build();
    }

    private static Set<String> names(List<? extends SchemaField<?>> fields) {
        return fields.stream().map(SchemaField::name).collect(Collectors.toUnmodifiableSet());
    }
}
