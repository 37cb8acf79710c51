package dev.portcullis.config;

import java.util.Optional;

/**
 * {@code portcullis.db.jndi-name}: the server-managed datasource to use instead of the application's own, if the
 * operator named one. The rest of {@code portcullis.db.*} is read by {@link DatabaseConfigSource}.
 */
public record DatabaseSettings(Optional<String> jndiName) {

    /** The JNDI name of a datasource the server manages; unset, Portcullis uses its own (PORTCULLIS_DB_URL). */
    public static final String JNDI_NAME = "portcullis.db.jndi-name";

    static DatabaseSettings load(PortcullisConfig.Source c) {
        Optional<String> jndiName = c.getOptionalValue(JNDI_NAME).map(String::trim).filter(s -> !s.isEmpty());
        jndiName.ifPresent(n -> PortcullisConfig.require(n.chars().noneMatch(Character::isWhitespace), JNDI_NAME,
                "must be a JNDI name such as java:jboss/datasources/Portcullis or jdbc/portcullis, got '" + n + "'"));
        return new DatabaseSettings(jndiName);
    }
}
