package dev.portcullis.persistence;

import dev.portcullis.config.IssuerSettings;
import jakarta.annotation.PostConstruct;
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
 * <p>The application's own datasource is defined here, pooled and enlisted in transactions by the server on every
 * server; its connections come from {@link ConfiguredDataSource}, which reads {@code PORTCULLIS_DB_*}, so one WAR
 * serves H2 and PostgreSQL. With {@code portcullis.db.jndi-name} set the application works on that server
 * datasource instead ({@link DataSourceProducer}) and this one stays unused: its pool opens nothing until asked.
 */
@DataSourceDefinition(
        name = DataSourceProducer.OWN,
        className = "dev.portcullis.persistence.ConfiguredDataSource",
        minPoolSize = 2,
        maxPoolSize = 32,
        properties = {"settings=portcullis.db",
                      "fish.payara.is-connection-validation-required=true",
                      "fish.payara.connection-validation-method=meta-data",
                      "fish.payara.fail-all-connections=true"})
@Startup
@Singleton
@TransactionManagement(TransactionManagementType.BEAN)
public class DatabaseMigration {

    private static final Logger LOG = Logger.getLogger(DatabaseMigration.class.getName());

    @Inject
    DataSource dataSource;

    @Inject
    IssuerSettings issuer;

    @PostConstruct
    void migrate() {
        LOG.info(() -> "Portcullis issuer " + issuer.issuerString());
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
