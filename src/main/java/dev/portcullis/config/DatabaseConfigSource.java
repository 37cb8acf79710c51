package dev.portcullis.config;

import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import org.eclipse.microprofile.config.spi.ConfigSource;

/**
 * Derives the two database settings that the operator should not have to spell out: the default H2 URL (from
 * {@code portcullis.data-dir}) and the JDBC DataSource class (from the URL's scheme), which
 * {@code persistence.ConfiguredDataSource} reads, so setting only {@code PORTCULLIS_DB_URL} switches to PostgreSQL.
 *
 * <p>Config sources cannot consult the assembled Config, so this one reads the same places MicroProfile Config
 * would (system property, then environment variable) itself. Its ordinal is below the defaults file so an explicit
 * value anywhere wins.
 */
public class DatabaseConfigSource implements ConfigSource {

    static final String DATA_DIR = "portcullis.data-dir";
    static final String URL = "portcullis.db.url";
    static final String DATASOURCE_CLASS = "portcullis.db.datasource-class";
    static final String CONNECTION_URL = "portcullis.db.connection-url";

    @Override
    public Set<String> getPropertyNames() {
        return Set.of(URL, DATASOURCE_CLASS, CONNECTION_URL);
    }

    @Override
    public String getValue(String name) {
        return switch (name) {
            case URL -> defaultUrl();
            case DATASOURCE_CLASS -> dataSourceClass(lookup(URL, defaultUrl()));
            case CONNECTION_URL -> connectionUrl(lookup(URL, defaultUrl()));
            default -> null;
        };
    }

    @Override
    public Map<String, String> getProperties() {
        return Map.of(URL, getValue(URL), DATASOURCE_CLASS, getValue(DATASOURCE_CLASS),
                CONNECTION_URL, getValue(CONNECTION_URL));
    }

    @Override
    public String getName() {
        return "portcullis-derived-database-settings";
    }

    @Override
    public int getOrdinal() {
        return 50;
    }

    /**
     * H2 in a file under the data directory, opened by this server only: no AUTO_SERVER, which would open a TCP
     * listener (tests that read the file while the server runs pass their own URL with it; several instances share
     * PostgreSQL). QUERY_CACHE_SIZE: H2 keeps 8 parsed statements per connection by default, fewer than one code
     * flow uses, so every statement would be parsed again. CACHE_SIZE (KiB) and WRITE_DELAY (ms): H2 keeps its page
     * cache (16 MiB by default) and the pages written since its last store (every 500 ms by default) on the server's
     * heap, where under load they outlive young collections and fill the old generation; a 4 MiB cache and a store
     * every 100 ms keep them short lived, so the bounded heap needs far fewer full collections (docs/decisions.md).
     * The token path reads recent rows, which stay cached, and a crash loses at most 100 ms of commits.
     */
    static String defaultUrl() {
        return h2Url(Path.of(lookup(DATA_DIR, "./data")));
    }

    /** The default H2 URL for a data directory (also what the benchmark's H2 probe opens). */
    public static String h2Url(Path dataDir) {
        return "jdbc:h2:file:" + dataDir.toAbsolutePath().normalize().resolve("portcullis")
                + ";QUERY_CACHE_SIZE=64;CACHE_SIZE=4096;WRITE_DELAY=100";
    }

    /**
     * The URL the datasource opens: the configured one, plus for PostgreSQL a 30 s socket time-out unless the URL
     * sets {@code socketTimeout} itself, because the driver's default waits forever on a database that accepts
     * connections but never answers, holding every request thread that touches it (a pooled connection is
     * invalidated by the time-out and the request gets the clean 503).
     */
    static String connectionUrl(String url) {
        if (!url.startsWith("jdbc:postgresql:") || url.contains("socketTimeout=")) {
            return url;
        }
        return url + (url.contains("?") ? "&" : "?") + "socketTimeout=" + POSTGRES_SOCKET_TIMEOUT_SECONDS;
    }

    static final int POSTGRES_SOCKET_TIMEOUT_SECONDS = 30;

    static String dataSourceClass(String url) {
        if (url.startsWith("jdbc:postgresql:")) {
            return "org.postgresql.ds.PGSimpleDataSource";
        }
        if (url.startsWith("jdbc:h2:")) {
            return "org.h2.jdbcx.JdbcDataSource";
        }
        throw new ConfigurationException(URL, "must be a jdbc:postgresql: or jdbc:h2: URL");
    }

    private static String lookup(String key, String def) {
        String v = System.getProperty(key);
        if (v == null || v.isBlank()) {
            v = System.getenv(ConfigurationException.envName(key));
        }
        return v == null || v.isBlank() ? def : v.trim();
    }
}
