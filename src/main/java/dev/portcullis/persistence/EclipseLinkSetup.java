package dev.portcullis.persistence;

import dev.portcullis.config.DatabaseSettings;
import org.eclipse.microprofile.config.ConfigProvider;
import org.eclipse.persistence.config.SessionCustomizer;
import org.eclipse.persistence.platform.server.NoServerPlatform;
import org.eclipse.persistence.platform.server.wildfly.WildFlyPlatform;
import org.eclipse.persistence.sessions.DatabaseLogin;
import org.eclipse.persistence.sessions.DatabaseSession;
import org.eclipse.persistence.sessions.JNDIConnector;
import org.eclipse.persistence.sessions.Session;
import org.eclipse.persistence.sessions.server.ServerSession;

/**
 * What persistence.xml cannot say the same way on every server (EclipseLink runs this before it first connects): on
 * WildFly, whose own JPA integration is Hibernate's, the JTA platform to join (EclipseLink recognises Payara by
 * itself; an {@code eclipselink.target-server} property would override that); and, with
 * {@code portcullis.db.jndi-name} set, the server's datasource to use instead of persistence.xml's, the one
 * {@link DataSourceProducer} gives the JDBC code too.
 */
public class EclipseLinkSetup implements SessionCustomizer {

    @Override
    public void customize(Session session) {
        DatabaseSession database = (DatabaseSession) session;
        if (database.getServerPlatform() instanceof NoServerPlatform && System.getProperty("jboss.home.dir") != null) {
            database.setServerPlatform(new WildFlyPlatform(database));
        }
        ConfigProvider.getConfig(EclipseLinkSetup.class.getClassLoader())
                .getOptionalValue(DatabaseSettings.JNDI_NAME, String.class)
                .map(String::trim).filter(n -> !n.isEmpty())
                .ifPresent(name -> {
                    JNDIConnector connector = new JNDIConnector(DataSourceProducer.lookup(name));
                    database.getLogin().setConnector(connector);
                    if (session instanceof ServerSession server
                            && server.getReadConnectionPool().getLogin() instanceof DatabaseLogin read) {
                        read.setConnector(connector);
                    }
                });
    }
}
