package dev.portcullis.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Locale;
import java.util.logging.Logger;
import org.bouncycastle.crypto.generators.Argon2BytesGenerator;
import org.bouncycastle.crypto.params.Argon2Parameters;

/**
 * The yardstick of the sign-in scenario: one Argon2id hash alone, with Portcullis's default parameters
 * ({@code portcullis.password.argon2.*}: 7 MiB, 5 passes, 1 lane, 32 bytes) and the same Bouncy Castle call as
 * {@code PasswordHasher}, in a JVM started with the server's JVM options (so with their Argon2 inlining command).
 * Single thread; after a warm-up that lets C2 compile the round function, it prints the median and p90 wall time and
 * the median CPU time of the hashing thread. The bench's sign-in p50 (the login POST) is compared with this median.
 *
 * <p>Run: {@code mvn -Pbench -DskipTests test-compile exec:exec@argon2-probe} (about 20 s of one core).
 */
public final class Argon2Probe {

    private static final Logger LOG = Logger.getLogger(Argon2Probe.class.getName());
    static final int MEMORY_KIB = 7_168;
    static final int ITERATIONS = 5;
    static final int PARALLELISM = 1;
    private static final int WARMUP = 150;
    private static final int MEASURED = 100;

    private Argon2Probe() {
    }

    public static void main(String[] args) {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        SecureRandom random = new SecureRandom();
        byte[] password = "correct horse battery staple".getBytes(StandardCharsets.UTF_8);
        for (int i = 0; i < WARMUP; i++) {
            hash(password, salt(random));
        }
        long[] wall = new long[MEASURED];
        long[] cpu = new long[MEASURED];
        for (int i = 0; i < MEASURED; i++) {
            byte[] salt = salt(random);
            long c0 = threads.getCurrentThreadCpuTime();
            long t0 = System.nanoTime();
            hash(password, salt);
            wall[i] = System.nanoTime() - t0;
            cpu[i] = threads.getCurrentThreadCpuTime() - c0;
        }
        Arrays.sort(wall);
        Arrays.sort(cpu);
        LOG.info(String.format(Locale.ROOT, "Argon2id m=%d KiB t=%d p=%d, one thread, %d hashes after %d warm-up: "
                        + "wall p50 %.2f ms, p90 %.2f ms; CPU p50 %.2f ms", MEMORY_KIB, ITERATIONS, PARALLELISM,
                MEASURED, WARMUP, wall[MEASURED / 2] / 1e6, wall[MEASURED * 9 / 10] / 1e6, cpu[MEASURED / 2] / 1e6));
    }

    private static byte[] salt(SecureRandom random) {
        byte[] salt = new byte[16];
        random.nextBytes(salt);
        return salt;
    }

    private static byte[] hash(byte[] password, byte[] salt) {
        Argon2Parameters params = new Argon2Parameters.Builder(Argon2Parameters.ARGON2_id)
                .withVersion(Argon2Parameters.ARGON2_VERSION_13)
                .withSalt(salt).withMemoryAsKB(MEMORY_KIB).withIterations(ITERATIONS).withParallelism(PARALLELISM)
                .build();
        Argon2BytesGenerator gen = new Argon2BytesGenerator();
        gen.init(params);
        byte[] out = new byte[32];
        gen.generateBytes(password, out);
        return out;
    }
}
