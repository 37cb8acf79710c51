package dev.portcullis.jose;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.JWSObject;
import com.nimbusds.jose.Payload;
import com.nimbusds.jose.crypto.RSASSAVerifier;
import com.nimbusds.jose.jwk.JWK;
import com.nimbusds.jose.jwk.KeyUse;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import dev.portcullis.admin.Refusal;
import dev.portcullis.audit.Actor;
import dev.portcullis.config.ConfigurationException;
import dev.portcullis.config.IssuerSettings;
import dev.portcullis.config.KeySettings;
import dev.portcullis.config.TestSettings;
import dev.portcullis.crypto.EncryptionKeys;
import dev.portcullis.testing.MutableClock;
import dev.portcullis.testing.RecordingAudit;
import java.net.URI;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** Key creation at first start, selection, publication and rotation, against an in-memory signing_keys table. */
class SigningKeyServiceTest {

    /** The table: a kid primary key, so a second insert of one kid fails like the database does. */
    static class FakeStore extends SigningKeyRepository {
        final Map<String, SigningKey> rows = new LinkedHashMap<>();
        final AtomicInteger failedInserts = new AtomicInteger();
        CyclicBarrier firstReadBarrier;

        @Override
        public List<SigningKey> all() {
            CyclicBarrier b;
            synchronized (this) {
                b = firstReadBarrier;
            }
            if (b != null) {
                try {
                    b.await(10, TimeUnit.SECONDS); // both "instances" read the empty table before either inserts
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            }
            synchronized (this) {
                return new ArrayList<>(rows.values());
            }
        }

        @Override
        public synchronized void insert(SigningKey key) {
            firstReadBarrier = null;
            if (rows.containsKey(key.kid())) {
                failedInserts.incrementAndGet();
                throw new jakarta.persistence.PersistenceException("duplicate kid " + key.kid());
            }
            rows.put(key.kid(), key);
        }

        @Override
        public synchronized void rotate(SigningKey next, Instant dropRetiredBefore) {
            if (rows.containsKey(next.kid())) {
                throw new jakarta.persistence.PersistenceException("duplicate kid");
            }
            rows.put(next.kid(), next);
        }

        @Override
        public synchronized boolean reseal(String kid, String expected, String replacement) {
            SigningKey k = rows.get(kid);
            if (k == null || !k.privateJwk().equals(expected)) {
                return false;
            }
            setField(k, "privateJwk", replacement);
            return true;
        }
    }

    /** The key settings of a test instance: a key-encryption key (and earlier ones) and the JCA provider. */
    static class Config {
        byte[] kek = new byte[32];
        List<byte[]> previousKeks = List.of();

        Optional<String> jcaProvider() {
            return Optional.of("NoSuchProviderInstalled"); // falls back to the JDK's provider
        }

        KeySettings keys() {
            return new KeySettings(Optional.of(kek), previousKeks, Duration.ofSeconds(900), Duration.ofSeconds(60),
                    jcaProvider(), Path.of("data"));
        }

        /** Sets the settings {@code k} reads: these keys, RS256 access tokens of an hour (the defaults). */
        void wire(SigningKeyService k) {
            k.issuer = new IssuerSettings(URI.create("http://localhost:8080"));
            k.tokenSettings = TestSettings.tokens(Map.of());
            k.keySettings = keys();
        }
    }

    private static SigningKeyService instance(SigningKeyRepository store, Clock clock) {
        return instance(store, clock, new Config());
    }

    private static SigningKeyService instance(SigningKeyRepository store, Clock clock, Config config) {
        SigningKeyService k = new SigningKeyService();
        k.store = store;
        config.wire(k);
        k.clock = clock;
        k.init();
        return k;
    }

    @Test
    void concurrentFirstStartOfTwoInstancesCreatesOneKeyPerAlgorithm() throws Exception {
        FakeStore store = new FakeStore();
        store.firstReadBarrier = new CyclicBarrier(2);
        Clock clock = Clock.systemUTC();
        SigningKeyService a = instance(store, clock);
        SigningKeyService b = instance(store, clock);
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            Future<String> fa = pool.submit(() -> a.signingKey(JWSAlgorithm.RS256).kid());
            Future<String> fb = pool.submit(() -> b.signingKey(JWSAlgorithm.RS256).kid());
            assertEquals(fa.get(30, TimeUnit.SECONDS), fb.get(30, TimeUnit.SECONDS), "both sign with the same key");
        } finally {
            pool.shutdownNow();
        }
        assertEquals(List.of("rs256-1", "ps256-1", "es256-1"), new ArrayList<>(store.rows.keySet()));
        assertTrue(store.failedInserts.get() >= 1, "the loser's insert collided on the primary key");
        assertEquals(a.signingKey(JWSAlgorithm.PS256).kid(), b.signingKey(JWSAlgorithm.PS256).kid());
        assertEquals(a.signingKey(JWSAlgorithm.ES256).kid(), b.signingKey(JWSAlgorithm.ES256).kid());
    }

