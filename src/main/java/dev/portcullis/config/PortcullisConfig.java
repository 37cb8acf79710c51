package dev.portcullis.config;

import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.ConfigProvider;

/**
 * Every Portcullis setting, read and validated in one place, and handed out by concern: one record per concern
 * ({@link TokenSettings}, {@link SessionSettings}, {@link ThrottleSettings}, {@link PasswordSettings},
 * {@link KeySettings}, {@link HttpSettings}, {@link SecondFactorSettings}, ...), each produced for injection, so a
 * class depends only on the settings it reads. Each key is a MicroProfile Config property; its environment variable
 * form is the key upper-cased with dots and dashes turned into underscores ({@code portcullis.code.ttl} =
 * {@code PORTCULLIS_CODE_TTL}). README's configuration table lists them all.
 *
 * <p>Values are read once at startup. An invalid value fails deployment with a message naming the key, so a
 * misconfigured server never serves a request. The records are final and never change, so they are produced as
 * {@code @Singleton}s (no client proxy).
 */
@ApplicationScoped
public class PortcullisConfig {

    @Produces
    @Singleton
    IssuerSettings issuer;

    @Produces
    @Singleton
    AdminApiSettings adminApi;

    @Produces
    @Singleton
    TokenSettings tokens;

    @Produces
    @Singleton
    SessionSettings sessions;

    @Produces
    @Singleton
    LogoutSettings logout;

    @Produces
    @Singleton
    ClientSettings clients;

    @Produces
    @Singleton
    ClientAssertionSettings clientAssertions;

    @Produces
    @Singleton
    PushedAuthorizationSettings pushedAuthorization;

    @Produces
    @Singleton
    ConfigurationImportSettings configurationImport;

    @Produces
    @Singleton
    RequestObjectSettings requestObjects;

    @Produces
    @Singleton
    DpopSettings dpop;

    @Produces
    @Singleton
    OutboundSettings outbound;

    @Produces
    @Singleton
    ThrottleSettings throttle;

    @Produces
    @Singleton
    PasswordSettings passwords;

    @Produces
    @Singleton
    HttpSettings http;

    @Produces
    @Singleton
    DemoSettings demo;

    @Produces
    @Singleton
    KeySettings keys;

    @Produces
    @Singleton
    RetentionSettings retention;

    @Produces
    @Singleton
    DatabaseSettings database;

    @Produces
    @Singleton
    SecondFactorSettings secondFactor;

    @Produces
    @Singleton
    MetricsSettings metrics;

    /** The LDAP / Active Directory user store; empty when {@code portcullis.ldap.url} is not set. */
    @Produces
    @Singleton
    Optional<DirectorySettings> directory;

    /** Windows integrated sign-in (SPNEGO); empty when {@code portcullis.kerberos.keytab} is not set. */
    @Produces
    @Singleton
    Optional<KerberosSettings> kerberos;

    @PostConstruct
    void load() {
        Config config = ConfigProvider.getConfig(PortcullisConfig.class.getClassLoader());
        load(key -> config.getOptionalValue(key, String.class));
    }

    /** Reads and validates every setting from {@code c} (MicroProfile Config in the server, a map in unit tests). */
    void load(Source c) {
        issuer = IssuerSettings.load(c);
        adminApi = AdminApiSettings.load(c);
        tokens = TokenSettings.load(c, issuer);
        sessions = SessionSettings.load(c);
        logout = LogoutSettings.load(c);
        clients = ClientSettings.load(c);
        clientAssertions = ClientAssertionSettings.load(c);
        pushedAuthorization = PushedAuthorizationSettings.load(c);
        configurationImport = ConfigurationImportSettings.load(c);
        requestObjects = RequestObjectSettings.load(c);
        dpop = DpopSettings.load(c);
        outbound = OutboundSettings.load(c);
        throttle = ThrottleSettings.load(c);
        passwords = PasswordSettings.load(c);
        http = HttpSettings.load(c);
        demo = DemoSettings.load(c, issuer);
        keys = KeySettings.load(c);
        retention = RetentionSettings.load(c);
        database = DatabaseSettings.load(c);
        secondFactor = SecondFactorSettings.load(c);
        metrics = MetricsSettings.load(c);
        directory = DirectorySettings.load(c);
        kerberos = KerberosSettings.load(c, directory.isPresent());
    }

    /** Where settings come from: key to raw value. */
    @FunctionalInterface
    interface Source {
        Optional<String> getOptionalValue(String key);
    }

    static Duration seconds(Source c, String key, long def, long min, long max) {
        return Duration.ofSeconds(longValue(c, key, def, min, max, "a whole number of seconds"));
    }

    static int integer(Source c, String key, int def, int min, int max) {
        return (int) longValue(c, key, def, min, max, "a whole number");
    }

    private static long longValue(Source c, String key, long def, long min, long max, String what) {
        String raw = c.getOptionalValue(key).map(String::trim).orElse(null);
        if (raw == null || raw.isEmpty()) {
            return def;
        }
        long v;
        try {
            v = Long.parseLong(raw);
        } catch (NumberFormatException e) {
            throw new ConfigurationException(key, "must be " + what + ", got '" + raw + "'");
        }
        require(v >= min && v <= max, key, "must be between " + min + " and " + max + ", got " + v);
        return v;
    }

    static boolean bool(Source c, String key, boolean def) {
        String raw = c.getOptionalValue(key).map(String::trim).orElse(null);
        if (raw == null || raw.isEmpty()) {
            return def;
        }
        if (raw.equalsIgnoreCase("true") || raw.equalsIgnoreCase("false")) {
            return Boolean.parseBoolean(raw);
        }
        throw new ConfigurationException(key, "must be true or false, got '" + raw + "'");
    }

    /** {@code portcullis.data-dir}: the default H2 database's and generated files' directory, absolute. */
    static Path dataDir(Source c) {
        return Path.of(c.getOptionalValue("portcullis.data-dir").map(String::trim).filter(s -> !s.isEmpty())
                .orElse("./data")).toAbsolutePath().normalize();
    }

    static void require(boolean ok, String key, String message) {
        if (!ok) {
            throw new ConfigurationException(key, message);
        }
    }
}
