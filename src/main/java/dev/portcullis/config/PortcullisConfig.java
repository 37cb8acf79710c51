package dev.portcullis.config;

import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import java.net.InetAddress;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.ConfigProvider;

/**
 * Every Portcullis setting, typed and validated in one place. Each key is a MicroProfile Config property; its
 * environment variable form is the key upper-cased with dots and dashes turned into underscores
 * ({@code portcullis.code.ttl} = {@code PORTCULLIS_CODE_TTL}). README's configuration table lists them all.
 *
 * <p>Values are read once at startup. An invalid value fails deployment with a message naming the key, so a
 * misconfigured server never serves a request.
 */
@ApplicationScoped
public class PortcullisConfig {

    /** Memory (KiB) times passes of OWASP's weakest recommended Argon2id line, 7 MiB x 5 (the others are above it). */
    static final long OWASP_MIN_MEMORY_KIB_PASSES = 7_168L * 5;

    /** README's example admin token: refused, so a copied command never opens the admin API to anyone who read it. */
    static final String README_EXAMPLE_ADMIN_TOKEN = "change-me-to-a-long-random-string";
    static final int MIN_ADMIN_TOKEN_LENGTH = 32;

    private URI issuer;
    private Optional<String> adminToken;
    private Duration codeTtl;
    private Duration accessTokenTtl;
    private Duration refreshTokenTtl;
    private Duration refreshTokenMaxLifetime;
    private Duration sessionIdleTtl;
    private Duration sessionMaxTtl;
    private boolean redirectAllowHttp;
    private int loginMaxFailures;
    private int loginIpMaxFailures;
    private int loginSlowdownAfter;
    private Duration loginLockout;
    private Duration loginFailureWindow;
    private int passwordMemoryKib;
    private int passwordIterations;
    private int passwordParallelism;
    private int passwordConcurrency;
    private int maxBodyBytes;
    private List<AddressRange> trustedProxies;
    private boolean demo;
    private boolean demoForce;
    private String accessTokenAlg;
    private String accessTokenAudience;
    private Duration keyActivationDelay;
    private Duration keyRefreshInterval;
    private Duration metadataMaxAge;
    private Optional<String> jcaProvider;
    private Optional<Duration> auditRetention;
    private Path dataDir;
    private Optional<byte[]> keysEncryptionKey;
    private List<byte[]> previousKeysEncryptionKeys;
    private Optional<DirectorySettings> directory;
    private MfaRequired mfaRequired;
    private boolean passwordless;

    /** {@code portcullis.mfa.required}: who must give a second factor at sign-in. */
    public enum MfaRequired {
        /** Only where a client ({@code require_mfa}) or the request ({@code acr_values}) asks for it. */
        OFF,
        /** Every user who has a second factor gives it at every sign-in (and where clients ask). */
        ENROLLED,
        /** Everyone; a user without a factor enrols one at the next sign-in. */
        EVERYONE
    }
    private Optional<String> dbJndiName;

    /** The JNDI name of a datasource the server manages; unset, Portcullis uses its own (PORTCULLIS_DB_URL). */
    public static final String DB_JNDI_NAME = "portcullis.db.jndi-name";

    @PostConstruct
    void load() {
        Config config = ConfigProvider.getConfig(PortcullisConfig.class.getClassLoader());
        load(key -> config.getOptionalValue(key, String.class));
    }

