package dev.portcullis.jose;

import com.nimbusds.jose.jca.JCAAware;
import com.nimbusds.jose.jca.JCAContext;
import java.security.Provider;
import java.security.Security;
import java.util.Optional;
import java.util.logging.Logger;

/**
 * The one place that decides which JCA provider Nimbus signs and verifies with. By default the JDK's own; naming an
 * installed provider in {@code portcullis.jose.jca-provider} (e.g. a native one added to the server's classpath)
 * switches every signer and verifier to it. A named provider that is not installed falls back to the JDK with a
 * warning, so the same WAR runs on machines without the native library.
 */
final class JcaProviders {

    private static final Logger LOG = Logger.getLogger(JcaProviders.class.getName());

    private JcaProviders() {
    }

    static Optional<Provider> resolve(Optional<String> name) {
        if (name.isEmpty()) {
            return Optional.empty();
        }
        Provider p = Security.getProvider(name.get());
        if (p == null) {
            LOG.warning(() -> "JCA provider '" + name.get() + "' (portcullis.jose.jca-provider) is not installed; "
                    + "signing with the JDK's own provider");
            return Optional.empty();
        }
        LOG.info(() -> "JOSE signing uses JCA provider " + p.getName() + " " + p.getVersionStr());
        return Optional.of(p);
    }

    static <T extends JCAAware<JCAContext>> T apply(T signerOrVerifier, Optional<Provider> provider) {
        provider.ifPresent(p -> signerOrVerifier.getJCAContext().setProvider(p));
        return signerOrVerifier;
    }
}
