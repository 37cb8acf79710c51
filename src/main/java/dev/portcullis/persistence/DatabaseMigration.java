package dev.portcullis.persistence;

import dev.portcullis.config.PortcullisConfig;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.Resource;
import jakarta.annotation.sql.DataSourceDefinition;
import jakarta.ejb.Singleton;
import jakarta.ejb.Startup;
import jakarta.ejb.TransactionManagement;
import jakarta.ejb.TransactionManagementType;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.logging.Logger;
import javax.sql.DataSource;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.output.MigrateResult;

/**
 * Validates the configuration and migrates the schema before the application serves anything. Every instance runs
 * it at start; Flyway's lock makes concurrent starts against one database safe, and a second start migrates nothing.
 *
 * <p>The datasource is defined here so one WAR serves H2 and PostgreSQL: Payara resolves {@code ${MPCONFIG=...}}
 * at deployment. On other servers (WildFly) define {@code java:app/jdbc/portcullis} in the server instead, see
 * server-config/.
 */
@DataSourceDefinition(
        name = "java:app/jdbc/portcullis",
        className = "${MPCONFIG=portcullis.db.datasource-class}",
        url = "${MPCONFIG=portcullis.db.connection-url}",
        user = "${MPCONFIG=portcullis.db.user}",
        password = "${MPCONFIG=portcullis.db.password}",
        minPoolSize = 2,
        maxPoolSize = 32,
        properties = {"fish.payara.is-connection-validation-required=true",
                      "fish.payara.connection-validation-method=meta-data",
                      "fish.payara.fail-all-connections=true"})
@Startup
@Singleton
@TransactionManagement(TransactionManagementType.BEAN)
public class DatabaseMigration {

    private static final Logger LOG = Logger.getLogger(DatabaseMigration.class.getName());

    @Resource(lookup = "java:app/jdbc/portcullis")
    DataSource dataSource;

    @Inject
    PortcullisConfig config;

    @PostConstruct
    void migrate() {
        LOG.info(() -> "Portcullis issuer " + config.issuerString());
        LOG.info(() -> "Portcullis database: " + describe(dataSource));
        MigrateResult result = Flyway.configure(DatabaseMigration.class.getClassLoader())
                .dataSource(dataSource)
                .locations("classpath:db/migration")
                .load()
                .migrate();
        LOG.info(() -> result.migrationsExecuted == 0
                ? "Database schema is up to date (version " + result.targetSchemaVersion + ")"
                : "Database schema migrated to version " + result.targetSchemaVersion
                        + " (" + result.migrationsExecuted + " migrations)");
    }

    private static String describe(DataSource ds) {
        try (Connection c = ds.getConnection()) {
            String url = c.getMetaData().getURL();
            int semicolon = url.indexOf(';');
            int query = url.indexOf('?');
            // never log credentials that a URL may carry as parameters
            int cut = semicolon >= 0 ? semicolon : query >= 0 ? query : url.length();
            return url.substring(0, cut) + " (" + c.getMetaData().getDatabaseProductName() + " "
                    + c.getMetaData().getDatabaseProductVersion() + ")";
        } catch (SQLException e) {
            return "unreachable: " + e.getMessage();
        }
    }
}