    /** Reads and validates every setting from {@code c} (MicroProfile Config in the server, a map in unit tests). */
    void load(Source c) {
        issuer = issuer(c);
        adminToken = c.getOptionalValue("portcullis.admin.token").map(String::trim).filter(s -> !s.isEmpty());
        adminToken.ifPresent(t -> {
            require(t.length() >= MIN_ADMIN_TOKEN_LENGTH, "portcullis.admin.token", "must be at least "
                    + MIN_ADMIN_TOKEN_LENGTH + " characters (generate one with: openssl rand -base64 32)");
            require(!t.equals(README_EXAMPLE_ADMIN_TOKEN), "portcullis.admin.token", "is README's example value, "
                    + "known to everyone (generate one with: openssl rand -base64 32)");
        });
        codeTtl = seconds(c, "portcullis.code.ttl", 60, 1, 600);
        accessTokenTtl = seconds(c, "portcullis.access-token.ttl", 3600, 1, 86_400);
        refreshTokenTtl = seconds(c, "portcullis.refresh-token.ttl", 2_592_000, 1, 31_536_000);
        refreshTokenMaxLifetime = seconds(c, "portcullis.refresh-token.max-lifetime", 7_776_000, 60, 315_360_000);
        require(refreshTokenTtl.compareTo(refreshTokenMaxLifetime) <= 0, "portcullis.refresh-token.ttl",
                "must not exceed portcullis.refresh-token.max-lifetime");
        sessionIdleTtl = seconds(c, "portcullis.session.idle-ttl", 28_800, 60, 31_536_000);
        sessionMaxTtl = seconds(c, "portcullis.session.max-ttl", 86_400, 60, 31_536_000);
        require(sessionIdleTtl.compareTo(sessionMaxTtl) <= 0, "portcullis.session.idle-ttl",
                "must not exceed portcullis.session.max-ttl");
        redirectAllowHttp = bool(c, "portcullis.redirect.allow-http", false);
        loginMaxFailures = integer(c, "portcullis.login.max-failures", 5, 1, 1000);
        loginIpMaxFailures = integer(c, "portcullis.login.ip-max-failures", 50, 1, 100_000);
        loginSlowdownAfter = integer(c, "portcullis.login.slowdown-after", 3, 1, 1000);
        require(loginSlowdownAfter <= loginMaxFailures, "portcullis.login.slowdown-after",
                "must not exceed portcullis.login.max-failures");
        loginLockout = seconds(c, "portcullis.login.lockout", 300, 1, 86_400);
        loginFailureWindow = seconds(c, "portcullis.login.failure-window", 900, 1, 86_400);
        // OWASP's Argon2id minimums are equivalent pairs (46 MiB x 1, 19 x 2, 12 x 3, 9 x 4, 7 x 5 passes). The default
        // is the 7 MiB x 5 line: the same CPU per hash as 19 x 2, but a third of the memory per concurrent sign-in,
        // which is what fills a bounded heap (docs/decisions.md). Anything weaker than that line is refused.
        passwordMemoryKib = integer(c, "portcullis.password.argon2.memory-kib", 7_168, 7_168, 4_194_304);
        passwordIterations = integer(c, "portcullis.password.argon2.iterations", 5, 1, 100);
        require((long) passwordMemoryKib * passwordIterations >= OWASP_MIN_MEMORY_KIB_PASSES,
                "portcullis.password.argon2.iterations", "memory-kib x iterations must be at least "
                        + OWASP_MIN_MEMORY_KIB_PASSES + " (OWASP's minimum, e.g. 7168 KiB x 5 or 19456 KiB x 2)");
        passwordParallelism = integer(c, "portcullis.password.argon2.parallelism", 1, 1, 16);
        // 0 = one per CPU core: the hash is CPU-bound, more at once only adds memory (memory-kib each) and waiting
        int concurrency = integer(c, "portcullis.password.argon2.concurrency", 0, 0, 256);
        passwordConcurrency = concurrency == 0 ? Math.max(2, Runtime.getRuntime().availableProcessors()) : concurrency;
        maxBodyBytes = integer(c, "portcullis.http.max-body-bytes", 65_536, 1_024, 10_485_760);
        trustedProxies = new ArrayList<>();
        for (String v : c.getOptionalValue("portcullis.http.trusted-proxies").orElse("").split(",")) {
            if (!v.isBlank()) {
                try {
                    trustedProxies.add(AddressRange.parse(v));
                } catch (IllegalArgumentException e) {
                    throw new ConfigurationException("portcullis.http.trusted-proxies", "must be a comma-separated "
                            + "list of IP addresses or CIDR ranges (10.0.0.0/8, 2001:db8::/32): " + e.getMessage());
                }
            }
        }
        demo = bool(c, "portcullis.demo", false);
        demoForce = bool(c, "portcullis.demo.force", false);
        // demo mode seeds a user and clients whose credentials sit in a file on the server: a developer's machine only
        require(!demo || isLoopback(issuer) || demoForce, "portcullis.demo",
                "must not be enabled with an issuer that is not loopback (" + issuer + "); set "
                        + "portcullis.demo.force=true if this really is a demo");
        accessTokenAlg = c.getOptionalValue("portcullis.access-token.alg").map(String::trim)
                .filter(s -> !s.isEmpty()).orElse("ES256");
        require(accessTokenAlg.equals("ES256") || accessTokenAlg.equals("RS256"), "portcullis.access-token.alg",
                "must be ES256 or RS256, got '" + accessTokenAlg + "'");
        accessTokenAudience = c.getOptionalValue("portcullis.access-token.audience").map(String::trim)
                .filter(s -> !s.isEmpty()).orElse(issuer + "/api");
        keyActivationDelay = seconds(c, "portcullis.keys.activation-delay", 900, 0, 604_800);
        keyRefreshInterval = seconds(c, "portcullis.keys.refresh-interval", 60, 1, 3600);
        metadataMaxAge = seconds(c, "portcullis.discovery.max-age", 300, 0, 86_400);
        jcaProvider = c.getOptionalValue("portcullis.jose.jca-provider").map(String::trim)
                .filter(s -> !s.isEmpty());
        // 0 = keep forever (for operators whose own archive is the database); otherwise days, as audit policies say
        int retentionDays = integer(c, "portcullis.audit.retention-days", 90, 0, 36_500);
        auditRetention = retentionDays == 0 ? Optional.empty() : Optional.of(Duration.ofDays(retentionDays));
        dataDir = Path.of(c.getOptionalValue("portcullis.data-dir").map(String::trim).filter(s -> !s.isEmpty())
                .orElse("./data")).toAbsolutePath().normalize();
        keysEncryptionKey = c.getOptionalValue("portcullis.keys.encryption-key").map(String::trim)
                .filter(s -> !s.isEmpty()).map(v -> key32("portcullis.keys.encryption-key", v));
        previousKeysEncryptionKeys = new ArrayList<>();
        for (String v : c.getOptionalValue("portcullis.keys.previous-encryption-keys").orElse("").split(",")) {
            if (!v.isBlank()) {
                previousKeysEncryptionKeys.add(key32("portcullis.keys.previous-encryption-keys", v.trim()));
            }
        }
        dbJndiName = c.getOptionalValue(DB_JNDI_NAME).map(String::trim).filter(s -> !s.isEmpty());
        dbJndiName.ifPresent(n -> require(n.chars().noneMatch(Character::isWhitespace), DB_JNDI_NAME,
                "must be a JNDI name such as java:jboss/datasources/Portcullis or jdbc/portcullis, got '" + n + "'"));
        String mfa = c.getOptionalValue("portcullis.mfa.required").map(String::trim).filter(v -> !v.isEmpty())
                .orElse("enrolled");
        require(mfa.equals("off") || mfa.equals("enrolled") || mfa.equals("everyone"), "portcullis.mfa.required",
                "must be off, enrolled or everyone, got '" + mfa + "'");
        mfaRequired = MfaRequired.valueOf(mfa.toUpperCase(java.util.Locale.ROOT));
        String pl = c.getOptionalValue("portcullis.mfa.passwordless").map(String::trim).filter(v -> !v.isEmpty())
                .orElse("false");
        require(pl.equals("true") || pl.equals("false"), "portcullis.mfa.passwordless",
                "must be true or false, got '" + pl + "'");
        passwordless = Boolean.parseBoolean(pl);
        directory = DirectorySettings.load(c);
    }

