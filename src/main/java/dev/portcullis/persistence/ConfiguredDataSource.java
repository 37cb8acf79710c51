package dev.portcullis.persistence;

import java.io.PrintWriter;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.util.logging.Logger;
import javax.sql.DataSource;
import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.ConfigProvider;

/**
 * The connection factory behind the application's own pooled datasource ({@code @DataSourceDefinition} in
 * {@link DatabaseMigration}): the server instantiates this class by name, pools and enlists the connections it opens,
 * and this class opens them with the driver DataSource that {@code portcullis.db.*} name (H2 by default,
 * PostgreSQL with {@code PORTCULLIS_DB_URL}). Reading the settings here, not in the annotation, is what makes the
 * definition portable: only Payara resolves {@code ${MPCONFIG=...}} inside annotations.
 */
public class ConfiguredDataSource implements DataSource {

    private String settings = "portcullis.db";
    private volatile DataSource driver;
    private PrintWriter logWriter;
    private int loginTimeout;

    /**
     * The prefix of the settings to read ({@code portcullis.db}); a property of the definition because WildFly refuses
     * a datasource class that it can set none on.
     */
    public void setSettings(String prefix) {
        settings = prefix;
    }

    public String getSettings() {
        return settings;
    }

    /** The driver's DataSource, built from the configuration at the first connection. */
    private DataSource driver() throws SQLException {
        DataSource d = driver;
        if (d == null) {
            synchronized (this) {
                if (driver == null) {
                    Config config = ConfigProvider.getConfig(ConfiguredDataSource.class.getClassLoader());
                    driver = create(config.getValue(settings + ".datasource-class", String.class),
                            config.getValue(settings + ".connection-url", String.class),
                            config.getOptionalValue(settings + ".user", String.class).orElse(null),
                            config.getOptionalValue(settings + ".password", String.class).orElse(null));
                }
                d = driver;
            }
        }
        return d;
    }

    /** A driver DataSource of class {@code className}, set up through its JavaBean setters as servers do. */
    static DataSource create(String className, String url, String user, String password) throws SQLException {
        try {
            Object ds = Class.forName(className, true, ConfiguredDataSource.class.getClassLoader())
                    .getDeclaredConstructor().newInstance();
            set(ds, url, "setURL", "setUrl");
            if (user != null) {
                set(ds, user, "setUser");
            }
            if (password != null) {
                set(ds, password, "setPassword");
            }
            return (DataSource) ds;
        } catch (ReflectiveOperationException | ClassCastException e) {
            throw new SQLException("Cannot set up the datasource class " + className
                    + " (portcullis.db.datasource-class): " + e, e);
        }
    }

    private static void set(Object bean, String value, String... setterNames) throws ReflectiveOperationException {
        for (String name : setterNames) {
            Method setter;
            try {
                setter = bean.getClass().getMethod(name, String.class);
            } catch (NoSuchMethodException e) {
                continue;
            }
            try {
                setter.invoke(bean, value);
            } catch (InvocationTargetException e) {
                throw new IllegalArgumentException(name + " refused its value: " + e.getCause(), e.getCause());
            }
            return;
        }
        throw new NoSuchMethodException(bean.getClass().getName() + " has none of " + String.join(", ", setterNames));
    }

    @Override
    public Connection getConnection() throws SQLException {
        return driver().getConnection();
    }

    /** WildFly's pool asks with the definition's user, which is empty here: then the configured one. */
    @Override
    public Connection getConnection(String username, String password) throws SQLException {
        return username == null || username.isEmpty() ? driver().getConnection()
                : driver().getConnection(username, password);
    }

    @Override
    public PrintWriter getLogWriter() {
        return logWriter;
    }

    @Override
    public void setLogWriter(PrintWriter out) {
        logWriter = out;
    }

    @Override
    public void setLoginTimeout(int seconds) {
        loginTimeout = seconds;
    }

    @Override
    public int getLoginTimeout() {
        return loginTimeout;
    }

    @Override
    public Logger getParentLogger() throws SQLFeatureNotSupportedException {
        throw new SQLFeatureNotSupportedException();
    }

    @Override
    public <T> T unwrap(Class<T> iface) throws SQLException {
        if (iface.isInstance(this)) {
            return iface.cast(this);
        }
        return driver().unwrap(iface);
    }

    @Override
    public boolean isWrapperFor(Class<?> iface) throws SQLException {
        return iface.isInstance(this) || driver().isWrapperFor(iface);
    }
}
