package dev.portcullis.bench;

import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.JWSObject;
import com.nimbusds.jose.JWSSigner;
import com.nimbusds.jose.JWSVerifier;
import com.nimbusds.jose.Payload;
import com.nimbusds.jose.crypto.ECDSASigner;
import com.nimbusds.jose.crypto.ECDSAVerifier;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jose.crypto.RSASSAVerifier;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.security.KeyFactory;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.Provider;
import java.security.Signature;
import java.security.interfaces.ECPrivateKey;
import java.security.interfaces.ECPublicKey;
import java.security.interfaces.RSAPublicKey;
import java.security.spec.ECGenParameterSpec;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.logging.Logger;

/**
 * Feasibility of Amazon Corretto Crypto Provider (ACCP) for Portcullis' token signing, measured through Nimbus JOSE
 * exactly as the token code would use it ({@code signer.getJCAContext().setProvider(provider)}): does it load on this
 * JDK and CPU, is it faster for RS256 and ES256, and do its signatures verify with the JDK's own provider?
 * Single thread, no JMH: warm-up then timed loops per case; numbers are CPU microseconds of the signing thread per
 * operation (best of 3 rounds), which a busy shared machine distorts far less than wall time.
 *
 * <p>Run: {@code mvn -Pbench -DskipTests test-compile exec:exec@accp-probe} (ACCP is on the class path only in the
 * bench profile). {@link #loadAccp()} is the clean-fallback pattern the production code can copy.
 */
public final class AccpProbe {

    private static final Logger LOG = Logger.getLogger(AccpProbe.class.getName());
    private static final String ACCP_CLASS = "com.amazon.corretto.crypto.provider.AmazonCorrettoCryptoProvider";

    private AccpProbe() {
    }

    /**
     * ACCP's provider if its class is on the class path AND its native library loaded on this machine (x86-64 /
     * aarch64 Linux); otherwise empty, and the caller keeps the JDK's providers. Never installs it globally.
     */
    static Optional<Provider> loadAccp() {
        try {
            Class<?> c = Class.forName(ACCP_CLASS);
            Provider p = (Provider) c.getField("INSTANCE").get(null);
            Object loadingError = c.getMethod("getLoadingError").invoke(p);
            if (loadingError != null) {
                LOG.warning("ACCP present but its native library did not load: " + loadingError);
                return Optional.empty();
            }
            c.getMethod("assertHealthy").invoke(p);
            return Optional.of(p);
        } catch (ClassNotFoundException e) {
            return Optional.empty();
        } catch (ReflectiveOperationException | LinkageError | RuntimeException e) {
            LOG.warning("ACCP unusable, falling back to the JDK provider: " + e);
            return Optional.empty();
        }
    }

    public static void main(String[] args) throws Exception {
        long t0 = System.nanoTime();
        Optional<Provider> accp = loadAccp();
        long loadMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
        LOG.info("Machine: " + BenchReport.machine() + ", load average " + BenchReport.loadAverage());
        LOG.info(accp.map(p -> "ACCP loaded in " + loadMillis + " ms: " + p.getName() + " " + p.getVersionStr()
                + " — " + p.getInfo()).orElse("ACCP NOT available: every figure below is the JDK provider"));

        KeyPairGenerator rsaGen = KeyPairGenerator.getInstance("RSA");
        rsaGen.initialize(2048);
        KeyPair rsa = rsaGen.generateKeyPair();
        KeyPairGenerator ecGen = KeyPairGenerator.getInstance("EC");
        ecGen.initialize(new ECGenParameterSpec("secp256r1"));
        KeyPair ec = ecGen.generateKeyPair();
        Payload payload = new Payload("x".repeat(300));

        StringBuilder table = new StringBuilder("\n| operation (CPU µs per op, best of 3 × 1 s) | JDK provider | ACCP | speed-up |\n|---|---:|---:|---:|\n");
        row(table, "Nimbus RS256 sign (RSA 2048)", accp,
                p -> nimbus(new RSASSASigner(rsa.getPrivate()), p, JWSAlgorithm.RS256, payload,
                        new RSASSAVerifier((RSAPublicKey) rsa.getPublic())));
        row(table, "Nimbus RS256 sign, key translated to ACCP once", accp,
                p -> nimbus(new RSASSASigner(native_(rsa.getPrivate(), "RSA", p)), p, JWSAlgorithm.RS256, payload,
                        new RSASSAVerifier((RSAPublicKey) rsa.getPublic())));
        row(table, "Nimbus ES256 sign (P-256)", accp,
                p -> nimbus(new ECDSASigner((ECPrivateKey) ec.getPrivate()), p, JWSAlgorithm.ES256, payload,
                        new ECDSAVerifier((ECPublicKey) ec.getPublic())));
        row(table, "Nimbus ES256 sign, key translated to ACCP once", accp,
                p -> nimbus(new ECDSASigner((ECPrivateKey) native_(ec.getPrivate(), "EC", p)), p, JWSAlgorithm.ES256,
                        payload, new ECDSAVerifier((ECPublicKey) ec.getPublic())));
        row(table, "JCA SHA256withRSA sign", accp, p -> jca("SHA256withRSA", rsa, p, payload.toBytes(), true));
        row(table, "JCA SHA256withECDSA sign", accp, p -> jca("SHA256withECDSA", ec, p, payload.toBytes(), true));
        row(table, "JCA SHA256withRSA verify", accp, p -> jca("SHA256withRSA", rsa, p, payload.toBytes(), false));
        row(table, "JCA SHA256withECDSA verify", accp, p -> jca("SHA256withECDSA", ec, p, payload.toBytes(), false));
        LOG.info(table.toString());
        LOG.info("Load average after: " + BenchReport.loadAverage());
    }

