package dev.portcullis.persistence;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.transaction.Synchronization;
import jakarta.transaction.TransactionSynchronizationRegistry;
import java.util.List;
import org.h2.jdbcx.JdbcDataSource;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@link Jdbc}'s row reading outside a transaction, on an in-memory H2: columns by name resolve to the right
 * positions (also for aliases and for the second of two statements over the same table), NULL stays null, and a name
 * the query does not select fails like the driver's own lookup.
 */
class JdbcTest {

    private final Jdbc jdbc = new Jdbc();

    @BeforeEach
    void database() {
        JdbcDataSource ds = new JdbcDataSource();
        ds.setURL("jdbc:h2:mem:jdbc-test-" + System.nanoTime() + ";DB_CLOSE_DELAY=-1");
        jdbc.dataSource = ds;
        jdbc.transactions = new NoTransaction();
        jdbc.update("CREATE TABLE t (id VARCHAR(10) PRIMARY KEY, n BIGINT, flag BOOLEAN, note VARCHAR(20))");
        jdbc.update("INSERT INTO t (id, n, flag, note) VALUES (?, ?, ?, ?)", "a", 7L, true, null);
        jdbc.update("INSERT INTO t (id, n, flag, note) VALUES (?, ?, ?, ?)", "b", 9L, false, "hello");
    }

    @Test
    void readsColumnsByNameWhateverTheirOrder() {
        String sql = "SELECT note, flag, n, id FROM t WHERE id = ?";
        for (int round = 0; round < 2; round++) { // the second round uses the cached positions
            List<Object> a = jdbc.one(sql, r -> List.<Object>of(r.string("id"), r.longValue("n"), r.bool("flag"),
                    String.valueOf(r.string("note")), String.valueOf(r.nullableLong("n"))), "a").orElseThrow();
            assertEquals(List.of("a", 7L, true, "null", "7"), a);
            List<Object> b = jdbc.one(sql, r -> List.<Object>of(r.string("id"), r.longValue("n"), r.bool("flag"),
                    r.string("note")), "b").orElseThrow();
            assertEquals(List.of("b", 9L, false, "hello"), b);
        }
    }

    @Test
    void aliasesAndAnotherStatementOverTheSameTableHaveTheirOwnPositions() {
        assertEquals("hello", jdbc.one("SELECT n AS x, note AS label FROM t WHERE id = ?",
                r -> r.string("label"), "b").orElseThrow());
        assertEquals(9L, jdbc.one("SELECT note, n AS x FROM t WHERE id = ?", r -> r.longValue("x"), "b").orElseThrow());
        assertEquals("null", jdbc.one("SELECT id, note FROM t WHERE id = ?",
                r -> String.valueOf(r.nullableLong("note")), "a").orElseThrow());
    }

    @Test
    void aColumnTheQueryDoesNotSelectIsAnError() {
        Jdbc.PersistenceFailure e = assertThrows(Jdbc.PersistenceFailure.class,
                () -> jdbc.one("SELECT id FROM t WHERE id = ?", r -> r.string("note"), "a"));
        assertTrue(e.getCause().getMessage().toLowerCase().contains("note"), e.getCause().getMessage());
    }

    @Test
    void chunkedDeleteRemovesEveryMatchingRowInChunksAndNothingElse() {
        int matching = 2 * Jdbc.DELETE_CHUNK + 3; // two full chunks and a partial one
        jdbc.update("INSERT INTO t (id, n) SELECT 'x' || X, X FROM SYSTEM_RANGE(1, ?)", matching);
        assertEquals(matching, jdbc.deleteInChunks("t", "id", "n <= ? AND id LIKE 'x%'", (long) matching));
        assertEquals(2L, jdbc.one("SELECT COUNT(*) AS c FROM t", r -> r.longValue("c")).orElseThrow());
        assertEquals(2L, jdbc.one("SELECT COUNT(*) AS c FROM t WHERE id IN ('a', 'b')", r -> r.longValue("c"))
                .orElseThrow(), "the rows the condition does not select are untouched");
        assertEquals(0, jdbc.deleteInChunks("t", "id", "n > ?", 100L), "nothing left to delete");
    }

    @Test
    void chunkedDeleteRefusesToJoinATransaction() {
        jdbc.transactions = new NoTransaction() {
            @Override
            public Object getTransactionKey() {
                return "a transaction";
            }
        };
        assertThrows(IllegalStateException.class, () -> jdbc.deleteInChunks("t", "id", "n > ?", 0L));
        jdbc.transactions = new NoTransaction();
        assertEquals(2L, jdbc.one("SELECT COUNT(*) AS c FROM t", r -> r.longValue("c")).orElseThrow());
    }

    /** Outside a JTA transaction: what the registry answers when no transaction is active. */
    private static class NoTransaction implements TransactionSynchronizationRegistry {
        @Override
        public Object getTransactionKey() {
            return null;
        }

        @Override
        public void putResource(Object key, Object value) {
            throw new IllegalStateException("no transaction");
        }

        @Override
        public Object getResource(Object key) {
            throw new IllegalStateException("no transaction");
        }

        @Override
        public void registerInterposedSynchronization(Synchronization sync) {
            throw new IllegalStateException("no transaction");
        }

        @Override
        public int getTransactionStatus() {
            return jakarta.transaction.Status.STATUS_NO_TRANSACTION;
        }

        @Override
        public void setRollbackOnly() {
            throw new IllegalStateException("no transaction");
        }

        @Override
        public boolean getRollbackOnly() {
            throw new IllegalStateException("no transaction");
        }
    }
}
