package dev.portcullis.persistence;

import dev.portcullis.config.ConfigurationException;
import dev.portcullis.config.DatabaseSettings;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Inject;
import javax.naming.InitialContext;
import javax.naming.NamingException;
import javax.sql.DataSource;

/**
 * Which datasource the application works on: the one the server manages under {@code portcullis.db.jndi-name}, if
 * the operator named one, else the application's own ({@link #OWN}, defined by {@link DatabaseMigration} from
 * {@code PORTCULLIS_DB_*}). JPA follows the same choice ({@link EclipseLinkSetup}).
 */
@ApplicationScoped
public class DataSourceProducer {

    /** The application's own datasource (persistence.xml's jta-data-source). */
    public static final String OWN = "java:app/jdbc/portcullis";

    @Inject
    DatabaseSettings databaseSettings;

    private volatile DataSource dataSource;

    /** Looked up once; a name that resolves to no datasource stops the start with a message naming the setting. */
    @Produces
    DataSource dataSource() {
        DataSource ds = dataSource;
        if (ds == null) {
            ds = dataSource = lookup(databaseSettings.jndiName().orElse(OWN));
        }
        return ds;
    }

    static DataSource lookup(String name) {
        try {
            return (DataSource) new InitialContext().lookup(name);
        } catch (NamingException | ClassCastException e) {
            throw new ConfigurationException(DatabaseSettings.JNDI_NAME,
                    "names no datasource of this server: " + name + " (" + e + ")");
        }
    }
}
