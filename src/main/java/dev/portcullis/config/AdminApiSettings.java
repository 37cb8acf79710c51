package dev.portcullis.config;

import java.util.Optional;

/** {@code portcullis.admin.token}: the bearer token of the admin API; empty = the admin API is closed (401). */
public record AdminApiSettings(Optional<String> token) {

    /** README's example admin token: refused, so a copied command never opens the admin API to anyone who read it. */
    static final String README_EXAMPLE_ADMIN_TOKEN = "change-me-to-a-long-random-string";
    static final int MIN_ADMIN_TOKEN_LENGTH = 32;

    static AdminApiSettings load(PortcullisConfig.Source c) {
        Optional<String> token = c.getOptionalValue("portcullis.admin.token").map(String::trim)
                .filter(s -> !s.isEmpty());
        token.ifPresent(t -> {
            PortcullisConfig.require(t.length() >= MIN_ADMIN_TOKEN_LENGTH, "portcullis.admin.token", "must be at least "
                    + MIN_ADMIN_TOKEN_LENGTH + " characters (generate one with: openssl rand -base64 32)");
            PortcullisConfig.require(!t.equals(README_EXAMPLE_ADMIN_TOKEN), "portcullis.admin.token", "is README's "
                    + "example value, known to everyone (generate one with: openssl rand -base64 32)");
        });
        return new AdminApiSettings(token);
    }

    /** Never prints the token. */
    @Override
    public String toString() {
        return "AdminApiSettings[token=" + (token.isPresent() ? "(set)" : "(unset)") + "]";
    }
}