    /** The key as the provider's own key object (once, at key-load time), so no sign call converts it again. */
    private static PrivateKey native_(PrivateKey key, String algorithm, Provider provider) throws Exception {
        return provider == null ? key : (PrivateKey) KeyFactory.getInstance(algorithm, provider).translateKey(key);
    }

    interface Case {
        double microsPerOp(Provider provider) throws Exception;
    }

    private static void row(StringBuilder table, String name, Optional<Provider> accp, Case c) throws Exception {
        double jdk = c.microsPerOp(null);
        String accpCell = "–";
        String speedup = "–";
        if (accp.isPresent()) {
            double a = c.microsPerOp(accp.get());
            accpCell = String.format(Locale.ROOT, "%.1f", a);
            speedup = String.format(Locale.ROOT, "%.1f×", jdk / a);
        }
        table.append(String.format(Locale.ROOT, "| %s | %.1f | %s | %s |%n", name, jdk, accpCell, speedup));
    }

    /** Signs through Nimbus with the given JCA provider (null = JDK default); checks with the JDK's verifier. */
    private static double nimbus(JWSSigner signer, Provider provider, JWSAlgorithm alg, Payload payload,
                                 JWSVerifier jdkVerifier) throws Exception {
        if (provider != null) {
            signer.getJCAContext().setProvider(provider);
        }
        JWSHeader header = new JWSHeader.Builder(alg).keyID("k1").build();
        JWSObject check = new JWSObject(header, payload);
        check.sign(signer);
        if (!JWSObject.parse(check.serialize()).verify(jdkVerifier)) {
            throw new IllegalStateException(alg + " signature from " + provider + " does not verify with the JDK");
        }
        return timed(() -> {
            JWSObject o = new JWSObject(header, payload);
            o.sign(signer);
            return o.serialize().length();
        });
    }

    private static double jca(String algorithm, KeyPair keys, Provider provider, byte[] data, boolean sign)
            throws Exception {
        Signature s = provider == null ? Signature.getInstance(algorithm) : Signature.getInstance(algorithm, provider);
        s.initSign(keys.getPrivate());
        s.update(data);
        byte[] sig = s.sign();
        if (sign) {
            return timed(() -> {
                s.initSign(keys.getPrivate());
                s.update(data);
                return s.sign().length;
            });
        }
        return timed(() -> {
            s.initVerify(keys.getPublic());
            s.update(data);
            if (!s.verify(sig)) {
                throw new IllegalStateException("does not verify");
            }
            return 1;
        });
    }

    interface Op {
        int run() throws Exception;
    }

    /**
     * 1 s warm-up, then 3 rounds of 1 s; per round the CPU time of this thread per operation (steadier than wall time
     * on a shared machine), and the best round is returned. Wall time per operation is kept for the log.
     */
    private static double timed(Op op) throws Exception {
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        long sink = 0;
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(1);
        while (System.nanoTime() < end) {
            sink += op.run();
        }
        double best = Double.MAX_VALUE;
        for (int round = 0; round < 3; round++) {
            long n = 0;
            long cpu0 = mx.getCurrentThreadCpuTime();
            long start = System.nanoTime();
            end = start + TimeUnit.SECONDS.toNanos(1);
            long now;
            do {
                sink += op.run();
                n++;
                now = System.nanoTime();
            } while (now < end);
            double cpuMicros = (mx.getCurrentThreadCpuTime() - cpu0) / 1000.0 / n;
            double wallMicros = (now - start) / 1000.0 / n;
            LOG.fine(String.format(Locale.ROOT, "round %d: %.1f µs CPU, %.1f µs wall per op", round, cpuMicros, wallMicros));
            best = Math.min(best, cpuMicros);
        }
        if (sink == 42) {
            LOG.fine("sink");
        }
        return best;
    }
}