    @Test
    void anInstanceWhoseClockIsBehindTheCreatorsSignsWithTheFirstKeyAtOnce() {
        // the loser of the first-start race reads the winner's key, created at the winner's (later) "now"
        FakeStore store = new FakeStore();
        Instant t = Instant.parse("2026-01-01T00:00:00Z");
        SigningKeyService creator = instance(store, Clock.fixed(t, ZoneOffset.UTC));
        SigningKeyService behind = instance(store, Clock.fixed(t.minusSeconds(5), ZoneOffset.UTC));
        String kid = creator.signingKey(JWSAlgorithm.RS256).kid();
        assertEquals(kid, behind.signingKey(JWSAlgorithm.RS256).kid());
        assertEquals(1, store.rows.values().stream().filter(k -> k.alg().equals("RS256")).count(), "no second key");
    }

    @Test
    void rotatedKeyIsPublishedAtOnceButSignsOnlyAfterTheDelayAndTheOldStaysPublished() throws Exception {
        FakeStore store = new FakeStore();
        MutableClock clock = new MutableClock(Instant.parse("2026-01-01T00:00:00Z"));
        SigningKeyService keys = instance(store, clock);
        assertEquals("rs256-1", keys.signingKey(JWSAlgorithm.RS256).kid());

        SigningKey next = keys.rotate(Optional.of(JWSAlgorithm.RS256), Duration.ofMinutes(15)).get(0);
        assertEquals("rs256-2", next.kid());
        // the fake store does not run the retire UPDATE: emulate the row the database would hold
        store.rows.put("rs256-1", retired(store.rows.get("rs256-1"), next.activeFrom()));
        keys.refresh();
        assertTrue(kids(keys).contains("rs256-2"), "published before it signs");
        assertEquals("rs256-1", keys.signingKey(JWSAlgorithm.RS256).kid());

        clock.set(clock.instant().plus(Duration.ofMinutes(15)));
        assertEquals("rs256-2", keys.signingKey(JWSAlgorithm.RS256).kid());
        assertTrue(kids(keys).contains("rs256-1"), "old key published while its tokens live");

        clock.set(clock.instant().plus(Duration.ofHours(1)));
        assertFalse(kids(keys).contains("rs256-1"), "dropped once its last token expired");
        assertTrue(keys.verifier("rs256-2", JWSAlgorithm.RS256).isPresent());
        assertTrue(keys.verifier("rs256-2", JWSAlgorithm.ES256).isEmpty(), "alg must match the key");
        assertTrue(keys.verifier("unknown", JWSAlgorithm.RS256).isEmpty());
    }

    @Test
    void anAdministratorsRotationIsRefusedForAnotherAlgorithmOrADelayOutsideAWeek() {
        FakeStore store = new FakeStore();
        SigningKeyService keys = instance(store, Clock.systemUTC());
        RecordingAudit audit = new RecordingAudit();
        keys.audit = audit;
        keys.signingKey(JWSAlgorithm.RS256);
        Actor actor = Actor.adminToken("192.0.2.1");
        Refusal alg = assertThrows(Refusal.class,
                () -> keys.rotate(Optional.of(JWSAlgorithm.HS256), Duration.ZERO, actor));
        assertEquals(new Refusal.InvalidField("alg", "must be one of [RS256, PS256, ES256]"), alg.reason());
        for (Duration delay : List.of(Duration.ofSeconds(-1), Duration.ofSeconds(604_801))) {
            Refusal e = assertThrows(Refusal.class, () -> keys.rotate(Optional.empty(), delay, actor));
            assertEquals("activation_delay_seconds: a whole number from 0 to 604800", e.getMessage());
            assertEquals(400, e.status());
        }
        assertEquals(List.of("rs256-1", "ps256-1", "es256-1"), new ArrayList<>(store.rows.keySet()),
                "nothing rotated");
        assertTrue(audit.lines.isEmpty(), audit.lines::toString);
        assertEquals(1, keys.rotate(Optional.of(JWSAlgorithm.RS256), Duration.ofSeconds(604_800), actor).size());
        assertEquals(1, audit.lines.size());
    }

