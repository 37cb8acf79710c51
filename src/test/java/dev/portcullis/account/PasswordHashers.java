package dev.portcullis.account;

import dev.portcullis.config.PasswordSettings;

/** Test support: the real {@link PasswordHasher} with fixed Argon2id parameters, outside CDI. */
public final class PasswordHashers {

    private PasswordHashers() {
    }

    /** One lane; {@code concurrency} hashes at once. */
    public static PasswordHasher withParameters(int memoryKib, int iterations, int concurrency) {
        PasswordHasher h = new PasswordHasher();
        h.passwordSettings = new PasswordSettings(memoryKib, iterations, 1, concurrency);
        h.init();
        return h;
    }
}
