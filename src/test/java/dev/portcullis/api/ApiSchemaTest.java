package dev.portcullis.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.portcullis.admin.FieldValues;
import dev.portcullis.admin.Refusal;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** What the API schema decides: the members of a registration and a patch, the admin JSON and the audit diff. */
class ApiSchemaTest {

    private static final Instant NOW = Instant.ofEpochSecond(1_800_000_000L);

    private static Api api() {
        return new Api("a1", "https://api.example.com", "Orders", Set.of("orders:read"), null, NOW);
    }

    @Test
    void readPatchWhenAFieldThatCannotBeRemovedIsNullThenRefusedAndRemovableOnesAreRemoved() {
        for (String field : List.of("identifier", "name", "scopes", "access_token_typ")) {
            Refusal e = assertThrows(Refusal.class, () -> ApiSchema.SCHEMA.readPatch("{\"" + field + "\":null}"));
            assertEquals(field + ": cannot be removed (null)", e.getMessage());
        }
        FieldValues v = ApiSchema.SCHEMA.readPatch(
                "{\"access_token_signing_alg\":null,\"backend_client_id\":null,\"exchange_scopes\":null}");
        assertTrue(v.removed(ApiSchema.SIGNING_ALG));
        assertTrue(v.removed(ApiSchema.BACKEND_CLIENT_ID));
        assertEquals(List.of(), v.list(ApiSchema.EXCHANGE_SCOPES));
        assertNull(v.string(ApiSchema.NAME), "absent: left as it is");
        assertThrows(RuntimeException.class, () -> ApiSchema.SCHEMA.readPatch("{\"id\":\"x\"}"));
    }

    @Test
    void readRegistrationWhenOptionalFieldsAreNotNamedThenTheirDefaults() {
        FieldValues v = ApiSchema.SCHEMA.readRegistration("{\"identifier\":\"https://a\",\"name\":\"A\"}");
        assertEquals(List.of(), v.list(ApiSchema.SCOPES));
        assertNull(v.list(ApiSchema.EXCHANGE_SCOPES));
        assertNull(v.string(ApiSchema.SIGNING_ALG));
        RuntimeException e = assertThrows(RuntimeException.class,
                () -> ApiSchema.SCHEMA.readRegistration("{\"name\":\"A\"}"));
        assertEquals("identifier: is required", e.getMessage());
    }

    @Test
    void writeThenUnsetOptionalMembersAreJsonNull() {
        JsonObject json = ApiSchema.SCHEMA.write(api()).build();
        assertEquals(List.of("id", "identifier", "name", "scopes", "access_token_signing_alg", "access_token_typ",
                "backend_client_id", "exchange_scopes", "created_at"), List.copyOf(json.keySet()));
        assertEquals(JsonValue.NULL, json.get("access_token_signing_alg"));
        assertEquals(JsonValue.NULL, json.get("backend_client_id"));
        assertEquals(NOW.getEpochSecond(), json.getJsonNumber("created_at").longValue());
    }

    @Test
    void changesThenTheChangedFieldsInSchemaOrder() {
        Api api = api();
        Map<String, Object> before = ApiSchema.SCHEMA.audited(api);
        api.changeBackendClient("backend", NOW);
        api.change(api.identifier(), "Orders 2", api.scopes(), "ES256", NOW);
        assertEquals(List.of("name", "access_token_signing_alg", "backend_client_id"),
                ApiSchema.SCHEMA.changes(before, api));
        assertFalse(ApiSchema.SCHEMA.changes(ApiSchema.SCHEMA.audited(api), api).iterator().hasNext());
    }
}
