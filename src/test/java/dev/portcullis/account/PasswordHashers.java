package dev.portcullis.account;

import dev.portcullis.config.PortcullisConfig;

/** Test support: the real {@link PasswordHasher} with fixed Argon2id parameters, outside CDI. */
public final class PasswordHashers {

    private PasswordHashers() {
    }

    /** One lane; {@code concurrency} hashes at once. */
    public static PasswordHasher withParameters(int memoryKib, int iterations, int concurrency) {
        PortcullisConfig config = new PortcullisConfig() {
            @Override
            public int passwordMemoryKib() {
                return memoryKib;
            }

            @Override
            public int passwordIterations() {
                return iterations;
            }

            @Override
            public int passwordParallelism() {
                return 1;
            }

            @Override
            public int passwordConcurrency() {
                return concurrency;
            }
        };
        PasswordHasher h = new PasswordHasher();
        h.config = config;
        h.init();
        return h;
    }
}
