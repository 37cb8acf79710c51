package dev.portcullis.account;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.persistence.EntityManager;
import jakarta.persistence.EntityManagerFactory;
import jakarta.persistence.Persistence;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import javax.sql.DataSource;
import org.eclipse.persistence.config.SessionCustomizer;
import org.eclipse.persistence.sessions.Session;
import org.flywaydb.core.Flyway;
import org.h2.jdbcx.JdbcDataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The persistence unit's cache rules on a real EclipseLink and H2 (outside a server, resource-local): the per-request
 * read ({@link UserRepository#findCached}) is answered from the cache while its entry is young, every other read goes
 * to the database and refreshes the entry, and a change committed through the unit replaces it at once.
 */
class CachedReadsTest {

    private final AtomicInteger statements = new AtomicInteger();
    private EntityManagerFactory factory;
    private EntityManager em;
    private UserRepository users;

    @BeforeEach
    void unit() {
        JdbcDataSource h2 = new JdbcDataSource();
        h2.setURL("jdbc:h2:mem:cache-" + System.nanoTime() + ";MODE=LEGACY;DB_CLOSE_DELAY=-1");
        Flyway.configure(CachedReadsTest.class.getClassLoader()).dataSource(h2).locations("classpath:db/migration")
                .load().migrate();
        factory = Persistence.createEntityManagerFactory("portcullis", Map.of(
                "jakarta.persistence.transactionType", "RESOURCE_LOCAL",
                "jakarta.persistence.jtaDataSource", "",
                "jakarta.persistence.nonJtaDataSource", counting(h2),
                "eclipselink.target-server", "None",
                "eclipselink.session.customizer", NoServerSetup.class.getName()));
        em = factory.createEntityManager();
        users = new UserRepository();
        users.em = em;
        em.getTransaction().begin();
        User u = new User("u-1", "alice", null, null, "hash", Instant.EPOCH);
        users.add(u);
        em.getTransaction().commit();
        em.clear();
    }

    @AfterEach
    void close() {
        em.close();
        factory.close();
    }

    @Test
    void theRequestReadIsAnsweredFromTheCacheAndEveryOtherReadFromTheDatabase() {
        String id = users.findByUsername("alice").orElseThrow().userId();
        int before = statements.get();
        assertEquals("alice", users.findCached(id).orElseThrow().username());
        assertEquals("alice", users.findCached(id).orElseThrow().username());
        assertEquals(before, statements.get(), "findCached of a young entry sends no statement");

        users.findById(id).orElseThrow();
        users.findByUsername("alice").orElseThrow();
        assertEquals(before + 2, statements.get(), "findById and findByUsername always read the row");
    }

    @Test
    void aCommittedChangeReplacesTheEntryAtOnce() {
        String id = users.findByUsername("alice").orElseThrow().userId();
        assertTrue(users.findCached(id).orElseThrow().enabled());
        em.getTransaction().begin();
        users.findForChange("alice").orElseThrow().changeEnabled(false, Instant.EPOCH);
        em.getTransaction().commit();
        assertEquals(false, users.findCached(id).orElseThrow().enabled());
    }

    /** Outside a server there is no server platform or JNDI name to set up (what EclipseLinkSetup does). */
    public static final class NoServerSetup implements SessionCustomizer {
        @Override
        public void customize(Session session) {
        }
    }

    /** {@code target} counting the statements prepared on its connections. */
    private DataSource counting(DataSource target) {
        return (DataSource) Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[] {DataSource.class},
                (proxy, method, args) -> {
                    Object result = method.invoke(target, args);
                    if (result instanceof Connection c) {
                        return Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[] {Connection.class},
                                (p, m, a) -> {
                                    if (m.getName().startsWith("prepare")) {
                                        statements.incrementAndGet();
                                    }
                                    return m.invoke(c, a);
                                });
                    }
                    return result;
                });
    }
}
