package dev.portcullis.console;

import dev.portcullis.config.KeySettings;
import dev.portcullis.jose.SigningKey;
import dev.portcullis.jose.SigningKeyService;
import dev.portcullis.signin.SignedInUser;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.inject.Named;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * Backing bean of {@code /admin/console/keys.xhtml}: the signing keys (kid, algorithm, created, signs from, state;
 * never key material) and "rotate", which does what {@code POST /admin/keys/rotate} does without a body: a new key
 * per algorithm, published in the JWKS at once and signing after {@code portcullis.keys.activation-delay}.
 */
@Named("consoleKeys")
@RequestScoped
public class ConsoleKeysPage {

    @Inject
    SignedInUser signedIn;

    @Inject
    ConsoleForm form;

    @Inject
    SigningKeyService keys;

    @Inject
    KeySettings keySettings;

    private List<KeyRow> rows;

    /** One key as the page lists it; {@code state} is {@code active}, {@code next} or {@code retired}. */
    public record KeyRow(String kid, String alg, String created, String activeFrom, String retired, String state) {
    }

    public List<KeyRow> getKeys() {
        if (rows == null) {
            rows = keys.rows().stream().sorted(Comparator.comparing(SigningKey::createdAt).reversed())
                .map(k -> new KeyRow(k.kid(), k.alg(), ConsolePages.when(k.createdAt()),
                        ConsolePages.when(k.activeFrom()), ConsolePages.when(k.retiredAt()),
                            keys.stateOf(k).name().toLowerCase(Locale.ROOT)))
                    .toList();
        }
        return rows;
    }

    public long getActivationDelaySeconds() {
        return keySettings.activationDelay().getSeconds();
    }

    /** Rotates every algorithm's key; audited per new key with the administrator's id. */
    public String rotate() {
        // two rotations at once: the deterministic kid lets only one insert win, the other is refused (409)
        form.submit(actor -> {
            keys.rotate(Optional.empty(), keySettings.activationDelay(), actor);
            signedIn.redirect("/admin/console/keys.xhtml?done=console.keys.rotated");
        });
        return null;
    }

    public String getDoneKey() {
        return ConsolePages.done(signedIn, Set.of("console.keys.rotated"));
    }

}