    @Test
    void jwksHoldsPublicKeysOnly() {
        SigningKeyService keys = instance(new FakeStore(), Clock.systemUTC());
        List<JWK> published = keys.publicJwks().getKeys();
        assertEquals(3, published.size());
        published.forEach(k -> assertFalse(k.isPrivate()));
        assertEquals(3, published.stream().map(JWK::getKeyID).distinct().count());
    }

    @Test
    void privateKeysAreStoredEncryptedAndDecryptedOnceWhenLoaded() throws Exception {
        FakeStore store = new FakeStore();
        SigningKeyService keys = instance(store, Clock.systemUTC());
        SigningKeyService.ActiveKey rs = keys.signingKey(JWSAlgorithm.RS256);
        for (SigningKey row : store.rows.values()) {
            assertTrue(EncryptionKeys.isSealed(row.privateJwk()), row.kid());
            assertFalse(row.privateJwk().contains("\"d\""), "no private exponent in clear");
        }
        assertSame(rs.signer(), keys.signingKey(JWSAlgorithm.RS256).signer(), "one signer per key, not per token");
        assertSigns(keys, JWSAlgorithm.RS256);
        assertSigns(keys, JWSAlgorithm.PS256);
        assertSigns(keys, JWSAlgorithm.ES256);
    }

    @Test
    void aKeyStoredInClearIsEncryptedAtTheNextLoadAndStillSigns() throws Exception {
        FakeStore store = new FakeStore();
        Instant now = Instant.now();
        RSAKey clear = new RSAKeyGenerator(2048).keyID("rs256-1").algorithm(JWSAlgorithm.RS256).generate();
        store.rows.put("rs256-1", new SigningKey("rs256-1", "RS256", clear.toJSONString(), now, now));
        Config config = new Config();
        SigningKeyService keys = instance(store, Clock.systemUTC(), config);
        keys.refresh();

        String stored = store.rows.get("rs256-1").privateJwk();
        assertTrue(EncryptionKeys.isSealed(stored), "encrypted at load");
        assertEquals(clear.toJSONString(), new EncryptionKeys(config.kek, List.of()).open(stored, "rs256-1"));
        assertEquals("rs256-1", keys.signingKey(JWSAlgorithm.RS256).kid(), "the same key signs");
        JWSObject jws = sign(keys, JWSAlgorithm.RS256);
        assertTrue(jws.verify(new RSASSAVerifier(clear.toPublicJWK())), "with the private key stored before");
    }

    @Test
    void rotatingTheKeyEncryptionKeyReEncryptsEveryKeyUnderTheNewOne() throws Exception {
        FakeStore store = new FakeStore();
        Config old = new Config();
        old.kek = new byte[32];
        java.util.Arrays.fill(old.kek, (byte) 1);
        instance(store, Clock.systemUTC(), old).refresh();
        Map<String, String> sealedUnderOld = new LinkedHashMap<>();
        store.rows.values().forEach(r -> sealedUnderOld.put(r.kid(), r.privateJwk()));

        Config onlyNew = new Config();
        onlyNew.kek = new byte[32];
        onlyNew.kek[0] = 7;
        ConfigurationException e = assertThrows(ConfigurationException.class,
                () -> instance(store, Clock.systemUTC(), onlyNew).refresh(), "the old key is still needed");
        assertTrue(e.getMessage().contains(EncryptionKeys.CURRENT_KEY) && e.getMessage().contains("rs256-1"),
                e.getMessage());
        assertEquals(sealedUnderOld.get("rs256-1"), store.rows.get("rs256-1").privateJwk(), "nothing changed");

        Config rotated = new Config();
        rotated.kek = onlyNew.kek;
        rotated.previousKeks = List.of(old.kek);
        SigningKeyService keys = instance(store, Clock.systemUTC(), rotated);
        keys.refresh();
        EncryptionKeys newOnly = new EncryptionKeys(onlyNew.kek, List.of());
        for (SigningKey row : store.rows.values()) {
            assertNotEquals(sealedUnderOld.get(row.kid()), row.privateJwk());
            assertTrue(newOnly.isSealedUnderCurrentKey(row.privateJwk()), row.kid() + " re-encrypted");
        }
        assertEquals(List.of("rs256-1", "ps256-1", "es256-1"), new ArrayList<>(store.rows.keySet()), "the same keys");
        assertSigns(instance(store, Clock.systemUTC(), onlyNew), JWSAlgorithm.RS256);
    }

