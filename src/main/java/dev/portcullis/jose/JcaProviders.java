package dev.portcullis.jose;

import com.amazon.corretto.crypto.provider.AmazonCorrettoCryptoProvider;
import com.nimbusds.jose.jca.JCAAware;
import com.nimbusds.jose.jca.JCAContext;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.NoSuchAlgorithmException;
import java.security.PrivateKey;
import java.security.Provider;
import java.security.Security;
import java.util.Optional;
import java.util.logging.Logger;

/**
 * The one place that decides which JCA provider Nimbus signs and verifies with ({@code portcullis.jose.jca-provider}):
 * <ul>
 * <li>unset or {@value #ACCP}: Amazon Corretto Crypto Provider (bundled in the WAR, native AWS-LC; ES256 ≈40×,
 * RS256 ≈1.7× faster than the JDK here, see docs/performance.md) when it works on this machine, else the JDK's own;
 * <li>{@value #JDK}: the JDK's own providers, always;
 * <li>any other name: that provider if installed in the JVM ({@code Security.getProvider}), else the JDK's own.
 * </ul>
 * ACCP is used as a provider <em>object</em>, never registered with {@code Security.addProvider}: the JVM-wide
 * provider list (TLS, SecureRandom, other applications) stays as it is.
 */
final class JcaProviders {

    static final String ACCP = "AmazonCorrettoCryptoProvider";
    static final String JDK = "JDK";

    private static final Logger LOG = Logger.getLogger(JcaProviders.class.getName());

    private JcaProviders() {
    }

    /** The provider to sign with; empty = the JDK's own. Logs the choice once per call (once per deployment). */
    static Optional<Provider> resolve(Optional<String> name) {
        Optional<Provider> chosen;
        if (name.isPresent() && name.get().equalsIgnoreCase(JDK)) {
            chosen = Optional.empty();
        } else if (name.isEmpty() || name.get().equals(ACCP)) {
            chosen = accp();
        } else {
            chosen = Optional.ofNullable(Security.getProvider(name.get()));
            if (chosen.isEmpty()) {
                LOG.warning(() -> "JCA provider '" + name.get() + "' (portcullis.jose.jca-provider) is not installed; "
                        + "using the JDK's own provider");
            }
        }
        LOG.info(() -> "JOSE signing uses " + chosen.map(p -> "JCA provider " + p.getName() + " " + p.getVersionStr())
                .orElse("the JDK's own JCA providers"));
        return chosen;
    }

    /**
     * ACCP if it is usable here: an ACCP installed JVM-wide by the server (then its classes and native library are
     * already loaded — use that one), else the copy in WEB-INF/lib, whose native library loads on first use and only
     * on Linux x86-64. Any failure (class missing, other CPU/OS, library already bound to another class loader,
     * failed self-test) means the JDK's provider, with one line in the log.
     */
    private static Optional<Provider> accp() {
        Provider installed = Security.getProvider(ACCP);
        if (installed != null) {
            return Optional.of(installed);
        }
        try {
            return BundledAccp.load();
        } catch (LinkageError | RuntimeException e) {
            LOG.info(() -> "Amazon Corretto Crypto Provider not available (" + e + "); using the JDK's own provider");
            return Optional.empty();
        }
    }

    /**
     * The only code that names ACCP's class, in its own class: without the jar, loading (verifying) this class fails
     * with NoClassDefFoundError, which {@link #accp()} catches; JcaProviders itself stays loadable.
     */
    private static final class BundledAccp {
        static Optional<Provider> load() {
            AmazonCorrettoCryptoProvider p = AmazonCorrettoCryptoProvider.INSTANCE;
            if (p.getLoadingError() != null) {
                LOG.info(() -> "Amazon Corretto Crypto Provider not usable on this machine (" + p.getLoadingError()
                        + "); using the JDK's own provider");
                return Optional.empty();
            }
            p.assertHealthy();
            return Optional.of(p);
        }
    }

    /**
     * The private key as {@code provider}'s own key object. Nimbus makes a new {@code Signature} per signature; given
     * a JDK key, ACCP converts it to its native form on every call (RS256 then gains nothing), so keys are translated
     * once, when loaded. Without a provider, or a provider without a KeyFactory for the algorithm, the key as is.
     */
    static PrivateKey translate(PrivateKey key, Optional<Provider> provider) throws GeneralSecurityException {
        if (provider.isEmpty()) {
            return key;
        }
        KeyFactory factory;
        try {
            factory = KeyFactory.getInstance(key.getAlgorithm(), provider.get());
        } catch (NoSuchAlgorithmException e) {
            return key;
        }
        return (PrivateKey) factory.translateKey(key);
    }

    static <T extends JCAAware<JCAContext>> T apply(T signerOrVerifier, Optional<Provider> provider) {
        provider.ifPresent(p -> signerOrVerifier.getJCAContext().setProvider(p));
        return signerOrVerifier;
    }
}
