package dev.portcullis.console;

import dev.portcullis.client.BuiltInClients;
import dev.portcullis.client.Client;
import dev.portcullis.client.ClientAuthMethods;
import dev.portcullis.client.ClientService;
import dev.portcullis.client.GrantTypes;
import dev.portcullis.client.LogoutNotifications;
import dev.portcullis.signin.SignedInUser;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.inject.Named;
import jakarta.servlet.http.HttpServletRequest;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * Backing bean of {@code /admin/console/clients.xhtml} (the list and the registration form) and
 * {@code /admin/console/client.xhtml?id=} (one client's name, URIs and grant types). A confidential client's secret is shown once,
 * in the answer to the registration, and never again. Every change goes through {@link ClientService}, which audits
 * it with the administrator's id; a refused change shows its reason.
 */
@Named("consoleClients")
@RequestScoped
public class ConsoleClientsPage {

    static final int MAX_LISTED = 500;

    @Inject
    SignedInUser signedIn;

    @Inject
    ConsoleForm form;

    @Inject
    ClientService clients;

    @Inject
    HttpServletRequest request;

    private String name;
    private String redirectUris;
    private String postLogoutRedirectUris;
    private boolean confidential = true;
    private String scopes = "openid profile email";
    private boolean skipConsent;
    /** require_pushed_authorization_requests (RFC 9126). */
    private boolean requirePushed;
    /** require_signed_request_object (RFC 9101). */
    private boolean requireSigned;
    /** dpop_bound_access_tokens (RFC 9449). */
    private boolean dpopBound;
    private boolean idTokenClaims;
    /** Space-separated, as the form shows them; null when the form did not send the field, which keeps them. */
    private String grantTypes;
    /** The registration form's token_endpoint_auth_method; blank: not chosen (the checkbox decides the type). */
    private String authMethod;
    private String jwks;
    private String jwksUri;
    /** The logout notification URIs as the form shows them (empty: none) and their session_required flags. */
    private String backchannelLogoutUri;
    private boolean backchannelLogoutSessionRequired = true;
    private String frontchannelLogoutUri;
    private boolean frontchannelLogoutSessionRequired = true;
    private Client created;
    private String createdSecret;
    private Optional<Client> shown;
    private String rotatedSecret;
    private long rotatedOverlap;

    public List<Client> getClients() {
        return clients.list(0, MAX_LISTED);
    }

    /** Registers the client of the form; the answer shows its id and, once, its secret. */
    public String create() {
        form.submit(actor -> {
            ClientService.Registration.Builder b = ClientService.Registration.builder()
                    .name(name == null ? "" : name).redirectUris(lines(redirectUris))
                    .postLogoutRedirectUris(lines(postLogoutRedirectUris)).scopes(scopes)
                    .skipConsent(skipConsent).requirePushedRequests(requirePushed).idTokenClaims(idTokenClaims)
                    .requireSignedRequests(requireSigned).dpopBoundAccessTokens(dpopBound)
                    .grantTypes(words(grantTypes))
                    .logout(logoutChange())
                    .authMethod(blankAsNull(authMethod)).jwks(blankAsNull(jwks)).jwksUri(blankAsNull(jwksUri));
            // a chosen method decides the type itself (none is public); the checkbox only when none is chosen
            if (blankAsNull(authMethod) == null) {
                b.confidential(confidential);
            }
            ClientService.Registered r = clients.register(b.build(), actor);
            created = r.client();
            createdSecret = r.secret().orElse(null);
            name = null;
            redirectUris = null;
            postLogoutRedirectUris = null;
            backchannelLogoutUri = null;
            frontchannelLogoutUri = null;
        });
        return null;
    }

    /** The client of {@code client.xhtml}: the query's {@code id} (GET) or the form's hidden {@code id} (POST). */
    public Optional<Client> getShown() {
        if (shown == null) {
            String id = signedIn.parameter("id", 64);
            shown = id == null ? Optional.empty() : clients.find(id);
            shown.ifPresent(c -> {
                if (name == null) {
                    name = c.name();
                    redirectUris = String.join("\n", c.redirectUris());
                    postLogoutRedirectUris = String.join("\n", c.postLogoutRedirectUris());
                    grantTypes = GrantTypes.format(c.grantTypes());
                    requirePushed = c.requirePushedAuthorizationRequests();
                    requireSigned = c.requireSignedRequestObject();
                    dpopBound = c.dpopBoundAccessTokens();
                    idTokenClaims = c.idTokenClaims();
                    LogoutNotifications n = c.logoutNotifications();
                    backchannelLogoutUri = n.backchannelUri();
                    backchannelLogoutSessionRequired = n.backchannelSessionRequired();
                    frontchannelLogoutUri = n.frontchannelUri();
                    frontchannelLogoutSessionRequired = n.frontchannelSessionRequired();
                }
            });
            if (shown.isEmpty()) {
                signedIn.status(404);
            }
        }
        return shown;
    }

    /**
     * Saves the name, URIs, grant types, logout notifications, push, signed-request and DPoP requirements and ID
     * token claims setting.
     */
    public String save() {
        getShown().ifPresent(c -> form.submit(actor -> {
            clients.update(c.clientId(), ClientService.ClientPatch.patch().name(name == null ? "" : name)
                    .redirectUris(lines(redirectUris)).postLogoutRedirectUris(lines(postLogoutRedirectUris))
                    .grantTypes(words(grantTypes)).logout(logoutChange()).requirePushedRequests(requirePushed)
                    .requireSignedRequests(requireSigned).idTokenClaims(idTokenClaims)
                    .dpopBoundAccessTokens(dpopBound).build(), actor);
            signedIn.redirect("/admin/console/client.xhtml?id=" + c.clientId() + "&done=console.saved");
        }));
        return null;
    }

    /** Whether the client is one of Portcullis's own (listed as built-in; cannot be deleted or disabled). */
    public boolean builtIn(String clientId) {
        return BuiltInClients.isBuiltIn(clientId);
    }

    /** The overlaps the rotate form offers, in seconds: 0 (the old secret stops at once), an hour, a day, 7, 30 days. */
    static final List<Long> OVERLAPS = List.of(0L, 3_600L, 86_400L, 604_800L, 2_592_000L);

    /**
     * Issues a new secret for the shown confidential client, shown once on this answer; the old one keeps working for
     * the overlap the form's {@code overlap} chose (one of {@link #OVERLAPS}; absent or 0: it stops at once).
     */
    public String rotateSecret() {
        getShown().ifPresent(c -> form.submit(actor -> {
            String overlap = signedIn.parameter("overlap", 8);
            long seconds = OVERLAPS.stream().filter(o -> String.valueOf(o).equals(overlap)).findFirst().orElse(0L);
            rotatedSecret = clients.rotateSecret(c.clientId(), seconds == 0 ? null : Duration.ofSeconds(seconds),
                    actor).orElse(null);
            rotatedOverlap = seconds;
        }));
        return null;
    }

    /** Disables or enables the shown client by the form's hidden {@code enable}; built-in clients are refused. */
    public String setEnabled() {
        getShown().ifPresent(c -> form.submit(actor -> {
            boolean enable = "true".equals(signedIn.parameter("enable", 5));
            clients.update(c.clientId(), ClientService.ClientPatch.patch().enabled(enable).build(), actor);
            signedIn.redirect("/admin/console/client.xhtml?id=" + c.clientId() + "&done="
                    + (enable ? "console.client.enabled" : "console.client.disabled"));
        }));
        return null;
    }

    /**
     * Deletes the shown client, only when the form says it is the confirmation ({@code confirmed=yes}, the button of
     * the confirmation step); the first button merely shows that step.
     */
    public String delete() {
        getShown().ifPresent(c -> form.delete(actor -> {
            clients.delete(c.clientId(), actor);
            signedIn.redirect("/admin/console/clients.xhtml?done=console.client.deleted");
        }));
        return null;
    }

    public String getRotatedSecret() {
        return rotatedSecret;
    }

    /** The overlap of the rotation just made, seconds (0: the old secret stopped at once). */
    public long getRotatedOverlap() {
        return rotatedOverlap;
    }

    /** Whether the client authenticates with a secret (so the rotate form is offered). */
    public boolean usesSecret(Client c) {
        return c.confidential() && !ClientAuthMethods.PRIVATE_KEY_JWT.equals(c.authMethod());
    }

    private static String blankAsNull(String s) {
        return s == null || s.isBlank() ? null : s.strip();
    }

    /** The methods the registration form offers. */
    public List<String> getAuthMethods() {
        return ClientAuthMethods.ALL;
    }

    public String getAuthMethod() {
        return authMethod;
    }

    public void setAuthMethod(String authMethod) {
        this.authMethod = authMethod;
    }

    public String getJwks() {
        return jwks;
    }

    public void setJwks(String jwks) {
        this.jwks = jwks;
    }

    public String getJwksUri() {
        return jwksUri;
    }

    public void setJwksUri(String jwksUri) {
        this.jwksUri = jwksUri;
    }

    /** One URI a line; blank lines ignored. */
    static List<String> lines(String text) {
        if (text == null) {
            return List.of();
        }
        return Arrays.stream(text.split("\\R")).map(String::strip).filter(s -> !s.isEmpty())
                .collect(Collectors.toList());
    }

    /** The form's logout notification fields: every one named, an empty URI field removing that URI. */
    private LogoutNotifications.Change logoutChange() {
        return new LogoutNotifications.Change(uri(backchannelLogoutUri), backchannelLogoutSessionRequired,
                uri(frontchannelLogoutUri), frontchannelLogoutSessionRequired);
    }

    private static Optional<String> uri(String field) {
        return field == null || field.isBlank() ? Optional.empty() : Optional.of(field.strip());
    }

    /** Grant types separated by spaces or lines; null (not sent) stays null, so that a patch keeps them. */
    static List<String> words(String text) {
        if (text == null) {
            return null;
        }
        return Arrays.stream(text.split("\\s+")).filter(s -> !s.isEmpty()).collect(Collectors.toList());
    }

    /** The outcome message after a redirect ({@code done}), only known keys. */
    public String getDoneKey() {
        return ConsolePages.done(signedIn, java.util.Set.of("console.saved", "console.client.enabled",
                "console.client.disabled", "console.client.deleted"));
    }

    public Client getCreated() {
        return created;
    }

    public String getCreatedSecret() {
        return createdSecret;
    }

    public String getName() {
        return name;
    }

    public void setName(String name) {
        this.name = name;
    }

    public String getRedirectUris() {
        return redirectUris;
    }

    public void setRedirectUris(String redirectUris) {
        this.redirectUris = redirectUris;
    }

    public String getPostLogoutRedirectUris() {
        return postLogoutRedirectUris;
    }

    public void setPostLogoutRedirectUris(String postLogoutRedirectUris) {
        this.postLogoutRedirectUris = postLogoutRedirectUris;
    }

    public boolean isConfidential() {
        return confidential;
    }

    public void setConfidential(boolean confidential) {
        this.confidential = confidential;
    }

    public String getScopes() {
        return scopes;
    }

    public void setScopes(String scopes) {
        this.scopes = scopes;
    }

    /** The shown client's grant types, or what the form sent; the default for a new client's form. */
    public String getGrantTypes() {
        return grantTypes != null ? grantTypes : GrantTypes.format(GrantTypes.DEFAULT);
    }

    public void setGrantTypes(String grantTypes) {
        this.grantTypes = grantTypes;
    }

    public String getBackchannelLogoutUri() {
        return backchannelLogoutUri;
    }

    public void setBackchannelLogoutUri(String backchannelLogoutUri) {
        this.backchannelLogoutUri = backchannelLogoutUri;
    }

    public boolean isBackchannelLogoutSessionRequired() {
        return backchannelLogoutSessionRequired;
    }

    public void setBackchannelLogoutSessionRequired(boolean required) {
        this.backchannelLogoutSessionRequired = required;
    }

    public String getFrontchannelLogoutUri() {
        return frontchannelLogoutUri;
    }

    public void setFrontchannelLogoutUri(String frontchannelLogoutUri) {
        this.frontchannelLogoutUri = frontchannelLogoutUri;
    }

    public boolean isFrontchannelLogoutSessionRequired() {
        return frontchannelLogoutSessionRequired;
    }

    public void setFrontchannelLogoutSessionRequired(boolean required) {
        this.frontchannelLogoutSessionRequired = required;
    }

    public boolean isIdTokenClaims() {
        return idTokenClaims;
    }

    public void setIdTokenClaims(boolean idTokenClaims) {
        this.idTokenClaims = idTokenClaims;
    }

    public boolean isSkipConsent() {
        return skipConsent;
    }

    public void setSkipConsent(boolean skipConsent) {
        this.skipConsent = skipConsent;
    }

    public boolean isRequirePushed() {
        return requirePushed;
    }

    public void setRequirePushed(boolean requirePushed) {
        this.requirePushed = requirePushed;
    }

    public boolean isRequireSigned() {
        return requireSigned;
    }

    public void setRequireSigned(boolean requireSigned) {
        this.requireSigned = requireSigned;
    }

    public boolean isDpopBound() {
        return dpopBound;
    }

    public void setDpopBound(boolean dpopBound) {
        this.dpopBound = dpopBound;
    }
}
