package dev.portcullis.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.portcullis.admin.FieldValues;
import dev.portcullis.admin.PatchRule;
import dev.portcullis.admin.Refusal;
import dev.portcullis.admin.SchemaField;
import jakarta.json.JsonObject;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** What the client schema decides: the members of a registration and a patch, the admin JSON and the audit diff. */
class ClientSchemaTest {

    private static final Instant NOW = Instant.ofEpochSecond(1_800_000_000L);

    private static Client client() {
        return new Client("c1", "App", true, List.of("https://app.example.com/cb"), List.of(), "openid", false, NOW);
    }

    @Test
    void readPatchWhenAFieldThatCannotBeRemovedIsNullThenRefusedNamingIt() {
        for (SchemaField<Client> f : ClientSchema.SCHEMA.fields()) {
            if (f.patch() == PatchRule.CHANGE) {
                Refusal e = assertThrows(Refusal.class,
                        () -> ClientSchema.SCHEMA.readPatch("{\"" + f.name() + "\":null}"), f.name());
                assertEquals(f.name() + ": cannot be removed (null)", e.getMessage());
            }
        }
    }

    @Test
    void readPatchWhenARemovableFieldIsNullThenRemovedAndAbsentFieldsStay() {
        FieldValues v = ClientSchema.SCHEMA.readPatch("{\"post_logout_redirect_uris\":null,\"jwks\":null,"
                + "\"jwks_uri\":null,\"backchannel_logout_uri\":null}");
        assertEquals(List.of(), v.list(ClientSchema.POST_LOGOUT_REDIRECT_URIS));
        assertEquals("", v.string(ClientSchema.JWKS));
        assertEquals("", v.string(ClientSchema.JWKS_URI));
        assertEquals(Optional.empty(), v.removable(ClientSchema.BACKCHANNEL_URI));
        assertNull(v.removable(ClientSchema.FRONTCHANNEL_URI), "absent: left as it is");
        assertNull(v.string(ClientSchema.CLIENT_NAME));
        assertNull(v.bool(ClientSchema.ENABLED));
    }

    @Test
    void readWhenAMemberTheSchemaDoesNotAllowThenRefused() {
        for (String member : List.of("client_id", "created_at", "previous_secret_expires_at", "client_secret", "x")) {
            RuntimeException e = assertThrows(RuntimeException.class,
                    () -> ClientSchema.SCHEMA.readPatch("{\"" + member + "\":\"v\"}"), member);
            assertTrue(e.getMessage().contains(member), e::getMessage);
        }
        assertThrows(RuntimeException.class, () -> ClientSchema.SCHEMA.readRegistration(
                "{\"client_name\":\"A\",\"scopes\":\"openid\",\"enabled\":false}"), "enabled is no registration field");
    }

    @Test
    void readWhenATypeOrBoundIsWrongThenRefusedNamingTheField() {
        for (String body : List.of("{\"skip_consent\":\"yes\"}", "{\"redirect_uris\":\"https://a/cb\"}",
                "{\"jwks\":\"keys\"}", "{\"client_name\":\"" + "n".repeat(1001) + "\"}",
                "{\"grant_types\":[\"a\",\"b\",\"c\",\"d\",\"e\",\"f\",\"g\",\"h\",\"i\",\"j\",\"k\"]}")) {
            String field = body.substring(2, body.indexOf('"', 2));
            RuntimeException e = assertThrows(RuntimeException.class, () -> ClientSchema.SCHEMA.readPatch(body));
            assertTrue(e.getMessage().startsWith(field + ": "), e::getMessage);
        }
    }

    @Test
    void readRegistrationWhenFieldsAreNotNamedThenTheirDefaults() {
        FieldValues v = ClientSchema.SCHEMA.readRegistration("{\"client_name\":\"A\",\"scopes\":\"openid\"}");
        assertEquals(List.of(), v.list(ClientSchema.REDIRECT_URIS));
        assertEquals(List.of(), v.list(ClientSchema.POST_LOGOUT_REDIRECT_URIS));
        for (SchemaField<Client> flag : List.of(ClientSchema.SKIP_CONSENT, ClientSchema.REQUIRE_MFA,
                ClientSchema.REQUIRE_PAR, ClientSchema.ID_TOKEN_CLAIMS)) {
            assertFalse(v.bool(flag), flag.name());
        }
        assertNull(v.bool(ClientSchema.CONFIDENTIAL), "the method decides the type");
        assertNull(v.list(ClientSchema.GRANT_TYPES), "the service's default");
        RuntimeException e = assertThrows(RuntimeException.class,
                () -> ClientSchema.SCHEMA.readRegistration("{\"client_name\":\" \",\"scopes\":\"openid\"}"));
        assertEquals("client_name: is required", e.getMessage());
    }

    @Test
    void writeThenEveryMemberOfTheAdminJsonInItsOrderAndUnsetOnesLeftOut() {
        JsonObject json = ClientSchema.SCHEMA.write(client()).build();
        assertEquals(List.of("client_id", "client_name", "confidential", "redirect_uris", "post_logout_redirect_uris",
                "scopes", "skip_consent", "enabled", "require_mfa", "require_pushed_authorization_requests",
                "require_signed_request_object", "dpop_bound_access_tokens", "id_token_claims", "grant_types", "token_endpoint_auth_method", "created_at",
                "backchannel_logout_session_required", "frontchannel_logout_session_required"),
                List.copyOf(json.keySet()));
        assertEquals(NOW.getEpochSecond(), json.getJsonNumber("created_at").longValue());
        Client keys = client();
        keys.changeAuthentication("private_key_jwt", "{\"keys\":[]}", null, NOW);
        keys.changeLogoutNotifications(LogoutNotifications.NONE.with(new LogoutNotifications.Change(
                Optional.of("https://app.example.com/bc"), null, null, null)), NOW);
        JsonObject withKeys = ClientSchema.SCHEMA.write(keys).build();
        assertEquals(0, withKeys.getJsonObject("jwks").getJsonArray("keys").size());
        assertEquals("https://app.example.com/bc", withKeys.getString("backchannel_logout_uri"));
        assertFalse(withKeys.containsKey("jwks_uri"));
    }

    @Test
    void changesThenEachChangedFieldsAuditLabelOnceInSchemaOrder() {
        Client c = client();
        Map<String, Object> before = ClientSchema.SCHEMA.audited(c);
        assertEquals(List.of(), ClientSchema.SCHEMA.changes(before, c));
        c.requireMfa(true, NOW);
        c.changeLogoutNotifications(LogoutNotifications.NONE.with(new LogoutNotifications.Change(
                Optional.of("https://app.example.com/bc"), false, Optional.of("https://app.example.com/fc"), null)),
                NOW);
        c.changeSettings("App 2", c.redirectUris(), c.postLogoutRedirectUris(), c.scopes(), c.skipConsent(), NOW);
        c.changeEnabled(false, NOW);
        assertEquals(List.of("client_name", "require_mfa", "logout notifications"),
                ClientSchema.SCHEMA.changes(before, c), "enabled is audited by the service with its consequences");
    }
}
