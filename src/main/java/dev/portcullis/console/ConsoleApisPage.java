package dev.portcullis.console;

import dev.portcullis.api.Api;
import dev.portcullis.api.ApiRules;
import dev.portcullis.api.ApiService;
import dev.portcullis.signin.SignedInUser;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.inject.Named;
import java.util.List;
import java.util.Optional;

/**
 * Backing bean of {@code /admin/console/apis.xhtml} (the registered APIs and the registration form) and
 * {@code /admin/console/api.xhtml?id=} (one API's identifier, name, scopes, signing algorithm and exchange scopes;
 * deletion). Every
 * change goes through {@link ApiService}, which validates and audits it with the administrator's id; a refused change
 * shows its reason.
 */
@Named("consoleApis")
@RequestScoped
public class ConsoleApisPage {

    @Inject
    SignedInUser signedIn;

    @Inject
    ConsoleForm form;

    @Inject
    ApiService apis;

    private String identifier;
    private String name;
    /** Space-separated, as the form shows them. */
    private String scopes;
    /** Empty: the global default. */
    private String signingAlg = "";
    /** The header typ of the API's access tokens: at+jwt (the default) or JWT. */
    private String accessTokenTyp = ApiRules.AT_JWT;
    /** Space-separated scopes of other APIs the backend may exchange this API's tokens for; empty: none. */
    private String exchangeScopes;
    private Api created;
    private Optional<Api> shown;

    public List<Api> getApis() {
        return apis.list();
    }

    /** The algorithms the form offers; the empty choice is the global default. */
    public List<String> getSigningAlgs() {
        return ApiRules.SIGNING_ALGS;
    }

    /** The token types the form offers, at+jwt first (the default). */
    public List<String> getAccessTokenTyps() {
        return ApiRules.TOKEN_TYPS;
    }

    /** Registers the API of the form. */
    public String create() {
        form.submit(actor -> {
            created = apis.register(new ApiService.Registration(identifier == null ? "" : identifier.strip(), name,
                    ConsoleClientsPage.words(scopes == null ? "" : scopes), alg(), null,
                    ConsoleClientsPage.words(exchangeScopes == null ? "" : exchangeScopes), typ()), actor);
            identifier = null;
            name = null;
            scopes = null;
            signingAlg = "";
            accessTokenTyp = ApiRules.AT_JWT;
            exchangeScopes = null;
        });
        return null;
    }

    /** The API of {@code api.xhtml}: the query's {@code id} (GET) or the form's hidden {@code id} (POST). */
    public Optional<Api> getShown() {
        if (shown == null) {
            String id = signedIn.parameter("id", 64);
            shown = id == null ? Optional.empty() : apis.find(id);
            shown.ifPresent(a -> {
                if (identifier == null) {
                    identifier = a.identifier();
                    name = a.name();
                    scopes = String.join(" ", a.scopes());
                    signingAlg = a.accessTokenSigningAlg().orElse("");
                    accessTokenTyp = a.accessTokenTyp();
                    exchangeScopes = String.join(" ", a.exchangeScopes());
                }
            });
            if (shown.isEmpty()) {
                signedIn.status(404);
            }
        }
        return shown;
    }

    /** Saves every field of the form on the shown API; an empty algorithm is the global default. */
    public String save() {
        getShown().ifPresent(a -> form.submit(actor -> {
            String alg = alg();
            apis.update(a.apiId(), new ApiService.ApiPatch(identifier == null ? "" : identifier.strip(),
                    name == null ? "" : name, ConsoleClientsPage.words(scopes == null ? "" : scopes), alg, alg == null,
                    null, false, ConsoleClientsPage.words(exchangeScopes == null ? "" : exchangeScopes), typ()),
                    actor);
            signedIn.redirect("/admin/console/api.xhtml?id=" + a.apiId() + "&done=console.saved");
        }));
        return null;
    }

    /** Deletes the shown API on the confirmation step's post ({@code confirmed=yes}); the first button shows it. */
    public String delete() {
        getShown().ifPresent(a -> form.delete(actor -> {
            apis.delete(a.apiId(), actor);
            signedIn.redirect("/admin/console/apis.xhtml?done=console.api.deleted");
        }));
        return null;
    }

    /** The form's token type; nothing chosen is the default, at+jwt. */
    private String typ() {
        return accessTokenTyp == null || accessTokenTyp.isBlank() ? null : accessTokenTyp;
    }

    private String alg() {
        return signingAlg == null || signingAlg.isBlank() ? null : signingAlg.strip();
    }

    /** The outcome message after a redirect ({@code done}), only known keys. */
    public String getDoneKey() {
        return ConsolePages.done(signedIn, java.util.Set.of("console.saved", "console.api.deleted"));
    }

    public Api getCreated() {
        return created;
    }

    public String getIdentifier() {
        return identifier;
    }

    public void setIdentifier(String identifier) {
        this.identifier = identifier;
    }

    public String getName() {
        return name;
    }

    public void setName(String name) {
        this.name = name;
    }

    public String getScopes() {
        return scopes;
    }

    public void setScopes(String scopes) {
        this.scopes = scopes;
    }

    public String getSigningAlg() {
        return signingAlg;
    }

    public void setSigningAlg(String signingAlg) {
        this.signingAlg = signingAlg;
    }

    public String getAccessTokenTyp() {
        return accessTokenTyp;
    }

    public void setAccessTokenTyp(String accessTokenTyp) {
        this.accessTokenTyp = accessTokenTyp;
    }

    public String getExchangeScopes() {
        return exchangeScopes;
    }

    public void setExchangeScopes(String exchangeScopes) {
        this.exchangeScopes = exchangeScopes;
    }
}
