package dev.portcullis.api;

import static dev.portcullis.admin.FieldType.INTEGER;
import static dev.portcullis.admin.FieldType.STRING;
import static dev.portcullis.admin.FieldType.STRING_LIST;
import static dev.portcullis.admin.PatchRule.CHANGE;
import static dev.portcullis.admin.PatchRule.CHANGE_OR_REMOVE;

import static dev.portcullis.admin.AdminSchema.epoch;
import static dev.portcullis.admin.AdminSchema.string;
import static dev.portcullis.admin.AdminSchema.strings;

import dev.portcullis.admin.AdminSchema;
import dev.portcullis.admin.SchemaField;
import jakarta.json.JsonValue;
import java.util.List;
import java.util.Optional;

/**
 * The fields of a registered API as the admin API and its audit trail know them, in the order of the admin JSON.
 * An API field is added here, in {@link Api} (its column) and in {@link ApiService} (its rule, {@link ApiRules}).
 */
public final class ApiSchema {

    public static final SchemaField<Api> ID = SchemaField.of("id", STRING, api -> string(api.apiId()));
    public static final SchemaField<Api> IDENTIFIER = SchemaField.<Api>of("identifier", STRING,
            api -> string(api.identifier())).withRegistration(0, 1000, true, null).withPatch(CHANGE, 0, 1000)
            .withAudit(Api::identifier);
    public static final SchemaField<Api> NAME = SchemaField.<Api>of("name", STRING, api -> string(api.name()))
            .withRegistration(0, 1000, true, null).withPatch(CHANGE, 0, 1000).withAudit(Api::name);
    public static final SchemaField<Api> SCOPES = SchemaField.<Api>of("scopes", STRING_LIST,
            api -> strings(api.scopes())).withRegistration(100, 200, true, List.of()).withPatch(CHANGE, 100, 200)
            .withAudit(api -> String.join(" ", api.scopes()));
    /** JSON null in the answer: the global default applies. */
    public static final SchemaField<Api> SIGNING_ALG = SchemaField.<Api>of("access_token_signing_alg", STRING,
            api -> nullable(api.accessTokenSigningAlg())).withRegistration(0, 20, false, null)
            .withPatch(CHANGE_OR_REMOVE, 0, 20).withAudit(api -> api.accessTokenSigningAlg().orElse(null));
    public static final SchemaField<Api> TYP = SchemaField.<Api>of("access_token_typ", STRING,
            api -> string(api.accessTokenTyp())).withRegistration(0, 20, false, null).withPatch(CHANGE, 0, 20)
            .withAudit(Api::accessTokenTyp);
    public static final SchemaField<Api> BACKEND_CLIENT_ID = SchemaField.<Api>of("backend_client_id", STRING,
            api -> nullable(api.backendClientId())).withRegistration(0, 64, false, null)
            .withPatch(CHANGE_OR_REMOVE, 0, 64).withAudit(api -> api.backendClientId().orElse(null));
    public static final SchemaField<Api> EXCHANGE_SCOPES = SchemaField.<Api>of("exchange_scopes", STRING_LIST,
            api -> strings(api.exchangeScopes())).withRegistration(100, 200, false, null)
            .withPatch(CHANGE_OR_REMOVE, 100, 200).withAudit(api -> String.join(" ", api.exchangeScopes()));
    public static final SchemaField<Api> CREATED_AT = SchemaField.of("created_at", INTEGER,
            api -> epoch(api.createdAt()));

    /** Every field, in the order of the admin JSON. */
    public static final AdminSchema<Api> SCHEMA = new AdminSchema<>(ID, IDENTIFIER, NAME, SCOPES, SIGNING_ALG, TYP,
            BACKEND_CLIENT_ID, EXCHANGE_SCOPES, CREATED_AT);

    private ApiSchema() {
    }

    /** JSON null when not set (the member is always in the answer). */
    private static JsonValue nullable(Optional<String> s) {
        return s.map(AdminSchema::string).orElse(JsonValue.NULL);
    }
}
