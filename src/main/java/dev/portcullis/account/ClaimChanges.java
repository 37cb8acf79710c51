package dev.portcullis.account;

import java.util.Map;
import java.util.Optional;

/**
 * Changes to a user's standard claims as a merge patch reads them: {@code texts} maps a claim of
 * {@link StandardClaims#TEXTS}, or an address member named {@code address.<member>}, to its new value (empty:
 * remove it); a claim not named stays. {@code phoneNumberVerified} null leaves it as it is.
 */
public record ClaimChanges(Map<String, Optional<String>> texts, Boolean phoneNumberVerified) {

    public static final ClaimChanges NONE = new ClaimChanges(Map.of(), null);

    public ClaimChanges {
        texts = Map.copyOf(texts);
    }

    public boolean isEmpty() {
        return texts.isEmpty() && phoneNumberVerified == null;
    }

    /** Checks every value against its claim's rule; nothing is changed. */
    void check() {
        texts.forEach((name, value) -> value.ifPresent(v -> {
            if (name.startsWith(StandardClaims.ADDRESS + ".")) {
                StandardClaims.checkAddressMember(name.substring(StandardClaims.ADDRESS.length() + 1), v);
            } else {
                StandardClaims.check(name, v);
            }
        }));
    }
}
