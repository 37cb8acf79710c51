package dev.portcullis.declarative;

import dev.portcullis.persistence.Jdbc;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

/**
 * The one owner of configuration_import_lock: its single row, locked for the length of the transaction that applies a
 * configuration document, so that two instances (or an instance and an administrator) apply one after the other and
 * the second sees what the first committed. {@code SELECT ... FOR UPDATE} works alike on H2 and PostgreSQL.
 */
@ApplicationScoped
public class ConfigurationLockRepository {

    @Inject
    Jdbc jdbc;

    /** Waits until no other transaction holds the lock, then holds it until this transaction ends. */
    void lockForThisTransaction() {
        jdbc.requireTransaction();
        jdbc.one("SELECT name FROM configuration_import_lock WHERE name = ? FOR UPDATE", row -> row.string("name"),
                "configuration").orElseThrow(() -> new IllegalStateException("The configuration lock row is missing"));
    }
}