    @Test
    void everyAlgorithmHasItsOwnKeyPairWhoseJwkNamesThatAlgorithmWhateverTheSettingSays() throws Exception {
        for (String setting : List.of("RS256", "PS256", "ES256")) {
            Config config = new Config() {
                @Override
                void wire(SigningKeyService k) {
                    super.wire(k);
                    k.tokenSettings = TestSettings.tokens(Map.of("portcullis.access-token.signing-alg", setting));
                }
            };
            SigningKeyService keys = instance(new FakeStore(), Clock.systemUTC(), config);
            Map<String, JWK> byAlg = new LinkedHashMap<>();
            keys.publicJwks().getKeys().forEach(k -> byAlg.put(k.getAlgorithm().getName(), k));
            assertEquals(java.util.Set.of("RS256", "PS256", "ES256"), byAlg.keySet(), setting);
            assertEquals("ps256-1", byAlg.get("PS256").getKeyID());
            assertEquals(KeyUse.SIGNATURE, byAlg.get("PS256").getKeyUse());
            assertNotEquals(byAlg.get("RS256").toRSAKey().getModulus(), byAlg.get("PS256").toRSAKey().getModulus(),
                    "a PS256 key is not the RS256 key under another name");
            for (JWSAlgorithm alg : SigningKeyService.ALGORITHMS) {
                assertSigns(keys, alg);
            }
        }
    }

    @Test
    void aKeyVerifiesOnlyTokensThatNameItsOwnAlgorithm() throws Exception {
        SigningKeyService keys = instance(new FakeStore(), Clock.systemUTC());
        JWSObject ps = sign(keys, JWSAlgorithm.PS256);
        String kid = ps.getHeader().getKeyID();
        assertTrue(keys.verifier(kid, JWSAlgorithm.PS256).isPresent());
        assertTrue(keys.verifier(kid, JWSAlgorithm.RS256).isEmpty(), "the PS256 key under RS256");
        assertTrue(keys.verifier(keys.signingKey(JWSAlgorithm.RS256).kid(), JWSAlgorithm.PS256).isEmpty(),
                "the RS256 key under PS256");
        assertTrue(keys.verifier(kid, JWSAlgorithm.HS256).isEmpty());
    }

    @Test
    void aRotationOfEveryAlgorithmGivesEachOfTheThreeANewKey() {
        FakeStore store = new FakeStore();
        SigningKeyService keys = instance(store, Clock.systemUTC());
        keys.refresh();
        List<String> created = keys.rotate(Optional.empty(), Duration.ZERO).stream().map(SigningKey::kid).toList();
        assertEquals(List.of("rs256-2", "ps256-2", "es256-2"), created);
        assertEquals(List.of("ps256-3"), keys.rotate(Optional.of(JWSAlgorithm.PS256), Duration.ZERO).stream()
                .map(SigningKey::kid).toList(), "PS256 alone");
    }

    @Test
    void anExistingKeyTableWithoutAPs256KeyGetsOneAtTheNextLoad() throws Exception {
        FakeStore store = new FakeStore();
        Instant now = Instant.now();
        EncryptionKeys kek = new EncryptionKeys(new Config().kek, List.of());
        RSAKey rs = new RSAKeyGenerator(2048).keyID("rs256-1").algorithm(JWSAlgorithm.RS256).generate();
        store.rows.put("rs256-1", new SigningKey("rs256-1", "RS256", kek.seal(rs.toJSONString(), "rs256-1"), now, now));
        SigningKeyService keys = instance(store, Clock.systemUTC());
        keys.refresh();
        assertEquals(List.of("rs256-1", "ps256-1", "es256-1"), new ArrayList<>(store.rows.keySet()));
        assertEquals("rs256-1", keys.signingKey(JWSAlgorithm.RS256).kid(), "the existing key still signs");
    }

    private static JWSObject sign(SigningKeyService keys, JWSAlgorithm alg) throws Exception {
        SigningKeyService.ActiveKey key = keys.signingKey(alg);
        JWSObject jws = new JWSObject(new JWSHeader.Builder(alg).keyID(key.kid()).build(), new Payload("{}"));
        jws.sign(key.signer());
        return jws;
    }

    private static void assertSigns(SigningKeyService keys, JWSAlgorithm alg) throws Exception {
        JWSObject jws = sign(keys, alg);
        assertTrue(jws.verify(keys.verifier(jws.getHeader().getKeyID(), alg).orElseThrow()), alg.getName());
    }

    private static void setField(Object target, String name, Object value) {
        try {
            var f = target.getClass().getDeclaredField(name);
            f.setAccessible(true);
            f.set(target, value);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
    }

    private static List<String> kids(SigningKeyService keys) {
        return keys.publicJwks().getKeys().stream().map(JWK::getKeyID).toList();
    }

    private static SigningKey retired(SigningKey k, Instant at) throws Exception {
        var f = SigningKey.class.getDeclaredField("retiredAt");
        f.setAccessible(true);
        f.set(k, at.getEpochSecond());
        return k;
    }
}
