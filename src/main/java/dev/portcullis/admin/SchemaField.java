package dev.portcullis.admin;

import java.util.function.Function;
import jakarta.json.JsonValue;

/**
 * One field of an administered aggregate {@code A} (a client, an API, a user), as the admin API, its audit trail and
 * the console know it: built with {@link #of} and the {@code with…} steps, listed in an {@link AdminSchema}.
 *
 * @param name           the JSON name in requests and answers
 * @param type           its JSON type, checked when a request is read
 * @param maxItems       for {@link FieldType#STRING_LIST}: how many entries a request may hold
 * @param maxLength      for strings, string entries and objects: how many characters a request may hold
 * @param atRegistration whether a registration (POST) may name it
 * @param required       a registration must name it; a {@link FieldType#STRING} is then refused when blank
 * @param defaultValue   what a registration that does not name it gets (null: the service decides)
 * @param patch          what a merge patch may do to it
 * @param auditLabel     how a change of it is named in the audit trail; null when the service audits it itself
 * @param audited        the value whose change is audited (compared with {@code equals})
 * @param read           its value in the admin JSON; null leaves the member out of the answer
 * @param consoleLabel   the console's message key of its label; null when the console does not show it
 */
public record SchemaField<A>(String name, FieldType type, int maxItems, int maxLength, boolean atRegistration,
                             boolean required, Object defaultValue, PatchRule patch, String auditLabel,
                             Function<A, ?> audited, Function<A, JsonValue> read, String consoleLabel) {

    /** A field the server sets: in the answers only, until a {@code with…} step says more. */
    public static <A> SchemaField<A> of(String name, FieldType type, Function<A, JsonValue> read) {
        return new SchemaField<>(name, type, 0, 0, false, false, null, PatchRule.NONE, null, null, read, null);
    }

    /** Named at registration, within these bounds, with {@code defaultValue} when not named. */
    public SchemaField<A> withRegistration(int maxItems, int maxLength, boolean required, Object defaultValue) {
        return new SchemaField<>(name, type, maxItems, maxLength, true, required, defaultValue, patch, auditLabel,
                audited, read, consoleLabel);
    }

    /** Named in a merge patch under {@code patch}, within the bounds of the registration. */
    public SchemaField<A> withPatch(PatchRule patch, int maxItems, int maxLength) {
        return new SchemaField<>(name, type, maxItems, maxLength, atRegistration, required, defaultValue, patch,
                auditLabel, audited, read, consoleLabel);
    }

    /** A change of {@code audited}'s value is named {@code auditLabel} in the audit trail. */
    public SchemaField<A> withAudit(String auditLabel, Function<A, ?> audited) {
        return new SchemaField<>(name, type, maxItems, maxLength, atRegistration, required, defaultValue, patch,
                auditLabel, audited, read, consoleLabel);
    }

    /** A change of {@code audited}'s value is named by the field's JSON name in the audit trail. */
    public SchemaField<A> withAudit(Function<A, ?> audited) {
        return withAudit(name, audited);
    }

    /** The console shows it under the message {@code consoleLabel}. */
    public SchemaField<A> withConsoleLabel(String consoleLabel) {
        return new SchemaField<>(name, type, maxItems, maxLength, atRegistration, required, defaultValue, patch,
                auditLabel, audited, read, consoleLabel);
    }
}