    /** The LDAP / Active Directory user store; empty when {@code portcullis.ldap.url} is not set. */
    public Optional<DirectorySettings> directory() {
        return directory;
    }

    /** The issuer identifier (OIDC Core 3.1.2.1); every endpoint URL is derived from it. No trailing slash. */
    public URI issuer() {
        return issuer;
    }

    /** The issuer as a string, exactly as it appears in {@code iss} claims and the discovery document. */
    public String issuerString() {
        return issuer.toString();
    }

    /** Absolute URL of a path on this server, e.g. {@code endpoint("/oauth/token")}. */
    public String endpoint(String path) {
        return issuer + path;
    }

    public boolean issuerIsHttps() {
        return "https".equals(issuer.getScheme());
    }

    /** Whether the issuer's host is this machine only (localhost, 127.0.0.0/8, ::1): a developer's set-up. */
    public boolean issuerIsLoopback() {
        return isLoopback(issuer);
    }

    /** Directory of the default H2 database and of files the server generates for itself. Absolute. */
    public Path dataDir() {
        return dataDir;
    }

    /** The key-encryption key of private key material at rest (32 bytes); empty = not configured. */
    public Optional<byte[]> keysEncryptionKey() {
        return keysEncryptionKey.map(byte[]::clone);
    }

    /** Earlier key-encryption keys, still accepted for decryption until everything is re-encrypted. */
    public List<byte[]> previousKeysEncryptionKeys() {
        return previousKeysEncryptionKeys.stream().map(byte[]::clone).toList();
    }

