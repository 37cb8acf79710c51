package dev.portcullis.app;

import dev.portcullis.account.UserAdminResource;
import dev.portcullis.admin.AdminAuthenticationFilter;
import dev.portcullis.access.SessionAdminResource;
import dev.portcullis.access.UserGrantAdminResource;
import dev.portcullis.api.ApiAdminResource;
import dev.portcullis.app.WebProviders;
import dev.portcullis.audit.AuditAdminResource;
import dev.portcullis.client.ClientAdminResource;
import dev.portcullis.jose.SigningKeyAdminResource;
import dev.portcullis.mfa.FactorAdminResource;
import dev.portcullis.tokenuse.DelegationFilter;
import dev.portcullis.retention.PurgeAdminResource;
import dev.portcullis.declarative.ConfigurationAdminResource;
import jakarta.ws.rs.ApplicationPath;
import jakarta.ws.rs.core.Application;
import java.util.Map;
import java.util.Set;
import org.eclipse.microprofile.openapi.annotations.Components;
import org.eclipse.microprofile.openapi.annotations.OpenAPIDefinition;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.enums.SecuritySchemeType;
import org.eclipse.microprofile.openapi.annotations.info.Info;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.media.SchemaProperty;
import org.eclipse.microprofile.openapi.annotations.security.SecurityScheme;

/**
 * The operator's admin API under {@code /admin}, guarded by {@link AdminAuthenticationFilter}. No admin endpoint is
 * delegable: {@link DelegationFilter} runs first and refuses a user's access token with 403.
 */
