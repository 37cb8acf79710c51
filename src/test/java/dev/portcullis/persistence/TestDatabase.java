package dev.portcullis.persistence;

import jakarta.transaction.Status;
import jakarta.transaction.Synchronization;
import jakarta.transaction.TransactionSynchronizationRegistry;
import java.util.HashMap;
import java.util.Map;
import org.flywaydb.core.Flyway;
import org.h2.jdbcx.JdbcDataSource;

/**
 * A {@link Jdbc} on a fresh in-memory H2 with the real migrations applied, for unit tests of the JDBC table owners.
 * {@link #inTransaction} switches between "inside a JTA transaction" (one connection for every statement, as in the
 * server; statements still auto-commit) and "outside one".
 */
public final class TestDatabase implements TransactionSynchronizationRegistry {

    public final Jdbc jdbc = new Jdbc();
    public boolean inTransaction;
    private final Map<Object, Object> resources = new HashMap<>();

    public TestDatabase() {
        JdbcDataSource ds = new JdbcDataSource();
        ds.setURL("jdbc:h2:mem:owners-" + System.nanoTime() + ";MODE=LEGACY;DB_CLOSE_DELAY=-1");
        Flyway.configure(TestDatabase.class.getClassLoader()).dataSource(ds).locations("classpath:db/migration")
                .load().migrate();
        jdbc.dataSource = ds;
        jdbc.transactions = this;
    }

    @Override
    public Object getTransactionKey() {
        return inTransaction ? this : null;
    }

    @Override
    public void putResource(Object key, Object value) {
        resources.put(key, value);
    }

    @Override
    public Object getResource(Object key) {
        return resources.get(key);
    }

    @Override
    public void registerInterposedSynchronization(Synchronization sync) {
        // the in-memory database goes away with the test; nothing to close at "commit"
    }

    @Override
    public int getTransactionStatus() {
        return inTransaction ? Status.STATUS_ACTIVE : Status.STATUS_NO_TRANSACTION;
    }

    @Override
    public void setRollbackOnly() {
        throw new UnsupportedOperationException();
    }

    @Override
    public boolean getRollbackOnly() {
        return false;
    }
}
