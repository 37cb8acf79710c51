package dev.portcullis.mfa;

import jakarta.annotation.PostConstruct;
import jakarta.ejb.DependsOn;
import jakarta.ejb.Singleton;
import jakarta.ejb.Startup;
import jakarta.ejb.TransactionManagement;
import jakarta.ejb.TransactionManagementType;
import jakarta.inject.Inject;
import java.util.logging.Logger;

/**
 * Re-seals the authenticator seeds at deployment, after the migration, as the signing keys are: seeds found under a
 * previous key-encryption key are encrypted under the current one, and a seed that no configured key decrypts stops
 * the deployment with a message naming the setting, before any request.
 */
@Startup
@Singleton
@DependsOn("DatabaseMigration")
@TransactionManagement(TransactionManagementType.BEAN) // each row's UPDATE commits on its own (SecondFactorService)
public class AuthenticatorSeedStartup {

    private static final Logger LOG = Logger.getLogger(AuthenticatorSeedStartup.class.getName());

    @Inject
    SecondFactorService factors;

    @PostConstruct
    void reseal() {
        int n = factors.resealSeeds();
        if (n > 0) {
            LOG.info(() -> n + " authenticator seed(s) are now encrypted under the current key-encryption key");
        }
    }
}
