package dev.portcullis.health;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.portcullis.config.ConfigurationException;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.SQLTransientConnectionException;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;

/** The readiness verdict on the database: the simple name of what failed, never an exception out of the check. */
class HealthServletTest {

    @Test
    void aDatasourceNotYetBoundIsDownNotAnException() {
        assertEquals("ConfigurationException", HealthServlet.databaseError(() -> {
            throw new ConfigurationException("portcullis.db.jndi-name", "names no datasource of this server: x");
        }));
    }

    @Test
    void aDatabaseThatRefusesConnectionsIsDownNamingTheFailureOnly() {
        assertEquals("SQLTransientConnectionException", HealthServlet.databaseError(() -> dataSource(
                new SQLTransientConnectionException("host db.internal:5432 refused"), true)));
    }

    @Test
    void aConnectionThatIsNotValidIsDown() {
        assertEquals("SQLException", HealthServlet.databaseError(() -> dataSource(null, false)));
    }

    @Test
    void aValidConnectionIsUp() {
        assertNull(HealthServlet.databaseError(() -> dataSource(null, true)));
    }

    /** A datasource whose connections fail with {@code failure}, or are (in)valid. */
    private static DataSource dataSource(Exception failure, boolean valid) {
        Connection connection = (Connection) Proxy.newProxyInstance(Connection.class.getClassLoader(),
                new Class<?>[] {Connection.class}, (proxy, method, args) -> switch (method.getName()) {
                    case "isValid" -> valid;
                    case "close" -> null;
                    default -> throw new UnsupportedOperationException(method.getName());
                });
        return (DataSource) Proxy.newProxyInstance(DataSource.class.getClassLoader(),
                new Class<?>[] {DataSource.class}, (proxy, method, args) -> {
                    if (!method.getName().equals("getConnection")) {
                        throw new UnsupportedOperationException(method.getName());
                    }
                    if (failure != null) {
                        throw failure;
                    }
                    return connection;
                });
    }
}
