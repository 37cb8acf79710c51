package dev.portcullis.client;

import static dev.portcullis.admin.FieldType.BOOLEAN;
import static dev.portcullis.admin.FieldType.INTEGER;
import static dev.portcullis.admin.FieldType.OBJECT;
import static dev.portcullis.admin.FieldType.STRING;
import static dev.portcullis.admin.FieldType.STRING_LIST;
import static dev.portcullis.admin.PatchRule.CHANGE;
import static dev.portcullis.admin.PatchRule.CHANGE_OR_REMOVE;

import static dev.portcullis.admin.AdminSchema.bool;
import static dev.portcullis.admin.AdminSchema.epoch;
import static dev.portcullis.admin.AdminSchema.optional;
import static dev.portcullis.admin.AdminSchema.string;
import static dev.portcullis.admin.AdminSchema.strings;

import dev.portcullis.admin.AdminSchema;
import dev.portcullis.admin.SchemaField;
import dev.portcullis.protocol.JsonSupport;
import java.io.StringReader;
import java.util.List;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * The client metadata the admin API and the console administer, one entry a field, in the order of the admin JSON.
 * A client field is added here (its JSON name, type, bounds, default, merge-patch rule, audit label and value),
 * in {@link Client} (its column), and in {@link ClientService} (its rule and where it is stored).
 */
public final class ClientSchema {

    public static final String CLIENT_ID = "client_id";
    public static final String CLIENT_NAME = "client_name";
    public static final String CONFIDENTIAL = "confidential";
    public static final String REDIRECT_URIS = "redirect_uris";
    public static final String POST_LOGOUT_REDIRECT_URIS = "post_logout_redirect_uris";
    public static final String SCOPES = "scopes";
    public static final String SKIP_CONSENT = "skip_consent";
    public static final String ENABLED = "enabled";
    public static final String REQUIRE_MFA = "require_mfa";
    /** RFC 9126 6. */
    public static final String REQUIRE_PAR = "require_pushed_authorization_requests";
    public static final String ID_TOKEN_CLAIMS = "id_token_claims";
    public static final String GRANT_TYPES = "grant_types";
    public static final String AUTH_METHOD = "token_endpoint_auth_method";
    public static final String CREATED_AT = "created_at";
    public static final String JWKS = "jwks";
    public static final String JWKS_URI = "jwks_uri";
    public static final String PREVIOUS_SECRET_EXPIRES_AT = "previous_secret_expires_at";
    /** The client metadata of Back-Channel and Front-Channel Logout 1.0, by their registration names. */
    public static final String BACKCHANNEL_URI = "backchannel_logout_uri";
    public static final String BACKCHANNEL_SESSION = "backchannel_logout_session_required";
    public static final String FRONTCHANNEL_URI = "frontchannel_logout_uri";
    public static final String FRONTCHANNEL_SESSION = "frontchannel_logout_session_required";

    /** How the audit trail names a change of any of the four logout notification fields. */
    private static final String LOGOUT_NOTIFICATIONS = "logout notifications";
    private static final int MAX_URIS = 100;
    private static final int MAX_URI = 4000;

