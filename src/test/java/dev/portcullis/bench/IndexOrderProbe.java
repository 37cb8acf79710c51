package dev.portcullis.bench;

import dev.portcullis.config.DatabaseConfigSource;
import dev.portcullis.crypto.Secrets;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Comparator;
import java.util.Locale;
import java.util.function.Supplier;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.flywaydb.core.Flyway;

/**
 * What the key order of the token tables costs the embedded database: the statements of one refresh (find the
 * presented token, mark it used, insert the access-token record, the next refresh token and the audit row, commit)
 * against tables that already hold {@code preload} refreshes, with rows keyed by random hashes (before schema V3) or by
 * time-ordered UUIDv7 ids (since V3). One thread on H2's file store; the figure is the thread's CPU microseconds per
 * refresh over the measured part, which a busy shared machine distorts far less than the server bench's flows/s.
 *
 * <p>Run: {@code mvn -Pbench -DskipTests test-compile exec:exec@index-order-probe} (optional arguments: the preloads
 * and the measured refreshes, e.g. {@code -Dprobe.args="200000,800000 50000"}).
 */
public final class IndexOrderProbe {

    /** Flyway's INFO lines would interleave with the table; kept here so the setting is not garbage-collected. */
    private static final Logger FLYWAY_LOG = Logger.getLogger("org.flywaydb");

    private IndexOrderProbe() {
    }

    public static void main(String[] args) throws Exception {
        FLYWAY_LOG.setLevel(Level.WARNING);
        String[] a = String.join(" ", args).trim().split("\\s+"); // Maven passes "preloads measured" as one argument
        String[] preloads = (a[0].isEmpty() ? "20000,200000,800000" : a[0]).split(",");
        int measured = a.length > 1 ? Integer.parseInt(a[1]) : 50_000;
        System.out.println("| rows before | random hash keys: µs CPU per refresh | UUIDv7 keys: µs CPU per refresh |");
        System.out.println("|---:|---:|---:|");
        for (String p : preloads) {
            int preload = Integer.parseInt(p.trim());
            double random = run(() -> Secrets.hash(Secrets.newSecret()), preload, measured);
            double ordered = run(Secrets::newTimeOrderedId, preload, measured);
            System.out.printf(Locale.ROOT, "| %,d | %.1f | %.1f |%n", preload, random, ordered);
        }
    }

    /** CPU µs of this thread per refresh, after {@code preload} refreshes, in a fresh database. */
    private static double run(Supplier<String> newKey, int preload, int measured) throws Exception {
        Path dir = Files.createTempDirectory("portcullis-index-order");
        String url = DatabaseConfigSource.h2Url(dir); // the server's default settings
        createSchema(url);
        try (Connection c = DriverManager.getConnection(url)) {
            c.setAutoCommit(false);
            PreparedStatement find = c.prepareStatement("SELECT r.used_at, g.client_id FROM refresh_tokens r "
                    + "JOIN token_grants g ON g.grant_id = r.grant_id WHERE r.token_id = ?");
            PreparedStatement markUsed = c.prepareStatement(
                    "UPDATE refresh_tokens SET used_at = ? WHERE token_id = ? AND used_at IS NULL");
            PreparedStatement accessToken = c.prepareStatement("INSERT INTO access_tokens (jti, grant_id, scope, "
                    + "created_at, expires_at, revoked_at, token_hash) VALUES (?,?,'openid profile',?,?,NULL,?)");
            PreparedStatement refreshToken = c.prepareStatement("INSERT INTO refresh_tokens (token_id, secret_hash, "
                    + "grant_id, scope, created_at, expires_at, used_at) VALUES (?,?,?,'openid profile',?,?,NULL)");
            PreparedStatement audit = c.prepareStatement("INSERT INTO audit_events (event_id, occurred_at_ms, "
                    + "event_type, outcome, client_id, subject, ip, detail) VALUES (NEXT VALUE FOR audit_event_seq,?,"
                    + "'TOKEN_REFRESHED','success','client','user','127.0.0.1',?)");
            // eight chains, as the bench's eight workers
            String[] grants = new String[8];
            String[] current = new String[8];
            try (PreparedStatement grant = c.prepareStatement("INSERT INTO token_grants (grant_id, client_id, "
                    + "user_id, scope, auth_time, created_at, revoked_at) "
                    + "VALUES (?,'client','user','openid profile',0,0,NULL)")) {
                for (int i = 0; i < grants.length; i++) {
                    grants[i] = newKey.get();
                    grant.setString(1, grants[i]);
                    grant.executeUpdate();
                }
            }
            c.commit();
            ThreadMXBean threads = ManagementFactory.getThreadMXBean();
            long cpuAtStart = 0;
            for (int i = 0; i < preload + measured; i++) {
                if (i == preload) {
                    cpuAtStart = threads.getCurrentThreadCpuTime();
                }
                int chain = i % grants.length;
                if (current[chain] != null) {
                    find.setString(1, current[chain]);
                    try (ResultSet rs = find.executeQuery()) {
                        rs.next();
                    }
                    markUsed.setLong(1, i);
                    markUsed.setString(2, current[chain]);
                    if (markUsed.executeUpdate() != 1) {
                        throw new IllegalStateException("token not found");
                    }
                }
                accessToken.setString(1, newKey.get());
                accessToken.setString(2, grants[chain]);
                accessToken.setLong(3, i);
                accessToken.setLong(4, i + 3600L);
                accessToken.setString(5, Secrets.newSecret());
                accessToken.executeUpdate();
                current[chain] = newKey.get();
                refreshToken.setString(1, current[chain]);
                refreshToken.setString(2, Secrets.hash(Secrets.newSecret()));
                refreshToken.setString(3, grants[chain]);
                refreshToken.setLong(4, i);
                refreshToken.setLong(5, i + 86_400L);
                refreshToken.executeUpdate();
                audit.setLong(1, System.currentTimeMillis());
                audit.setString(2, "grant " + grants[chain]);
                audit.executeUpdate();
                c.commit();
            }
            return (threads.getCurrentThreadCpuTime() - cpuAtStart) / 1e3 / measured;
        } finally {
            try (var files = Files.walk(dir)) {
                files.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
            }
        }
    }

    /**
     * The schema exactly as the server has it (every Flyway migration of the project), plus the client and the user
     * the grants belong to.
     */
    private static void createSchema(String url) throws SQLException {
        Flyway.configure(IndexOrderProbe.class.getClassLoader()).dataSource(url, null, null)
                .locations("classpath:db/migration").load().migrate();
        try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement()) {
            s.execute("INSERT INTO clients (client_id, client_name, confidential, secret_hash, redirect_uris, "
                    + "post_logout_redirect_uris, scopes, skip_consent, created_at, updated_at) VALUES ('client', "
                    + "'probe', TRUE, NULL, 'http://127.0.0.1/cb', '', 'openid profile', TRUE, 0, 0)");
            s.execute("INSERT INTO users (user_id, username, email, name, password_hash, created_at, updated_at) "
                    + "VALUES ('user', 'probe', NULL, NULL, 'not-a-hash', 0, 0)");
        }
    }
}
