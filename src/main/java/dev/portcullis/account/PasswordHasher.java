package dev.portcullis.account;

import dev.portcullis.config.PasswordSettings;
import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.Base64;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.bouncycastle.crypto.generators.Argon2BytesGenerator;
import org.bouncycastle.crypto.params.Argon2Parameters;

/**
 * Argon2id password hashing (Bouncy Castle), stored as a PHC string that carries its own parameters:
 * {@code $argon2id$v=19$m=7168,t=5,p=1$<salt>$<hash>}. The defaults are one of OWASP's equivalent minimums (7 MiB,
 * 5 passes, 1 lane); change them with {@code portcullis.password.argon2.*} and stored hashes follow at the next
 * sign-in ({@link #needsRehash}). This is the only slow hash in Portcullis, and it is used only at sign-in.
 *
 * <p>At most {@code portcullis.password.argon2.concurrency} hashes run at once (default: one per core); the others
 * wait their turn. Each one holds memory-kib of memory, so a burst of sign-ins cannot exhaust a bounded heap, and
 * running more hashes than cores would only make each one slower. A sign-in waits at most {@link #SIGN_IN_WAIT} for
 * its turn and is then refused as busy ({@link BusyException}), so a flood of sign-ins cannot queue requests (and
 * their threads) without end.
 */
@ApplicationScoped
public class PasswordHasher {

    private static final Pattern PHC = Pattern.compile(
            "\\$argon2id\\$v=19\\$m=(\\d{1,8}),t=(\\d{1,3}),p=(\\d{1,2})\\$([A-Za-z0-9+/]{16,64})\\$([A-Za-z0-9+/]{16,128})");
    private static final Base64.Encoder B64 = Base64.getEncoder().withoutPadding();
    private static final Base64.Decoder B64D = Base64.getDecoder();
    private static final SecureRandom RANDOM = new SecureRandom();
    private static final int SALT_BYTES = 16;
    private static final int HASH_BYTES = 32;

    /** How long a sign-in's hash waits for a free slot before the sign-in is answered "busy, try again". */
    static final Duration SIGN_IN_WAIT = Duration.ofSeconds(5);

    /** No hash could start within the wait: nothing was verified; the caller answers "busy, try again". */
    public static final class BusyException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        BusyException() {
            super("Too many password checks at once", null, false, false);
        }
    }

    @Inject
    PasswordSettings passwordSettings;

    Duration signInWait = SIGN_IN_WAIT;

    /** A real hash of a random password, verified against when the username is unknown: same work, same timing. */
    private String dummyHash;

    Semaphore permits;

    @PostConstruct
    void init() {
        permits = new Semaphore(passwordSettings.concurrency(), true);
        byte[] random = new byte[24];
        RANDOM.nextBytes(random);
        dummyHash = hash(B64.encodeToString(random));
    }

    public String hash(String password) {
        byte[] salt = new byte[SALT_BYTES];
        RANDOM.nextBytes(salt);
        int m = passwordSettings.memoryKib();
        int t = passwordSettings.iterations();
        int p = passwordSettings.parallelism();
        byte[] hash = argon2(password, salt, m, t, p, HASH_BYTES, false);
        return "$argon2id$v=19$m=" + m + ",t=" + t + ",p=" + p + "$" + B64.encodeToString(salt) + "$"
                + B64.encodeToString(hash);
    }

    /** Constant-time verification; a malformed stored hash never matches. Throws {@link BusyException}. */
    public boolean verify(String password, String stored) {
        Matcher mt = stored == null ? null : PHC.matcher(stored);
        if (mt == null || !mt.matches()) {
            return false;
        }
        byte[] salt = B64D.decode(mt.group(4));
        byte[] expected = B64D.decode(mt.group(5));
        byte[] actual = argon2(password, salt, Integer.parseInt(mt.group(1)), Integer.parseInt(mt.group(2)),
                Integer.parseInt(mt.group(3)), expected.length, true);
        return MessageDigest.isEqual(expected, actual);
    }

    /** Spends the same work as {@link #verify} for a user that does not exist; always false. */
    public boolean verifyAgainstDummy(String password) {
        verify(password, dummyHash);
        return false;
    }

    /**
     * Whether a stored hash was made with other parameters than the configured ones. "Other", not "weaker": OWASP's
     * minimums trade memory for passes (19 MiB x 2 is as strong as 7 MiB x 5), so no single parameter says which is
     * stronger, and the operator's configuration is the policy.
     */
    public boolean needsRehash(String stored) {
        Matcher mt = stored == null ? null : PHC.matcher(stored);
        if (mt == null || !mt.matches()) {
            return true;
        }
        return Integer.parseInt(mt.group(1)) != passwordSettings.memoryKib()
                || Integer.parseInt(mt.group(2)) != passwordSettings.iterations()
                || Integer.parseInt(mt.group(3)) != passwordSettings.parallelism();
    }

    /** Free permits right now (for tests: all of them when no hash is running). */
    int permitsAvailable() {
        return permits.availablePermits();
    }

    private byte[] argon2(String password, byte[] salt, int memoryKib, int iterations, int parallelism, int length,
                          boolean bounded) {
        if (!bounded) {
            permits.acquireUninterruptibly();
        } else if (!tryAcquire()) {
            throw new BusyException();
        }
        try {
            return computeArgon2(password, salt, memoryKib, iterations, parallelism, length);
        } finally {
            permits.release();
        }
    }

    private boolean tryAcquire() {
        try {
            return permits.tryAcquire(signInWait.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private static byte[] computeArgon2(String password, byte[] salt, int memoryKib, int iterations, int parallelism,
                                        int length) {
        Argon2Parameters params = new Argon2Parameters.Builder(Argon2Parameters.ARGON2_id)
                .withVersion(Argon2Parameters.ARGON2_VERSION_13)
                .withSalt(salt).withMemoryAsKB(memoryKib).withIterations(iterations).withParallelism(parallelism)
                .build();
        Argon2BytesGenerator gen = new Argon2BytesGenerator();
        gen.init(params);
        byte[] out = new byte[length];
        gen.generateBytes(password.getBytes(StandardCharsets.UTF_8), out);
        return out;
    }
}