@ApplicationPath("admin")
@OpenAPIDefinition(info = @Info(title = "Portcullis admin API", version = "1",
        description = "Manage client applications, users, their sessions and grants, and signing keys; read the "
                + "audit trail; purge expired rows. Every call needs Authorization: Bearer <admin token>. Changes "
                + "take JSON merge patches (application/merge-patch+json, RFC 7396)."),
        components = @Components(schemas = {
        @Schema(name = "Error", type = SchemaType.OBJECT, description = "The error shape of every admin answer",
                requiredProperties = {"error", "error_description"}, properties = {
            @SchemaProperty(name = "error", type = SchemaType.STRING,
                    description = "invalid_request, not_found, conflict, invalid_token"),
            @SchemaProperty(name = "error_description", type = SchemaType.STRING)}),
        @Schema(name = "User", type = SchemaType.OBJECT, description = "A user (never a password or its hash)",
                properties = {
            @SchemaProperty(name = "user_id", type = SchemaType.STRING, description = "the OIDC sub"),
            @SchemaProperty(name = "username", type = SchemaType.STRING),
            @SchemaProperty(name = "email", type = SchemaType.STRING),
            @SchemaProperty(name = "name", type = SchemaType.STRING),
            @SchemaProperty(name = "enabled", type = SchemaType.BOOLEAN),
            @SchemaProperty(name = "roles", type = SchemaType.ARRAY, description = "e.g. admin",
                    implementation = String.class),
            @SchemaProperty(name = "groups", type = SchemaType.ARRAY, implementation = String.class,
                    description = "a local user's group names, sorted (absent for directory users)"),
            @SchemaProperty(name = "given_name", type = SchemaType.STRING, description = "at most 200 characters"),
            @SchemaProperty(name = "family_name", type = SchemaType.STRING, description = "at most 200 characters"),
            @SchemaProperty(name = "middle_name", type = SchemaType.STRING, description = "at most 200 characters"),
            @SchemaProperty(name = "nickname", type = SchemaType.STRING, description = "at most 200 characters"),
            @SchemaProperty(name = "picture", type = SchemaType.STRING, description = "an http(s) URL"),
            @SchemaProperty(name = "website", type = SchemaType.STRING, description = "an http(s) URL"),
            @SchemaProperty(name = "gender", type = SchemaType.STRING, description = "e.g. female, male"),
            @SchemaProperty(name = "birthdate", type = SchemaType.STRING, description = "YYYY or YYYY-MM-DD"),
            @SchemaProperty(name = "zoneinfo", type = SchemaType.STRING, description = "an IANA zone, Europe/Paris"),
            @SchemaProperty(name = "locale", type = SchemaType.STRING, description = "a BCP 47 tag, en-US"),
            @SchemaProperty(name = "phone_number", type = SchemaType.STRING,
                    description = "E.164, +14155550100 (;ext=123 allowed)"),
            @SchemaProperty(name = "phone_number_verified", type = SchemaType.BOOLEAN, description = "default false"),
            @SchemaProperty(name = "address", ref = "Address"),
            @SchemaProperty(name = "updated_at", type = SchemaType.INTEGER,
                    description = "epoch seconds: when a released claim last changed"),
            @SchemaProperty(name = "created_at", type = SchemaType.INTEGER, description = "epoch seconds")}),
        @Schema(name = "Address", type = SchemaType.OBJECT,
                description = "The address claim (OIDC Core 5.1.1); a patch merges it member by member",
                properties = {
            @SchemaProperty(name = "formatted", type = SchemaType.STRING, description = "at most 500, lines allowed"),
            @SchemaProperty(name = "street_address", type = SchemaType.STRING,
                    description = "at most 500, lines allowed"),
            @SchemaProperty(name = "locality", type = SchemaType.STRING, description = "at most 200 characters"),
            @SchemaProperty(name = "region", type = SchemaType.STRING, description = "at most 200 characters"),
            @SchemaProperty(name = "postal_code", type = SchemaType.STRING, description = "at most 40 characters"),
            @SchemaProperty(name = "country", type = SchemaType.STRING, description = "at most 100 characters")}),
        @Schema(name = "NewUser", type = SchemaType.OBJECT, description = "A user to create",
                requiredProperties = {"username", "password"}, properties = {
            @SchemaProperty(name = "username", type = SchemaType.STRING,
                    description = "1-100 of letters, digits and . _ @ + -"),
            @SchemaProperty(name = "password", type = SchemaType.STRING, description = "8-1024 characters"),
            @SchemaProperty(name = "email", type = SchemaType.STRING),
            @SchemaProperty(name = "name", type = SchemaType.STRING, description = "at most 200 characters"),
            @SchemaProperty(name = "groups", type = SchemaType.ARRAY, implementation = String.class,
                    description = "at most 100 names of 1-256 characters; duplicates collapse"),
            @SchemaProperty(name = "given_name", type = SchemaType.STRING, description = "at most 200 characters"),
            @SchemaProperty(name = "family_name", type = SchemaType.STRING, description = "at most 200 characters"),
            @SchemaProperty(name = "middle_name", type = SchemaType.STRING, description = "at most 200 characters"),
            @SchemaProperty(name = "nickname", type = SchemaType.STRING, description = "at most 200 characters"),
            @SchemaProperty(name = "picture", type = SchemaType.STRING, description = "an http(s) URL"),
            @SchemaProperty(name = "website", type = SchemaType.STRING, description = "an http(s) URL"),
            @SchemaProperty(name = "gender", type = SchemaType.STRING, description = "e.g. female, male"),
            @SchemaProperty(name = "birthdate", type = SchemaType.STRING, description = "YYYY or YYYY-MM-DD"),
            @SchemaProperty(name = "zoneinfo", type = SchemaType.STRING, description = "an IANA zone, Europe/Paris"),
            @SchemaProperty(name = "locale", type = SchemaType.STRING, description = "a BCP 47 tag, en-US"),
            @SchemaProperty(name = "phone_number", type = SchemaType.STRING,
                    description = "E.164, +14155550100 (;ext=123 allowed)"),
            @SchemaProperty(name = "phone_number_verified", type = SchemaType.BOOLEAN, description = "default false"),
            @SchemaProperty(name = "address", ref = "Address")}),
        @Schema(name = "UserPatch", type = SchemaType.OBJECT,
                description = "JSON merge patch of a user (RFC 7396); absent fields stay", properties = {
            @SchemaProperty(name = "email", type = SchemaType.STRING, nullable = true, description = "null removes it"),
            @SchemaProperty(name = "name", type = SchemaType.STRING, nullable = true, description = "null removes it"),
            @SchemaProperty(name = "enabled", type = SchemaType.BOOLEAN,
                    description = "false ends sessions and revokes tokens"),
            @SchemaProperty(name = "roles", type = SchemaType.ARRAY,
                    description = "replaces the set; null: none; known: admin", nullable = true,
                            implementation = String.class),
            @SchemaProperty(name = "groups", type = SchemaType.ARRAY, nullable = true, implementation = String.class,
                    description = "replaces the set; null: none; refused for a directory user"),
            @SchemaProperty(name = "given_name", type = SchemaType.STRING, nullable = true,
                    description = "null removes it; at most 200 characters"),
            @SchemaProperty(name = "family_name", type = SchemaType.STRING, nullable = true,
                    description = "null removes it; at most 200 characters"),
            @SchemaProperty(name = "middle_name", type = SchemaType.STRING, nullable = true,
                    description = "null removes it; at most 200 characters"),
            @SchemaProperty(name = "nickname", type = SchemaType.STRING, nullable = true,
                    description = "null removes it; at most 200 characters"),
            @SchemaProperty(name = "picture", type = SchemaType.STRING, nullable = true,
                    description = "null removes it; an http(s) URL"),
            @SchemaProperty(name = "website", type = SchemaType.STRING, nullable = true,
                    description = "null removes it; an http(s) URL"),
            @SchemaProperty(name = "gender", type = SchemaType.STRING, nullable = true,
                    description = "null removes it; e.g. female, male"),
            @SchemaProperty(name = "birthdate", type = SchemaType.STRING, nullable = true,
                    description = "null removes it; YYYY or YYYY-MM-DD"),
            @SchemaProperty(name = "zoneinfo", type = SchemaType.STRING, nullable = true,
                    description = "null removes it; an IANA zone, Europe/Paris"),
            @SchemaProperty(name = "locale", type = SchemaType.STRING, nullable = true,
                    description = "null removes it; a BCP 47 tag, en-US"),
            @SchemaProperty(name = "phone_number", type = SchemaType.STRING,
                    nullable = true, description = "null removes it; E.164, +14155550100 (;ext=123 allowed)"),
            @SchemaProperty(name = "phone_number_verified", type = SchemaType.BOOLEAN, description = "default false"),
            @SchemaProperty(name = "address", ref = "Address", nullable = true,
                    description = "merged member by member; null removes it")}),
        @Schema(name = "UserPage", type = SchemaType.OBJECT, description = "A page of users", properties = {
            @SchemaProperty(name = "users", type = SchemaType.ARRAY,
                    description = "in username order; items: User objects"),
            @SchemaProperty(name = "next_after", type = SchemaType.STRING, description = "present on a full page")}),
        @Schema(name = "Password", type = SchemaType.OBJECT, description = "A new password",
                requiredProperties = {"password"}, properties = {
            @SchemaProperty(name = "password", type = SchemaType.STRING, description = "8-1024 characters")}),
        @Schema(name = "Client", type = SchemaType.OBJECT,
                description = "A client application (the secret only when just issued)", properties = {
            @SchemaProperty(name = "client_id", type = SchemaType.STRING),
            @SchemaProperty(name = "client_name", type = SchemaType.STRING),
            @SchemaProperty(name = "confidential", type = SchemaType.BOOLEAN),
            @SchemaProperty(name = "redirect_uris", type = SchemaType.ARRAY, description = "exact URIs",
                    implementation = String.class),
            @SchemaProperty(name = "post_logout_redirect_uris", type = SchemaType.ARRAY, description = "exact URIs",
                    implementation = String.class),
            @SchemaProperty(name = "scopes", type = SchemaType.STRING, description = "space-separated"),
            @SchemaProperty(name = "skip_consent", type = SchemaType.BOOLEAN),
            @SchemaProperty(name = "require_mfa", type = SchemaType.BOOLEAN,
                    description = "a second factor at every sign-in to this client"),
            @SchemaProperty(name = "require_pushed_authorization_requests", type = SchemaType.BOOLEAN,
                    description = "RFC 9126: authorization requests only through /oauth/par"),
            @SchemaProperty(name = "require_signed_request_object", type = SchemaType.BOOLEAN,
                    description = "RFC 9101: authorization requests only as signed request objects"),
            @SchemaProperty(name = "dpop_bound_access_tokens", type = SchemaType.BOOLEAN,
                    description = "RFC 9449: every token request carries a DPoP proof; tokens are DPoP-bound"),
            @SchemaProperty(name = "id_token_claims", type = SchemaType.BOOLEAN, description = "ID tokens carry the "
                    + "granted scopes' claims too (for relying parties that read only the ID token)"),
            @SchemaProperty(name = "grant_types", type = SchemaType.ARRAY, description =
                    "authorization_code, refresh_token, client_credentials, "
                    + "urn:ietf:params:oauth:grant-type:token-exchange",
                    implementation = String.class),
            @SchemaProperty(name = "token_endpoint_auth_method", type = SchemaType.STRING, description =
                    "client_secret_basic, client_secret_post, private_key_jwt or none"),
            @SchemaProperty(name = "jwks", type = SchemaType.OBJECT,
                    description = "private_key_jwt: inline JWK set of public RSA or P-256 keys"),
            @SchemaProperty(name = "jwks_uri", type = SchemaType.STRING,
                    description = "private_key_jwt: https URL of the JWK set"),
            @SchemaProperty(name = "previous_secret_expires_at", type = SchemaType.INTEGER,
                    description = "epoch seconds until which a rotated-out secret still works"),
            @SchemaProperty(name = "backchannel_logout_uri", type = SchemaType.STRING,
                    description = "absent when not registered"),
            @SchemaProperty(name = "backchannel_logout_session_required", type = SchemaType.BOOLEAN,
                    description = "default true"),
            @SchemaProperty(name = "frontchannel_logout_uri", type = SchemaType.STRING,
                    description = "absent when not registered"),
            @SchemaProperty(name = "frontchannel_logout_session_required", type = SchemaType.BOOLEAN,
                    description = "default true"),
            @SchemaProperty(name = "enabled", type = SchemaType.BOOLEAN),
            @SchemaProperty(name = "created_at", type = SchemaType.INTEGER, description = "epoch seconds"),
            @SchemaProperty(name = "client_secret", type = SchemaType.STRING,
                    description = "only at registration or when made confidential, once")}),
        @Schema(name = "NewClient", type = SchemaType.OBJECT, description = "A client application to register",
                requiredProperties = {"client_name", "redirect_uris", "scopes"}, properties = {
            @SchemaProperty(name = "client_name", type = SchemaType.STRING, description = "1-200 characters"),
            @SchemaProperty(name = "redirect_uris", type = SchemaType.ARRAY, description = "1-20 absolute URIs",
                    implementation = String.class),
            @SchemaProperty(name = "post_logout_redirect_uris", type = SchemaType.ARRAY, description = "optional",
                    implementation = String.class),
            @SchemaProperty(name = "confidential", type = SchemaType.BOOLEAN, description = "default true"),
            @SchemaProperty(name = "scopes", type = SchemaType.STRING,
                    description = "from openid profile email read_user api"),
            @SchemaProperty(name = "skip_consent", type = SchemaType.BOOLEAN, description = "default false"),
            @SchemaProperty(name = "require_mfa", type = SchemaType.BOOLEAN,
                    description = "default false; true: a second factor at every sign-in to this client"),
            @SchemaProperty(name = "require_pushed_authorization_requests", type = SchemaType.BOOLEAN,
                    description = "default false; RFC 9126: authorization requests only through /oauth/par"),
            @SchemaProperty(name = "require_signed_request_object", type = SchemaType.BOOLEAN,
                    description = "default false; RFC 9101: authorization requests only as signed request objects"),
            @SchemaProperty(name = "dpop_bound_access_tokens", type = SchemaType.BOOLEAN,
                    description = "default false; RFC 9449: every token request carries a DPoP proof; tokens are DPoP-bound"),
            @SchemaProperty(name = "id_token_claims", type = SchemaType.BOOLEAN, description = "default false: the "
                    + "scopes' claims at userinfo only; true: in the ID token too"),
            @SchemaProperty(name = "backchannel_logout_uri", type = SchemaType.STRING,
                    description = "optional; https, or http on a loopback host; its host must not be or resolve to an "
                            + "address outside portcullis.outbound.allowed-networks (by default: loopback, "
                            + "link-local, unspecified, multicast)"),
            @SchemaProperty(name = "backchannel_logout_session_required", type = SchemaType.BOOLEAN,
                    description = "default true"),
            @SchemaProperty(name = "frontchannel_logout_uri", type = SchemaType.STRING,
                    description = "optional; https, or http on a loopback host; its host must not be or resolve to an "
                            + "address outside portcullis.outbound.allowed-networks (by default: loopback, "
                            + "link-local, unspecified, multicast)"),
            @SchemaProperty(name = "frontchannel_logout_session_required", type = SchemaType.BOOLEAN,
                    description = "default true"),
            @SchemaProperty(name = "grant_types", type = SchemaType.ARRAY, description = "default "
                    + "authorization_code, refresh_token; client_credentials only for confidential clients",
                    implementation = String.class),
            @SchemaProperty(name = "token_endpoint_auth_method", type = SchemaType.STRING, description =
                    "client_secret_basic, client_secret_post, private_key_jwt or none; without it, confidential clients may use either secret method"),
            @SchemaProperty(name = "jwks", type = SchemaType.OBJECT,
                    description = "private_key_jwt: inline JWK set of public RSA or P-256 keys; or jwks_uri"),
            @SchemaProperty(name = "jwks_uri", type = SchemaType.STRING,
                    description = "private_key_jwt: https URL of the JWK set; or jwks. Its host must not be or "
                            + "resolve to an address outside portcullis.outbound.allowed-networks (by default: "
                            + "loopback, link-local, unspecified, multicast)")}),
        @Schema(name = "ClientPatch", type = SchemaType.OBJECT,
                description = "JSON merge patch of a client (RFC 7396); absent fields stay", properties = {
            @SchemaProperty(name = "client_name", type = SchemaType.STRING),
            @SchemaProperty(name = "redirect_uris", type = SchemaType.ARRAY, description = "replaces the list",
                    implementation = String.class),
            @SchemaProperty(name = "post_logout_redirect_uris", type = SchemaType.ARRAY,
                    description = "replaces the list; null removes it", nullable = true, implementation = String.class),
            @SchemaProperty(name = "scopes", type = SchemaType.STRING),
            @SchemaProperty(name = "skip_consent", type = SchemaType.BOOLEAN),
            @SchemaProperty(name = "require_mfa", type = SchemaType.BOOLEAN,
                    description = "a second factor at every sign-in to this client"),
            @SchemaProperty(name = "require_pushed_authorization_requests", type = SchemaType.BOOLEAN,
                    description = "RFC 9126: authorization requests only through /oauth/par"),
            @SchemaProperty(name = "require_signed_request_object", type = SchemaType.BOOLEAN,
                    description = "RFC 9101: authorization requests only as signed request objects"),
            @SchemaProperty(name = "dpop_bound_access_tokens", type = SchemaType.BOOLEAN,
                    description = "RFC 9449: every token request carries a DPoP proof; tokens are DPoP-bound"),
            @SchemaProperty(name = "id_token_claims", type = SchemaType.BOOLEAN, description = "ID tokens carry the "
                    + "granted scopes' claims too (for relying parties that read only the ID token)"),
            @SchemaProperty(name = "grant_types", type = SchemaType.ARRAY, description = "replaces the set",
                    implementation = String.class),
            @SchemaProperty(name = "token_endpoint_auth_method", type = SchemaType.STRING, description =
                    "client_secret_basic, client_secret_post, private_key_jwt or none; decides the type"),
            @SchemaProperty(name = "jwks", type = SchemaType.OBJECT,
                    description = "private_key_jwt: inline JWK set of public RSA or P-256 keys; null removes it"),
            @SchemaProperty(name = "jwks_uri", type = SchemaType.STRING,
                    description = "private_key_jwt: https URL of the JWK set, as at registration; null removes it"),

            @SchemaProperty(name = "backchannel_logout_uri", type = SchemaType.STRING,
                    description = "as at registration; null removes it"),
            @SchemaProperty(name = "backchannel_logout_session_required", type = SchemaType.BOOLEAN,
                    description = "default true"),
            @SchemaProperty(name = "frontchannel_logout_uri", type = SchemaType.STRING,
                    description = "null removes it"),
            @SchemaProperty(name = "frontchannel_logout_session_required", type = SchemaType.BOOLEAN,
                    description = "default true"),
            @SchemaProperty(name = "enabled", type = SchemaType.BOOLEAN,
                    description = "false refuses the client and revokes its tokens"),
            @SchemaProperty(name = "confidential", type = SchemaType.BOOLEAN,
                    description = "a different value changes the type (see the operation)")}),
        @Schema(name = "ClientList", type = SchemaType.OBJECT, description = "Client applications", properties = {
            @SchemaProperty(name = "clients", type = SchemaType.ARRAY,
                    description = "oldest first; items: Client objects")}),
        @Schema(name = "ClientSecret", type = SchemaType.OBJECT, description = "A new client secret, shown once",
                properties = {
            @SchemaProperty(name = "client_id", type = SchemaType.STRING),
            @SchemaProperty(name = "client_secret", type = SchemaType.STRING),
            @SchemaProperty(name = "previous_secret_expires_at", type = SchemaType.INTEGER,
                    description = "epoch seconds until which the old secret still works, when an overlap was asked")}),
        @Schema(name = "SecretRotation", type = SchemaType.OBJECT, description = "Optional body of a secret rotation",
                properties = {
            @SchemaProperty(name = "previous_secret_valid_for", type = SchemaType.INTEGER,
                    description = "seconds (1-2592000) the old secret keeps working; absent: it stops at once")}),
        @Schema(name = "Session", type = SchemaType.OBJECT, description = "A live SSO session (never its cookie)",
                properties = {
            @SchemaProperty(name = "session_id", type = SchemaType.STRING, description = "administrative id"),
            @SchemaProperty(name = "user_id", type = SchemaType.STRING),
            @SchemaProperty(name = "username", type = SchemaType.STRING),
            @SchemaProperty(name = "clients", type = SchemaType.ARRAY,
                    description = "clients served, the sign-in's first; items: objects with client_id and client_name"),
            @SchemaProperty(name = "created_at", type = SchemaType.INTEGER, description = "epoch seconds"),
            @SchemaProperty(name = "last_used_at", type = SchemaType.INTEGER,
                    description = "epoch seconds, updated at most once a minute"),
            @SchemaProperty(name = "auth_time", type = SchemaType.INTEGER, description = "epoch seconds"),
            @SchemaProperty(name = "expires_at", type = SchemaType.INTEGER,
                    description = "absolute end, epoch seconds"),
            @SchemaProperty(name = "ip", type = SchemaType.STRING, description = "address of the sign-in")}),
        @Schema(name = "SessionPage", type = SchemaType.OBJECT, description = "A page of live sessions", properties = {
            @SchemaProperty(name = "sessions", type = SchemaType.ARRAY,
                    description = "in the order they started; items: Session objects"),
            @SchemaProperty(name = "next_after", type = SchemaType.STRING, description = "present on a full page")}),
        @Schema(name = "Ended", type = SchemaType.OBJECT, description = "How many sessions were ended", properties = {
            @SchemaProperty(name = "ended", type = SchemaType.INTEGER)}),
        @Schema(name = "Grant", type = SchemaType.OBJECT, description = "An application a user authorized",
                properties = {
            @SchemaProperty(name = "client_id", type = SchemaType.STRING),
            @SchemaProperty(name = "client_name", type = SchemaType.STRING),
            @SchemaProperty(name = "scope", type = SchemaType.STRING),
            @SchemaProperty(name = "granted_at", type = SchemaType.INTEGER, description = "epoch seconds")}),
        @Schema(name = "NewApi", type = SchemaType.OBJECT, description = "An API to register",
                requiredProperties = {"identifier", "name", "scopes"}, properties = {
            @SchemaProperty(name = "identifier", type = SchemaType.STRING,
                    description = "absolute https URI without fragment (http on loopback): the tokens' aud"),
            @SchemaProperty(name = "name", type = SchemaType.STRING),
            @SchemaProperty(name = "scopes", type = SchemaType.ARRAY, implementation = String.class,
                    description = "RFC 6749 3.3 names, unique across APIs and the built-in scopes"),
            @SchemaProperty(name = "access_token_signing_alg", type = SchemaType.STRING, nullable = true,
                    description = "RS256, PS256 or ES256; absent or null: portcullis.access-token.signing-alg"),
            @SchemaProperty(name = "access_token_typ", type = SchemaType.STRING, enumeration = {"at+jwt", "JWT"},
                    defaultValue = "at+jwt", description = "the header typ of the API's access tokens: at+jwt "
                            + "(RFC 9068) or JWT for a backend that cannot be told to accept at+jwt (it must then "
                            + "check aud); absent: at+jwt"),
            @SchemaProperty(name = "backend_client_id", type = SchemaType.STRING, nullable = true,
                    description = "the confidential client the API's backend authenticates as: it may exchange "
                            + "tokens issued for the API (RFC 8693); absent or null: none"),
            @SchemaProperty(name = "exchange_scopes", type = SchemaType.ARRAY, implementation = String.class,
                    nullable = true, description = "scopes of other registered APIs that the backend may exchange "
                            + "the API's tokens for (never built-in scopes); absent, null or empty: none")}),
        @Schema(name = "ApiPatch", type = SchemaType.OBJECT, description = "A merge patch of an API",
                properties = {
            @SchemaProperty(name = "identifier", type = SchemaType.STRING),
            @SchemaProperty(name = "name", type = SchemaType.STRING),
            @SchemaProperty(name = "scopes", type = SchemaType.ARRAY, implementation = String.class,
                    description = "replaces the list; removing a scope a client holds answers 409"),
            @SchemaProperty(name = "access_token_signing_alg", type = SchemaType.STRING, nullable = true,
                    description = "null: back to the global default"),
            @SchemaProperty(name = "access_token_typ", type = SchemaType.STRING, enumeration = {"at+jwt", "JWT"},
                    description = "at+jwt or JWT; tokens already issued keep theirs"),
            @SchemaProperty(name = "backend_client_id", type = SchemaType.STRING, nullable = true,
                    description = "null: no client may exchange the API's tokens"),
            @SchemaProperty(name = "exchange_scopes", type = SchemaType.ARRAY, implementation = String.class,
                    nullable = true, description = "replaces the list; null or empty: the backend may obtain nothing "
                            + "by exchange")}),
        @Schema(name = "Api", type = SchemaType.OBJECT, description = "A registered API", properties = {
            @SchemaProperty(name = "id", type = SchemaType.STRING),
            @SchemaProperty(name = "identifier", type = SchemaType.STRING),
            @SchemaProperty(name = "name", type = SchemaType.STRING),
            @SchemaProperty(name = "scopes", type = SchemaType.ARRAY, implementation = String.class),
            @SchemaProperty(name = "access_token_signing_alg", type = SchemaType.STRING, nullable = true),
            @SchemaProperty(name = "access_token_typ", type = SchemaType.STRING, enumeration = {"at+jwt", "JWT"}),
            @SchemaProperty(name = "backend_client_id", type = SchemaType.STRING, nullable = true),
            @SchemaProperty(name = "exchange_scopes", type = SchemaType.ARRAY, implementation = String.class,
                    description = "what the backend may obtain by token exchange; empty: nothing"),
            @SchemaProperty(name = "created_at", type = SchemaType.INTEGER, description = "epoch seconds")}),
        @Schema(name = "ApiList", type = SchemaType.OBJECT, description = "Registered APIs", properties = {
            @SchemaProperty(name = "apis", type = SchemaType.ARRAY, description = "oldest first; items: Api objects")}),
        @Schema(name = "GrantList", type = SchemaType.OBJECT, description = "Applications a user authorized",
                properties = {
            @SchemaProperty(name = "grants", type = SchemaType.ARRAY,
                    description = "in the order granted; items: Grant objects")})
        }))
@SecurityScheme(securitySchemeName = "adminToken", type = SecuritySchemeType.HTTP, scheme = "bearer")
public class AdminApplication extends Application {

    @Override
    public Set<Class<?>> getClasses() {
        return WebProviders.with(DelegationFilter.class, AdminAuthenticationFilter.class, ClientAdminResource.class,
                UserAdminResource.class, UserGrantAdminResource.class, SessionAdminResource.class,
                AuditAdminResource.class, SigningKeyAdminResource.class, PurgeAdminResource.class,
                FactorAdminResource.class, ApiAdminResource.class, ConfigurationAdminResource.class);
    }

    @Override
    public Map<String, Object> getProperties() {
        return WebProviders.PROPERTIES;
    }
}
