package dev.portcullis.config;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.h2.jdbcx.JdbcDataSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class PortcullisConfigTest {

    private static PortcullisConfig load(Map<String, String> values) {
        return TestSettings.load(values);
    }

    @Test
    void defaultsWhenNothingIsSet() {
        PortcullisConfig c = load(Map.of());
        assertEquals("http://localhost:8080", c.issuer.issuerString());
        assertTrue(c.adminApi.token().isEmpty(), "admin API closed by default");
        assertEquals(Duration.ofSeconds(60), c.tokens.codeTtl());
        assertEquals(Duration.ofSeconds(3600), c.tokens.accessTokenTtl());
        assertEquals(Duration.ofDays(30), c.tokens.refreshTokenTtl());
        assertEquals(Duration.ofDays(90), c.tokens.refreshTokenMaxLifetime());
        assertFalse(c.clients.redirectAllowHttp());
        assertEquals(7_168, c.passwords.memoryKib());
        assertEquals(5, c.passwords.iterations());
        assertEquals(Math.max(2, Runtime.getRuntime().availableProcessors()), c.passwords.concurrency());
        assertFalse(c.demo.enabled());
        assertEquals(Optional.of(Duration.ofDays(90)), c.retention.auditRetention());
    }

    @ParameterizedTest
    @CsvSource({"47104,1", "19456,2", "12288,3", "9216,4", "7168,5", "65536,3"})
    void argon2AcceptsEveryOwaspMinimumLineAndAbove(int memoryKib, int iterations) {
        PortcullisConfig c = load(Map.of("portcullis.password.argon2.memory-kib", String.valueOf(memoryKib),
                "portcullis.password.argon2.iterations", String.valueOf(iterations)));
        assertEquals(memoryKib, c.passwords.memoryKib());
        assertEquals(iterations, c.passwords.iterations());
    }

    @ParameterizedTest
    @CsvSource({"19456,1", "9216,3", "8192,4", "7168,4"})
    void argon2BelowOwaspsWeakestLineIsRefused(int memoryKib, int iterations) {
        ConfigurationException e = assertThrows(ConfigurationException.class, () -> load(Map.of(
                "portcullis.password.argon2.memory-kib", String.valueOf(memoryKib),
                "portcullis.password.argon2.iterations", String.valueOf(iterations))));
        assertTrue(e.getMessage().contains("portcullis.password.argon2.iterations"), e.getMessage());
        assertTrue(e.getMessage().contains("35840"), e.getMessage());
    }

    @Test
    void auditRetentionIsDaysAndZeroKeepsForever() {
        assertEquals(Optional.of(Duration.ofDays(400)),
                load(Map.of("portcullis.audit.retention-days", "400")).retention.auditRetention());
        assertEquals(Optional.empty(),
                load(Map.of("portcullis.audit.retention-days", "0")).retention.auditRetention());
        assertThrows(ConfigurationException.class, () -> load(Map.of("portcullis.audit.retention-days", "-1")));
        assertThrows(ConfigurationException.class, () -> load(Map.of("portcullis.audit.retention-days", "90d")));
    }

    @Test
    void mfaRequiredIsOneOfThreeWords() {
        assertEquals(SecondFactorSettings.MfaRequired.ENROLLED, load(Map.of()).secondFactor.mfaRequired());
        assertEquals(SecondFactorSettings.MfaRequired.OFF,
                load(Map.of("portcullis.mfa.required", "off")).secondFactor.mfaRequired());
        assertEquals(SecondFactorSettings.MfaRequired.EVERYONE,
                load(Map.of("portcullis.mfa.required", " everyone ")).secondFactor.mfaRequired());
        ConfigurationException e = assertThrows(ConfigurationException.class,
                () -> load(Map.of("portcullis.mfa.required", "always")));
        assertTrue(e.getMessage().contains("portcullis.mfa.required"), e.getMessage());
    }

    @Test
    void passwordlessIsOffUnlessSetToTrue() {
        assertFalse(load(Map.of()).secondFactor.passwordless());
        assertTrue(load(Map.of("portcullis.mfa.passwordless", "true")).secondFactor.passwordless());
        ConfigurationException e = assertThrows(ConfigurationException.class,
                () -> load(Map.of("portcullis.mfa.passwordless", "yes")));
        assertTrue(e.getMessage().contains("PORTCULLIS_MFA_PASSWORDLESS"), e.getMessage());
    }

    @Test
    void passwordConcurrencyCanBeSetAndIsValidated() {
        assertEquals(5, load(Map.of("portcullis.password.argon2.concurrency", "5")).passwords.concurrency());
        assertThrows(ConfigurationException.class,
                () -> load(Map.of("portcullis.password.argon2.concurrency", "-1")));
    }

    @Test
    void issuerLosesTrailingSlashAndBuildsEndpoints() {
        PortcullisConfig c = load(Map.of("portcullis.issuer", "https://id.example.com/"));
        assertEquals("https://id.example.com", c.issuer.issuerString());
        assertEquals("https://id.example.com/oauth/token", c.issuer.endpoint("/oauth/token"));
        assertTrue(c.issuer.isHttps());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "portcullis.issuer|not a url|PORTCULLIS_ISSUER",
        "portcullis.issuer|ftp://id.example.com|PORTCULLIS_ISSUER",
        "portcullis.issuer|https://id.example.com?x=1|PORTCULLIS_ISSUER",
        "portcullis.code.ttl|-5|PORTCULLIS_CODE_TTL",
        "portcullis.code.ttl|0|PORTCULLIS_CODE_TTL",
        "portcullis.code.ttl|601|PORTCULLIS_CODE_TTL",
        "portcullis.code.ttl|ten|PORTCULLIS_CODE_TTL",
        "portcullis.access-token.ttl|-1|PORTCULLIS_ACCESS_TOKEN_TTL",
        "portcullis.access-token.signing-alg|HS256|PORTCULLIS_ACCESS_TOKEN_SIGNING_ALG",
        "portcullis.access-token.signing-alg|none|PORTCULLIS_ACCESS_TOKEN_SIGNING_ALG",
        "portcullis.access-token.signing-alg|rs256|PORTCULLIS_ACCESS_TOKEN_SIGNING_ALG",
        "portcullis.access-token.signing-alg|EdDSA|PORTCULLIS_ACCESS_TOKEN_SIGNING_ALG",
        "portcullis.refresh-token.ttl|1.5|PORTCULLIS_REFRESH_TOKEN_TTL",
        "portcullis.refresh-token.max-lifetime|59|PORTCULLIS_REFRESH_TOKEN_MAX_LIFETIME",
        "portcullis.refresh-token.max-lifetime|315360001|PORTCULLIS_REFRESH_TOKEN_MAX_LIFETIME",
        "portcullis.refresh-token.max-lifetime|90d|PORTCULLIS_REFRESH_TOKEN_MAX_LIFETIME",
        "portcullis.redirect.allow-http|yes|PORTCULLIS_REDIRECT_ALLOW_HTTP",
        "portcullis.admin.token|short|PORTCULLIS_ADMIN_TOKEN",
        "portcullis.password.argon2.memory-kib|1024|PORTCULLIS_PASSWORD_ARGON2_MEMORY_KIB",
        "portcullis.password.argon2.memory-kib|7167|PORTCULLIS_PASSWORD_ARGON2_MEMORY_KIB",
        "portcullis.session.idle-ttl|999999|PORTCULLIS_SESSION_IDLE_TTL",
        "portcullis.http.trusted-proxies|proxy.example.com|PORTCULLIS_HTTP_TRUSTED_PROXIES",
        "portcullis.http.trusted-proxies|10.0.0.0/33|PORTCULLIS_HTTP_TRUSTED_PROXIES",
        "portcullis.http.trusted-proxies|2001:db8::/129|PORTCULLIS_HTTP_TRUSTED_PROXIES",
        "portcullis.http.trusted-proxies|10.0.0.1/8/8|PORTCULLIS_HTTP_TRUSTED_PROXIES",
        "portcullis.http.trusted-proxies|300.1.1.1|PORTCULLIS_HTTP_TRUSTED_PROXIES",
        "portcullis.outbound.allowed-networks|metadata.internal|PORTCULLIS_OUTBOUND_ALLOWED_NETWORKS",
        "portcullis.outbound.allowed-networks|127.0.0.0/33|PORTCULLIS_OUTBOUND_ALLOWED_NETWORKS",
        "portcullis.outbound.allowed-networks|2130706433|PORTCULLIS_OUTBOUND_ALLOWED_NETWORKS",
        "portcullis.outbound.allowed-networks|fe80::1%eth0/128|PORTCULLIS_OUTBOUND_ALLOWED_NETWORKS",
        "portcullis.client-assertion.accept-endpoint-audience|yes|PORTCULLIS_CLIENT_ASSERTION_ACCEPT_ENDPOINT_AUDIENCE",
        "portcullis.metrics.enabled|yes|PORTCULLIS_METRICS_ENABLED",
        "portcullis.metrics.enabled|true|PORTCULLIS_METRICS_ENABLED",
        "portcullis.metrics.token|short|PORTCULLIS_METRICS_TOKEN",
        "portcullis.metrics.networks|monitoring.internal|PORTCULLIS_METRICS_NETWORKS",
        "portcullis.metrics.client-labels|1|PORTCULLIS_METRICS_CLIENT_LABELS"
    })
    void invalidValuesFailNamingKeyAndEnvironmentVariable(String key, String value, String env) {
        ConfigurationException e = assertThrows(ConfigurationException.class, () -> load(Map.of(key, value)));
        assertTrue(e.getMessage().contains(key), e.getMessage());
        assertTrue(e.getMessage().contains(env), e.getMessage());
    }

    @Test
    void accessTokensAreSignedWithRs256UnlessAnotherOfTheThreeAlgorithmsIsSet() {
        assertEquals("RS256", load(Map.of()).tokens.accessTokenSigningAlg());
        for (String alg : List.of("RS256", "PS256", "ES256")) {
            assertEquals(alg, load(Map.of("portcullis.access-token.signing-alg", " " + alg + " "))
                    .tokens.accessTokenSigningAlg());
        }
    }

    @Test
    void theEarlierAlgorithmKeyStopsTheStartNamingTheKeyThatReplacedIt() {
        for (String value : List.of("ES256", "RS256", "anything")) {
            ConfigurationException e = assertThrows(ConfigurationException.class, () -> load(Map.of(
                    "portcullis.access-token.alg", value, "portcullis.access-token.signing-alg", "ES256")));
            assertTrue(e.getMessage().contains("portcullis.access-token.alg (PORTCULLIS_ACCESS_TOKEN_ALG)")
                    && e.getMessage().contains("set portcullis.access-token.signing-alg "
                            + "(PORTCULLIS_ACCESS_TOKEN_SIGNING_ALG)"), e.getMessage());
        }
    }

    @Test
    void refreshTokenMaxLifetimeIsSecondsAndNotShorterThanOneToken() {
        assertEquals(Duration.ofDays(365), load(Map.of("portcullis.refresh-token.max-lifetime", "31536000"))
                .tokens.refreshTokenMaxLifetime());
        PortcullisConfig both = load(Map.of("portcullis.refresh-token.ttl", "3600",
                "portcullis.refresh-token.max-lifetime", "3600"));
        assertEquals(Duration.ofHours(1), both.tokens.refreshTokenMaxLifetime());
        ConfigurationException e = assertThrows(ConfigurationException.class, () -> load(Map.of(
                "portcullis.refresh-token.ttl", "31536000")));
        assertTrue(e.getMessage().contains("portcullis.refresh-token.ttl")
                && e.getMessage().contains("portcullis.refresh-token.max-lifetime"), e.getMessage());
    }

    @Test
    void trustedProxiesAreCidrRangesOfBothFamiliesAndNoneByDefault() throws Exception {
        assertTrue(load(Map.of()).http.trustedProxies().isEmpty());
        List<AddressRange> r = load(Map.of("portcullis.http.trusted-proxies",
                " 10.0.0.0/8, 192.0.2.7 ,2001:db8::/32,::1")).http.trustedProxies();
        assertEquals("[10.0.0.0/8, 192.0.2.7/32, 2001:db8:0:0:0:0:0:0/32, 0:0:0:0:0:0:0:1/128]", r.toString());
        assertTrue(r.get(0).contains(java.net.InetAddress.getByName("10.200.3.4")));
        assertFalse(r.get(0).contains(java.net.InetAddress.getByName("11.0.0.1")));
        assertTrue(r.get(2).contains(java.net.InetAddress.getByName("2001:db8:ffff::1")));
        assertFalse(r.get(2).contains(java.net.InetAddress.getByName("2001:db9::1")));
        assertTrue(r.get(0).contains(AddressRange.literal("::ffff:10.0.0.1").orElseThrow()),
                "IPv4-mapped IPv6 is read as IPv4");
    }

    @Test
    void outboundNetworksAreTheDefaultPolicyUnlessListedAndEndpointAudiencesAreOff() {
        assertTrue(load(Map.of()).outbound.allowedNetworks().isEmpty());
        assertEquals("[127.0.0.0/8, 0:0:0:0:0:0:0:1/128]", load(Map.of("portcullis.outbound.allowed-networks",
                "127.0.0.0/8, ::1")).outbound.allowedNetworks().toString());
        assertFalse(load(Map.of()).clientAssertions.acceptEndpointAudience());
        assertTrue(load(Map.of("portcullis.client-assertion.accept-endpoint-audience", "true"))
                .clientAssertions.acceptEndpointAudience());
    }

    @Test
    void environmentVariableNames() {
        assertEquals("PORTCULLIS_ACCESS_TOKEN_TTL", ConfigurationException.envName("portcullis.access-token.ttl"));
        assertEquals("PORTCULLIS_DB_URL", ConfigurationException.envName("portcullis.db.url"));
    }

    @Test
    void datasourceClassFollowsTheUrl() {
        assertEquals("org.postgresql.ds.PGSimpleDataSource",
                DatabaseConfigSource.dataSourceClass("jdbc:postgresql://db:5432/portcullis"));
        assertEquals("org.h2.jdbcx.JdbcDataSource", DatabaseConfigSource.dataSourceClass("jdbc:h2:file:/x"));
        assertThrows(ConfigurationException.class, () -> DatabaseConfigSource.dataSourceClass("jdbc:mysql://x"));
    }

    @Test
    void postgresConnectionsGetASocketTimeOutUnlessTheUrlSetsOne() {
        assertEquals("jdbc:postgresql://db:5432/p?socketTimeout=30",
                DatabaseConfigSource.connectionUrl("jdbc:postgresql://db:5432/p"));
        assertEquals("jdbc:postgresql://db:5432/p?ssl=true&socketTimeout=30",
                DatabaseConfigSource.connectionUrl("jdbc:postgresql://db:5432/p?ssl=true"));
        assertEquals("jdbc:postgresql://db/p?socketTimeout=0",
                DatabaseConfigSource.connectionUrl("jdbc:postgresql://db/p?socketTimeout=0"));
        assertEquals("jdbc:h2:file:/x;WRITE_DELAY=100", DatabaseConfigSource.connectionUrl("jdbc:h2:file:/x;WRITE_DELAY=100"));
    }

    @Test
    void theDefaultH2UrlSettingsAreAppliedByH2(@TempDir Path dataDir) throws SQLException {
        JdbcDataSource ds = new JdbcDataSource();
        ds.setURL(DatabaseConfigSource.h2Url(dataDir));
        Map<String, String> settings = new HashMap<>();
        try (Connection c = ds.getConnection(); ResultSet r = c.createStatement().executeQuery(
                "SELECT SETTING_NAME, SETTING_VALUE FROM INFORMATION_SCHEMA.SETTINGS")) {
            while (r.next()) {
                settings.put(r.getString(1), r.getString(2));
            }
        }
        assertEquals("64", settings.get("QUERY_CACHE_SIZE"));
        assertEquals("4", settings.get("info.CACHE_MAX_SIZE"), "page cache in MiB");
        assertEquals("100", settings.get("WRITE_DELAY"));
        assertTrue(Files.exists(dataDir.resolve("portcullis.mv.db")));
    }

    @Test
    void theDefaultH2UrlOpensNoNetworkListener(@TempDir Path dataDir) throws SQLException {
        String url = DatabaseConfigSource.h2Url(dataDir);
        assertFalse(url.toUpperCase(java.util.Locale.ROOT).contains("AUTO_SERVER"), url);
        JdbcDataSource ds = new JdbcDataSource();
        ds.setURL(url);
        try (Connection c = ds.getConnection(); ResultSet r = c.createStatement().executeQuery(
                "SELECT SETTING_VALUE FROM INFORMATION_SCHEMA.SETTINGS WHERE SETTING_NAME = 'AUTO_SERVER'")) {
            assertTrue(!r.next() || "FALSE".equalsIgnoreCase(r.getString(1)), "H2 runs without its TCP server");
        }
        assertFalse(Files.exists(dataDir.resolve("portcullis.lock.db")),
                "no lock file announcing a server address and port");
    }

    @Test
    void adminTokenNeedsThirtyTwoCharactersAndIsNotReadmesExample() {
        ConfigurationException tooShort = assertThrows(ConfigurationException.class,
                () -> load(Map.of("portcullis.admin.token", "a".repeat(31))));
        assertTrue(tooShort.getMessage().contains("portcullis.admin.token")
                && tooShort.getMessage().contains("32"), tooShort.getMessage());
        ConfigurationException example = assertThrows(ConfigurationException.class,
                () -> load(Map.of("portcullis.admin.token", "change-me-to-a-long-random-string")));
        assertTrue(example.getMessage().contains("portcullis.admin.token")
                && example.getMessage().contains("example"), example.getMessage());
        assertEquals(Optional.of("b".repeat(32)),
                load(Map.of("portcullis.admin.token", "b".repeat(32))).adminApi.token());
    }

    @Test
    void metricsAreOffByDefaultAndOpenOnlyToATokenOrNetworks() {
        MetricsSettings off = load(Map.of()).metrics;
        assertEquals(false, off.enabled());
        assertEquals(false, off.clientLabels());
        MetricsSettings on = load(Map.of("portcullis.metrics.enabled", "true", "portcullis.metrics.token",
                "m".repeat(32), "portcullis.metrics.networks", "10.0.0.0/8, 2001:db8::/32",
                "portcullis.metrics.client-labels", "true")).metrics;
        assertEquals(Optional.of("m".repeat(32)), on.token());
        assertEquals(List.of(AddressRange.parse("10.0.0.0/8"), AddressRange.parse("2001:db8::/32")), on.networks());
        assertEquals(true, on.clientLabels());
        assertFalse(on.toString().contains("m".repeat(32)), "the token is never printed");
        assertTrue(load(Map.of("portcullis.metrics.enabled", "true", "portcullis.metrics.networks", "127.0.0.1"))
                .metrics.token().isEmpty(), "networks alone suffice");
    }

    @Test
    void demoModeNeedsALoopbackIssuerUnlessForced() {
        String[] notLoopback = {"http://id.example.com", "http://192.168.1.10:8080", "http://[2001:db8::1]"};
        for (String issuer : notLoopback) {
            ConfigurationException e = assertThrows(ConfigurationException.class, () -> load(Map.of(
                    "portcullis.issuer", issuer, "portcullis.demo", "true")), issuer);
            assertTrue(e.getMessage().contains("portcullis.demo") && e.getMessage().contains("portcullis.demo.force"),
                    e.getMessage());
            assertTrue(load(Map.of("portcullis.issuer", issuer, "portcullis.demo", "true",
                    "portcullis.demo.force", "true")).demo.enabled(), issuer);
        }
        for (String issuer : new String[] {"http://localhost:8080", "http://127.0.0.1:8080", "http://[::1]:8080"}) {
            assertTrue(load(Map.of("portcullis.issuer", issuer, "portcullis.demo", "true")).demo.enabled(),
                    issuer);
        }
    }

    @Test
    void keyEncryptionKeysAreBase64Of32BytesAndNeverQuoted() {
        String current = Base64.getEncoder().encodeToString(new byte[32]);
        byte[] previous = new byte[32];
        previous[0] = 1;
        PortcullisConfig c = load(Map.of("portcullis.keys.encryption-key", current,
                "portcullis.keys.previous-encryption-keys", " " + Base64.getUrlEncoder().encodeToString(previous)
                        + " , " + current));
        assertArrayEquals(new byte[32], c.keys.encryptionKey().orElseThrow());
        assertEquals(2, c.keys.previousEncryptionKeys().size());
        assertArrayEquals(previous, c.keys.previousEncryptionKeys().get(0));
        assertTrue(load(Map.of()).keys.encryptionKey().isEmpty());
        assertTrue(load(Map.of()).keys.previousEncryptionKeys().isEmpty());

        String sixteen = Base64.getEncoder().encodeToString(new byte[16]);
        for (String key : new String[] {"portcullis.keys.encryption-key", "portcullis.keys.previous-encryption-keys"}) {
            for (String bad : new String[] {sixteen, "not base64 at all!"}) {
                ConfigurationException e = assertThrows(ConfigurationException.class, () -> load(Map.of(key, bad)));
                assertTrue(e.getMessage().contains(key), e.getMessage());
                assertFalse(e.getMessage().contains(bad), "the value is a secret: " + e.getMessage());
            }
        }
    }

    @Test
    void dataDirectoryIsAbsolute() {
        assertEquals(Path.of("./data").toAbsolutePath().normalize(), load(Map.of()).keys.dataDir());
        PortcullisConfig srv = load(Map.of("portcullis.data-dir", "/srv/portcullis"));
        assertEquals(Path.of("/srv/portcullis"), srv.keys.dataDir());
        assertEquals(Path.of("/srv/portcullis"), srv.demo.dataDir(), "the demo credentials file lives there too");
    }

    @Test
    void demoModeIsRefusedWithAnHttpsIssuerUnlessForced() {
        ConfigurationException e = assertThrows(ConfigurationException.class, () -> load(Map.of(
                "portcullis.issuer", "https://id.example.com", "portcullis.demo", "true")));
        assertTrue(e.getMessage().contains("portcullis.demo"), e.getMessage());
        assertTrue(load(Map.of("portcullis.issuer", "https://id.example.com", "portcullis.demo", "true",
                "portcullis.demo.force", "true")).demo.enabled());
        assertTrue(load(Map.of("portcullis.issuer", "http://localhost:8080", "portcullis.demo", "true")).demo
                .enabled());
        assertFalse(load(Map.of("portcullis.issuer", "https://id.example.com")).demo.enabled());
    }
}
