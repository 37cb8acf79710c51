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

    /** How the audit trail names a change of any of the four logout notification fields. */
    private static final String LOGOUT_NOTIFICATIONS = "logout notifications";
    private static final int MAX_URIS = 100;
    private static final int MAX_URI = 4000;

    public static final SchemaField<Client> CLIENT_ID = SchemaField.of("client_id", STRING,
            c -> string(c.clientId()));
    public static final SchemaField<Client> CLIENT_NAME = SchemaField.<Client>of("client_name", STRING,
                    c -> string(c.name()))
            .withRegistration(0, 1000, true, null).withPatch(CHANGE, 0, 1000)
            .withAudit(Client::name).withConsoleLabel("console.clients.name");
    /** A type change has consequences (a secret, revoked tokens) that ClientService audits itself. */
    public static final SchemaField<Client> CONFIDENTIAL = SchemaField.<Client>of("confidential", BOOLEAN,
                    c -> bool(c.confidential()))
            .withRegistration(0, 0, false, null).withPatch(CHANGE, 0, 0);
    public static final SchemaField<Client> REDIRECT_URIS = SchemaField.<Client>of("redirect_uris", STRING_LIST,
                    c -> strings(c.redirectUris()))
            .withRegistration(MAX_URIS, MAX_URI, true, List.of()).withPatch(CHANGE, MAX_URIS, MAX_URI)
            .withAudit(c -> List.copyOf(c.redirectUris())).withConsoleLabel("console.clients.redirectUris");
    public static final SchemaField<Client> POST_LOGOUT_REDIRECT_URIS = SchemaField.<Client>of(
                    "post_logout_redirect_uris", STRING_LIST, c -> strings(c.postLogoutRedirectUris()))
            .withRegistration(MAX_URIS, MAX_URI, false, List.of()).withPatch(CHANGE_OR_REMOVE, MAX_URIS, MAX_URI)
            .withAudit(c -> List.copyOf(c.postLogoutRedirectUris()));
    public static final SchemaField<Client> SCOPES = SchemaField.<Client>of("scopes", STRING,
                    c -> string(c.scopes()))
            .withRegistration(0, 1000, true, null).withPatch(CHANGE, 0, 1000)
            .withAudit(Client::scopes).withConsoleLabel("console.clients.scopes");
    public static final SchemaField<Client> SKIP_CONSENT = flag("skip_consent", Client::skipConsent);
    /** Disabling revokes tokens, audited by ClientService with its consequences. */
    public static final SchemaField<Client> ENABLED = SchemaField.<Client>of("enabled", BOOLEAN,
            c -> bool(c.enabled())).withPatch(CHANGE, 0, 0);
    public static final SchemaField<Client> REQUIRE_MFA = flag("require_mfa", Client::requireMfa);
    /** RFC 9126 6. */
    public static final SchemaField<Client> REQUIRE_PAR = flag("require_pushed_authorization_requests",
            Client::requirePushedAuthorizationRequests);
    /** RFC 9101 10.5. */
    public static final SchemaField<Client> REQUIRE_JAR = flag("require_signed_request_object",
            Client::requireSignedRequestObject);
    /** RFC 9449 5.2. */
    public static final SchemaField<Client> DPOP_BOUND = flag("dpop_bound_access_tokens",
            Client::dpopBoundAccessTokens);
    public static final SchemaField<Client> ID_TOKEN_CLAIMS = flag("id_token_claims", Client::idTokenClaims);
    public static final SchemaField<Client> GRANT_TYPES = SchemaField.<Client>of("grant_types", STRING_LIST,
                    c -> strings(c.grantTypes()))
            .withRegistration(10, 100, false, null).withPatch(CHANGE, 10, 100)
            .withAudit(c -> GrantTypes.format(c.grantTypes()));
    public static final SchemaField<Client> AUTH_METHOD = SchemaField.<Client>of("token_endpoint_auth_method",
                    STRING, c -> string(c.authMethod()))
            .withRegistration(0, 100, false, null).withPatch(CHANGE, 0, 100)
            .withAudit(c -> c.authMethodChosen() ? c.authMethod() : null);
    public static final SchemaField<Client> CREATED_AT = SchemaField.of("created_at", INTEGER,
            c -> epoch(c.createdAt()));
    public static final SchemaField<Client> JWKS = SchemaField.<Client>of("jwks", OBJECT, c -> c.jwks() == null
                    ? null : JsonSupport.JSON.createReader(new StringReader(c.jwks())).readObject())
            .withRegistration(0, ClientJwksRules.MAX_JWKS_CHARS, false, null)
            .withPatch(CHANGE_OR_REMOVE, 0, ClientJwksRules.MAX_JWKS_CHARS).withAudit(Client::jwks);
    public static final SchemaField<Client> JWKS_URI = SchemaField.<Client>of("jwks_uri", STRING,
                    c -> optional(c.jwksUri()))
            .withRegistration(0, MAX_URI, false, null).withPatch(CHANGE_OR_REMOVE, 0, MAX_URI)
            .withAudit(Client::jwksUri);
    public static final SchemaField<Client> PREVIOUS_SECRET_EXPIRES_AT = SchemaField.of(
            "previous_secret_expires_at", INTEGER, c -> c.previousSecretExpiresAt().map(AdminSchema::epoch)
                    .orElse(null));
    /** The client metadata of Back-Channel and Front-Channel Logout 1.0, by their registration names. */
    public static final SchemaField<Client> BACKCHANNEL_URI = logoutUri("backchannel_logout_uri",
            LogoutNotifications::backchannelUri);
    public static final SchemaField<Client> BACKCHANNEL_SESSION = logoutSession(
            "backchannel_logout_session_required", LogoutNotifications::backchannelSessionRequired);
    public static final SchemaField<Client> FRONTCHANNEL_URI = logoutUri("frontchannel_logout_uri",
            LogoutNotifications::frontchannelUri);
    public static final SchemaField<Client> FRONTCHANNEL_SESSION = logoutSession(
            "frontchannel_logout_session_required", LogoutNotifications::frontchannelSessionRequired);

    /** Every field, in the order of the admin JSON. */
    public static final AdminSchema<Client> SCHEMA = new AdminSchema<>(CLIENT_ID, CLIENT_NAME, CONFIDENTIAL,
            REDIRECT_URIS, POST_LOGOUT_REDIRECT_URIS, SCOPES, SKIP_CONSENT, ENABLED, REQUIRE_MFA, REQUIRE_PAR,
            REQUIRE_JAR, DPOP_BOUND, ID_TOKEN_CLAIMS, GRANT_TYPES, AUTH_METHOD, CREATED_AT, JWKS, JWKS_URI,
            PREVIOUS_SECRET_EXPIRES_AT, BACKCHANNEL_URI, BACKCHANNEL_SESSION, FRONTCHANNEL_URI, FRONTCHANNEL_SESSION);

    private ClientSchema() {
    }

    /** A setting that is true or false: false unless registered, changed by a patch, audited by its name. */
    private static SchemaField<Client> flag(String name, Predicate<Client> value) {
        return SchemaField.<Client>of(name, BOOLEAN, c -> bool(value.test(c)))
                .withRegistration(0, 0, false, false).withPatch(CHANGE, 0, 0).withAudit(value::test);
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