    public MfaRequired mfaRequired() {
        return mfaRequired;
    }

    /** {@code portcullis.mfa.passwordless}: whether the login page offers signing in with a passkey alone. */
    public boolean passwordless() {
        return passwordless;
    }

    /** How long audit events are kept; empty = forever. */
    public Optional<Duration> auditRetention() {
        return auditRetention;
    }

    /** Bearer token of the admin API; empty means the admin API is closed (every call answers 401). */
    public Optional<String> adminToken() {
        return adminToken;
    }

    public Duration codeTtl() {
        return codeTtl;
    }

    public Duration accessTokenTtl() {
        return accessTokenTtl;
    }

    public Duration refreshTokenTtl() {
        return refreshTokenTtl;
    }

    /**
     * How long a refresh-token family (one sign-in's grant) lives in all, however often it is refreshed: counted
     * from the code redemption that created it.
     */
    public Duration refreshTokenMaxLifetime() {
        return refreshTokenMaxLifetime;
    }

    public Duration sessionIdleTtl() {
        return sessionIdleTtl;
    }

    public Duration sessionMaxTtl() {
        return sessionMaxTtl;
    }

    /** Opt-in for intranet backends on plain http (a documented risk): non-loopback http redirect URIs. */
    public boolean redirectAllowHttp() {
        return redirectAllowHttp;
    }

    public int loginMaxFailures() {
        return loginMaxFailures;
    }

    public int loginIpMaxFailures() {
        return loginIpMaxFailures;
    }

    /** From this many failures on, each further attempt on the account must wait 1, 2, 4, ... s (max 30 s). */
    public int loginSlowdownAfter() {
        return loginSlowdownAfter;
    }

    public Duration loginLockout() {
        return loginLockout;
    }

    public Duration loginFailureWindow() {
        return loginFailureWindow;
    }

    public int passwordMemoryKib() {
        return passwordMemoryKib;
    }

    public int passwordIterations() {
        return passwordIterations;
    }

    public int passwordParallelism() {
        return passwordParallelism;
    }

    /** How many Argon2 computations may run at once (the others wait): bounds their memory to this × memory-kib. */
    public int passwordConcurrency() {
        return passwordConcurrency;
    }

    /** Largest request body any endpoint accepts; larger bodies get 413 before they are read. */
    public int maxBodyBytes() {
        return maxBodyBytes;
    }