    public static final AdminSchema<Client> SCHEMA = new AdminSchema<>(
            SchemaField.<Client>of(CLIENT_ID, STRING, c -> string(c.clientId())),
            SchemaField.<Client>of(CLIENT_NAME, STRING, c -> string(c.name()))
                    .withRegistration(0, 1000, true, null).withPatch(CHANGE, 0, 1000)
                    .withAudit(CLIENT_NAME, Client::name).withConsoleLabel("console.clients.name"),
            // a type change has consequences (a secret, revoked tokens) that ClientService audits itself
            SchemaField.<Client>of(CONFIDENTIAL, BOOLEAN, c -> bool(c.confidential()))
                    .withRegistration(0, 0, false, null).withPatch(CHANGE, 0, 0),
            SchemaField.<Client>of(REDIRECT_URIS, STRING_LIST, c -> strings(c.redirectUris()))
                    .withRegistration(MAX_URIS, MAX_URI, true, List.of()).withPatch(CHANGE, MAX_URIS, MAX_URI)
                    .withAudit(REDIRECT_URIS, c -> List.copyOf(c.redirectUris()))
                    .withConsoleLabel("console.clients.redirectUris"),
            SchemaField.<Client>of(POST_LOGOUT_REDIRECT_URIS, STRING_LIST, c -> strings(c.postLogoutRedirectUris()))
                    .withRegistration(MAX_URIS, MAX_URI, false, List.of())
                    .withPatch(CHANGE_OR_REMOVE, MAX_URIS, MAX_URI)
                    .withAudit(POST_LOGOUT_REDIRECT_URIS, c -> List.copyOf(c.postLogoutRedirectUris())),
            SchemaField.<Client>of(SCOPES, STRING, c -> string(c.scopes()))
                    .withRegistration(0, 1000, true, null).withPatch(CHANGE, 0, 1000)
                    .withAudit(SCOPES, Client::scopes).withConsoleLabel("console.clients.scopes"),
            flag(SKIP_CONSENT, Client::skipConsent),
            // disabling revokes tokens, audited by ClientService with its consequences
            SchemaField.<Client>of(ENABLED, BOOLEAN, c -> bool(c.enabled())).withPatch(CHANGE, 0, 0),
            flag(REQUIRE_MFA, Client::requireMfa),
            flag(REQUIRE_PAR, Client::requirePushedAuthorizationRequests),
            flag(ID_TOKEN_CLAIMS, Client::idTokenClaims),
            SchemaField.<Client>of(GRANT_TYPES, STRING_LIST, c -> strings(c.grantTypes()))
                    .withRegistration(10, 100, false, null).withPatch(CHANGE, 10, 100)
                    .withAudit(GRANT_TYPES, c -> GrantTypes.format(c.grantTypes())),
            SchemaField.<Client>of(AUTH_METHOD, STRING, c -> string(c.authMethod()))
                    .withRegistration(0, 100, false, null).withPatch(CHANGE, 0, 100)
                    .withAudit(AUTH_METHOD, c -> c.authMethodChosen() ? c.authMethod() : null),
            SchemaField.<Client>of(CREATED_AT, INTEGER, c -> epoch(c.createdAt())),
            SchemaField.<Client>of(JWKS, OBJECT, c -> c.jwks() == null ? null
                            : JsonSupport.JSON.createReader(new StringReader(c.jwks())).readObject())
                    .withRegistration(0, ClientJwksRules.MAX_JWKS_CHARS, false, null)
                    .withPatch(CHANGE_OR_REMOVE, 0, ClientJwksRules.MAX_JWKS_CHARS)
                    .withAudit(JWKS, Client::jwks),
            SchemaField.<Client>of(JWKS_URI, STRING, c -> optional(c.jwksUri()))
                    .withRegistration(0, MAX_URI, false, null).withPatch(CHANGE_OR_REMOVE, 0, MAX_URI)
                    .withAudit(JWKS_URI, Client::jwksUri),
            SchemaField.<Client>of(PREVIOUS_SECRET_EXPIRES_AT, INTEGER,
                    c -> c.previousSecretExpiresAt().map(AdminSchema::epoch).orElse(null)),
            logoutUri(BACKCHANNEL_URI, LogoutNotifications::backchannelUri),
            logoutSession(BACKCHANNEL_SESSION, LogoutNotifications::backchannelSessionRequired),
            logoutUri(FRONTCHANNEL_URI, LogoutNotifications::frontchannelUri),
            logoutSession(FRONTCHANNEL_SESSION, LogoutNotifications::frontchannelSessionRequired));

    private ClientSchema() {
    }

    /** A setting that is true or false: false unless registered, changed by a patch, audited by its name. */
    private static SchemaField<Client> flag(String name, Predicate<Client> value) {
        return SchemaField.<Client>of(name, BOOLEAN, c -> bool(value.test(c)))
                .withRegistration(0, 0, false, false).withPatch(CHANGE, 0, 0).withAudit(name, value::test);
    }

    /** A logout notification URI: absent unless registered, removed by null, audited with the other three. */
    private static SchemaField<Client> logoutUri(String name, Function<LogoutNotifications, String> uri) {
        return SchemaField.<Client>of(name, STRING, c -> optional(uri.apply(c.logoutNotifications())))
                .withRegistration(0, RedirectUriPolicy.MAX_LENGTH, false, null)
                .withPatch(CHANGE_OR_REMOVE, 0, RedirectUriPolicy.MAX_LENGTH)
                .withAudit(LOGOUT_NOTIFICATIONS, c -> uri.apply(c.logoutNotifications()));
    }

    /** A logout notification's session_required flag (true unless registered false). */
    private static SchemaField<Client> logoutSession(String name, Predicate<LogoutNotifications> required) {
        return SchemaField.<Client>of(name, BOOLEAN, c -> bool(required.test(c.logoutNotifications())))
                .withRegistration(0, 0, false, null).withPatch(CHANGE, 0, 0)
                .withAudit(LOGOUT_NOTIFICATIONS, c -> required.test(c.logoutNotifications()));
    }
}
