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

    public static final String ID = "id";
    public static final String IDENTIFIER = "identifier";
    public static final String NAME = "name";
    public static final String SCOPES = "scopes";
    public static final String SIGNING_ALG = "access_token_signing_alg";
    public static final String TYP = "access_token_typ";
    public static final String BACKEND_CLIENT_ID = "backend_client_id";
    public static final String EXCHANGE_SCOPES = "exchange_scopes";
    public static final String CREATED_AT = "created_at";

    public static final AdminSchema<Api> SCHEMA = new AdminSchema<>(
            SchemaField.<Api>of(ID, STRING, api -> string(api.apiId())),
            SchemaField.<Api>of(IDENTIFIER, STRING, api -> string(api.identifier()))
                    .withRegistration(0, 1000, true, null).withPatch(CHANGE, 0, 1000)
                    .withAudit(IDENTIFIER, Api::identifier),
            SchemaField.<Api>of(NAME, STRING, api -> string(api.name()))
                    .withRegistration(0, 1000, true, null).withPatch(CHANGE, 0, 1000).withAudit(NAME, Api::name),
            SchemaField.<Api>of(SCOPES, STRING_LIST, api -> strings(api.scopes()))
                    .withRegistration(100, 200, true, List.of()).withPatch(CHANGE, 100, 200)
                    .withAudit(SCOPES, api -> String.join(" ", api.scopes())),
            // null in the answer: the global default applies
            SchemaField.<Api>of(SIGNING_ALG, STRING, api -> nullable(api.accessTokenSigningAlg()))
                    .withRegistration(0, 20, false, null).withPatch(CHANGE_OR_REMOVE, 0, 20)
                    .withAudit(SIGNING_ALG, api -> api.accessTokenSigningAlg().orElse(null)),
            SchemaField.<Api>of(TYP, STRING, api -> string(api.accessTokenTyp()))
                    .withRegistration(0, 20, false, null).withPatch(CHANGE, 0, 20)
                    .withAudit(TYP, Api::accessTokenTyp),
            SchemaField.<Api>of(BACKEND_CLIENT_ID, STRING, api -> nullable(api.backendClientId()))
                    .withRegistration(0, 64, false, null).withPatch(CHANGE_OR_REMOVE, 0, 64)
                    .withAudit(BACKEND_CLIENT_ID, api -> api.backendClientId().orElse(null)),
            SchemaField.<Api>of(EXCHANGE_SCOPES, STRING_LIST, api -> strings(api.exchangeScopes()))
                    .withRegistration(100, 200, false, null).withPatch(CHANGE_OR_REMOVE, 100, 200)
                    .withAudit(EXCHANGE_SCOPES, api -> String.join(" ", api.exchangeScopes())),
            SchemaField.<Api>of(CREATED_AT, INTEGER,
                    api -> epoch(api.createdAt())));

    private ApiSchema() {
    }

    /** JSON null when not set (the member is always in the answer). */
    private static JsonValue nullable(Optional<String> s) {
        return s.map(AdminSchema::string).orElse(JsonValue.NULL);
    }
}