    /**
     * The reverse proxies whose {@code Forwarded} / {@code X-Forwarded-For} headers name the client; empty (the
     * default) = the direct peer is the client and those headers are ignored.
     */
    public List<AddressRange> trustedProxies() {
        return trustedProxies;
    }

    /** Demo mode: seeds a demo user and two clients at startup and serves the relying-party page at /demo/. */
    public boolean demo() {
        return demo;
    }

    /** Allows demo mode with an https issuer (otherwise refused at startup). */
    public boolean demoForce() {
        return demoForce;
    }

    /** JWS algorithm of access tokens (RFC 9068 allows any): ES256 (default, cheaper to sign) or RS256. */
    public String accessTokenAlg() {
        return accessTokenAlg;
    }

    /** The {@code aud} of every access token: the resource servers that accept them. Default {@code <issuer>/api}. */
    public String accessTokenAudience() {
        return accessTokenAudience;
    }

    /**
     * How long a rotated-in signing key is published in the JWKS before it signs. Must exceed the JWKS max-age plus
     * the key refresh interval, so every relying party and every instance knows the key before a token uses it.
     */
    public Duration keyActivationDelay() {
        return keyActivationDelay;
    }

    /** How often each instance re-reads the signing_keys table (to pick up other instances' rotations). */
    public Duration keyRefreshInterval() {
        return keyRefreshInterval;
    }

    /** Cache-Control max-age of the discovery document and the JWKS. */
    public Duration metadataMaxAge() {
        return metadataMaxAge;
    }

    /** Name of an installed JCA provider for JOSE signing (e.g. a native one); empty = the JDK's own. */
    public Optional<String> jcaProvider() {
        return jcaProvider;
    }

    /** The server-managed datasource to use instead of the application's own, if the operator named one. */
    public Optional<String> dbJndiName() {
        return dbJndiName;
    }

    /** Where settings come from: key to raw value. */
    @FunctionalInterface
    interface Source {
        Optional<String> getOptionalValue(String key);
    }

    private static URI issuer(Source c) {
        String key = "portcullis.issuer";
        String raw = c.getOptionalValue(key).orElse("http://localhost:8080").trim();
        URI uri;
        try {
            uri = new URI(raw);
        } catch (Exception e) {
            throw new ConfigurationException(key, "is not a URL: '" + raw + "'");
        }
        require(("https".equals(uri.getScheme()) || "http".equals(uri.getScheme())) && uri.getHost() != null,
                key, "must be an absolute http(s) URL, got '" + raw + "'");
        require(uri.getQuery() == null && uri.getFragment() == null, key, "must not have a query or fragment");
        if (raw.endsWith("/")) {
            uri = URI.create(raw.substring(0, raw.length() - 1));
        }
        return uri;
    }

    private static boolean isLoopback(URI uri) {
        String host = uri.getHost();
        if (host.equalsIgnoreCase("localhost")) {
            return true;
        }
        // literal addresses only: a name other than localhost is not resolved, since DNS may change after startup
        if (host.matches("[0-9.]+") || host.startsWith("[")) {
            try {
                return InetAddress.getByName(host).isLoopbackAddress();
            } catch (java.net.UnknownHostException e) {
                return false;
            }
        }
        return false;
    }

    /** A 32-byte key given as base64 (or base64url); the message never quotes the value, which is a secret. */
    private static byte[] key32(String key, String value) {
        byte[] k;
        try {
            k = value.indexOf('-') >= 0 || value.indexOf('_') >= 0 ? Base64.getUrlDecoder().decode(value)
                    : Base64.getDecoder().decode(value);
        } catch (IllegalArgumentException e) {
            throw new ConfigurationException(key, "must be base64 of 32 random bytes (openssl rand -base64 32); "
                    + "the value given is not base64");
        }
        require(k.length == 32, key, "must be base64 of 32 random bytes (openssl rand -base64 32), got "
                + k.length + " bytes");
        return k;
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

    private static void require(boolean ok, String key, String message) {
        if (!ok) {
            throw new ConfigurationException(key, message);
        }
    }
}
