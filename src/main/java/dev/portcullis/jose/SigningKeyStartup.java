package dev.portcullis.jose;

import jakarta.annotation.PostConstruct;
import jakarta.ejb.DependsOn;
import jakarta.ejb.Singleton;
import jakarta.ejb.Startup;
import jakarta.ejb.TransactionManagement;
import jakarta.ejb.TransactionManagementType;
import jakarta.inject.Inject;

/**
 * Loads the signing keys at deployment, after the migration: the first keys are created, rows stored in clear or
 * under a previous key-encryption key are encrypted under the current one, and a key that no configured
 * key-encryption key decrypts stops the deployment with a message naming the setting, before any request.
 */
@Startup
@Singleton
@DependsOn("DatabaseMigration")
@TransactionManagement(TransactionManagementType.BEAN) // each key write is its own transaction (SigningKeyRepository)
public class SigningKeyStartup {

    @Inject
    SigningKeyService keys;

    @PostConstruct
    void load() {
        keys.refresh();
    }
}
