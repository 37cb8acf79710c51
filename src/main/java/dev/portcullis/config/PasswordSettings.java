package dev.portcullis.config;

/**
 * {@code portcullis.password.argon2.*}: the Argon2id parameters of new password hashes, and {@code concurrency}, how
 * many hashes run at once (the others wait), which bounds their memory to concurrency × memory-kib.
 */
public record PasswordSettings(int memoryKib, int iterations, int parallelism, int concurrency) {

    /** Memory (KiB) times passes of OWASP's weakest recommended Argon2id line, 7 MiB x 5 (the others are above it). */
    static final long OWASP_MIN_MEMORY_KIB_PASSES = 7_168L * 5;

    static PasswordSettings load(PortcullisConfig.Source c) {
        // OWASP's Argon2id minimums are equivalent pairs (46 MiB x 1, 19 x 2, 12 x 3, 9 x 4, 7 x 5 passes). The default
        // is the 7 MiB x 5 line: the same CPU per hash as 19 x 2, but a third of the memory per concurrent sign-in,
        // which is what fills a bounded heap (docs/decisions.md). Anything weaker than that line is refused.
        int memoryKib = PortcullisConfig.integer(c, "portcullis.password.argon2.memory-kib", 7_168, 7_168, 4_194_304);
        int iterations = PortcullisConfig.integer(c, "portcullis.password.argon2.iterations", 5, 1, 100);
        PortcullisConfig.require((long) memoryKib * iterations >= OWASP_MIN_MEMORY_KIB_PASSES,
                "portcullis.password.argon2.iterations", "memory-kib x iterations must be at least "
                        + OWASP_MIN_MEMORY_KIB_PASSES + " (OWASP's minimum, e.g. 7168 KiB x 5 or 19456 KiB x 2)");
        int parallelism = PortcullisConfig.integer(c, "portcullis.password.argon2.parallelism", 1, 1, 16);
        // 0 = one per CPU core: the hash is CPU-bound, more at once only adds memory (memory-kib each) and waiting
        int concurrency = PortcullisConfig.integer(c, "portcullis.password.argon2.concurrency", 0, 0, 256);
        return new PasswordSettings(memoryKib, iterations, parallelism,
                concurrency == 0 ? Math.max(2, Runtime.getRuntime().availableProcessors()) : concurrency);
    }
}
