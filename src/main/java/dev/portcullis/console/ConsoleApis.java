package dev.portcullis.console;

import dev.portcullis.api.Api;
import dev.portcullis.api.ApiRules;
import dev.portcullis.api.ApiService;
import dev.portcullis.audit.Actor;
import dev.portcullis.audit.ChangeRefused;
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
public class ConsoleApis {

    @Inject
    SignedInUser signedIn;

    @Inject
    ApiService apis;

    private String identifier;
    private String name;
    /** Space-separated, as the form shows them. */
    private String scopes;
    /** Empty: the global default. */
    private String signingAlg = "";
    /** Space-separated scopes of other APIs the backend may exchange this API's tokens for; empty: none. */
    private String exchangeScopes;
    private String errorText;
    private Api created;
    private Optional<Api> shown;
    private boolean confirmingDelete;

    public List<Api> getApis() {
        return apis.list();
    }

    /** The algorithms the form offers; the empty choice is the global default. */
    public List<String> getSigningAlgs() {
        return ApiRules.SIGNING_ALGS;
    }

    /** Registers the API of the form. */
    public String create() {
        Optional<Actor> actor = authorizedActor();
        if (actor.isEmpty()) {
            return null;
        }
        try {
            created = apis.register(new ApiService.Registration(identifier == null ? "" : identifier.strip(), name,
                    ConsoleClients.words(scopes == null ? "" : scopes), alg(), null,
                    ConsoleClients.words(exchangeScopes == null ? "" : exchangeScopes)), actor.get());
            identifier = null;
            name = null;
            scopes = null;
            signingAlg = "";
            exchangeScopes = null;
        } catch (ChangeRefused e) {
            fail(e);
        }
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
        Api a = getShown().orElse(null);
        Optional<Actor> actor = a == null ? Optional.empty() : authorizedActor();
        if (actor.isEmpty()) {
            return null;
        }
        try {
            String alg = alg();
            apis.update(a.apiId(), new ApiService.ApiPatch(identifier == null ? "" : identifier.strip(),
                    name == null ? "" : name, ConsoleClients.words(scopes == null ? "" : scopes), alg, alg == null,
                    null, false, ConsoleClients.words(exchangeScopes == null ? "" : exchangeScopes)), actor.get());
            signedIn.redirect("/admin/console/api.xhtml?id=" + a.apiId() + "&done=console.saved");
        } catch (ChangeRefused e) {
            fail(e);
        }
        return null;
    }

    /** Deletes the shown API on the confirmation step's post ({@code confirmed=yes}); the first button shows it. */
    public String delete() {
        Api a = getShown().orElse(null);
        Optional<Actor> actor = a == null ? Optional.empty() : authorizedActor();
        if (actor.isEmpty()) {
            return null;
        }
        if (!"yes".equals(signedIn.parameter("confirmed", 3))) {
            confirmingDelete = true;
            return null;
        }
        try {
            apis.delete(a.apiId(), actor.get());
            signedIn.redirect("/admin/console/apis.xhtml?done=console.api.deleted");
        } catch (ChangeRefused e) {
            fail(e);
        }
        return null;
    }

    /** True on the confirmation step, and on its post, so that Faces finds the confirming button it rendered. */
    public boolean isConfirmingDelete() {
        return confirmingDelete || "yes".equals(signedIn.parameter("confirmed", 3));
    }

    private String alg() {
        return signingAlg == null || signingAlg.isBlank() ? null : signingAlg.strip();
    }

    private Optional<Actor> authorizedActor() {
        Optional<Actor> actor = ConsolePage.actor(signedIn);
        if (actor.isEmpty()) {
            errorText = signedIn.getMsg().get("page.csrf");
        }
        return actor;
    }

    private void fail(ChangeRefused e) {
        errorText = ConsolePage.refusal(signedIn, e);
    }

    /** The outcome message after a redirect ({@code done}), only known keys. */
    public String getDoneKey() {
        return ConsolePage.done(signedIn, java.util.Set.of("console.saved", "console.api.deleted"));
    }

    public String getErrorText() {
        return errorText;
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

    public String getExchangeScopes() {
        return exchangeScopes;
    }

    public void setExchangeScopes(String exchangeScopes) {
        this.exchangeScopes = exchangeScopes;
    }
}
