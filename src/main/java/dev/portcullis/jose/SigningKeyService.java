package dev.portcullis.jose;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSSigner;
import com.nimbusds.jose.JWSVerifier;
import com.nimbusds.jose.crypto.ECDSASigner;
import com.nimbusds.jose.crypto.ECDSAVerifier;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jose.crypto.RSASSAVerifier;
import com.nimbusds.jose.jwk.Curve;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jose.jwk.JWK;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.KeyUse;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.gen.ECKeyGenerator;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import dev.portcullis.admin.Refusal;
import dev.portcullis.audit.Actor;
import dev.portcullis.audit.AuditEvent;
import dev.portcullis.audit.AuditLog;
import dev.portcullis.config.ConfigurationException;
import dev.portcullis.config.IssuerSettings;
import dev.portcullis.config.KeySettings;
import dev.portcullis.config.TokenSettings;
import dev.portcullis.crypto.EncryptionKeys;
import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.security.GeneralSecurityException;
import java.security.PrivateKey;
import java.security.Provider;
import java.text.ParseException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.logging.Logger;

/**
 * The signing keys of this issuer, shared by every instance through the {@code signing_keys} table and kept parsed
 * in memory: a key's JWK is parsed and its signer built once, when this instance first sees its kid — never per
 * request. The table is re-read every {@code portcullis.keys.refresh-interval} (and at once, rate-limited, when a
 * token carries an unknown kid), so rotations made on another instance are picked up.
 *
 * <p>Algorithms: a key each for RS256, PS256 and ES256 ({@link #ALGORITHMS}), whichever one signs access tokens:
 * RS256 signs ID tokens (OIDC's mandatory algorithm), and RFC 9068 access tokens are signed with
 * {@code portcullis.access-token.signing-alg} or their API's own algorithm, so changing either needs no new key. Each
 * key is its own key pair whose JWK names its one algorithm (a PS256 key is never an RS256 key under another name).
 * At first start each algorithm gets key {@code <alg>-1}; the deterministic kid makes concurrent first starts of
 * several instances collide on the primary key, so exactly one key is created.
 *
 * <p>Private JWKs are stored sealed by {@link EncryptionKeys} (the kid as associated data) and decrypted once, when
 * a kid is first loaded, so signing costs what it did before. A row found in clear (written before encryption) or
 * sealed under a previous key-encryption key is re-sealed under the current one when it is loaded, which
 * {@link SigningKeyStartup} makes happen at deployment.
 */
@ApplicationScoped
public class SigningKeyService {

    private static final Logger LOG = Logger.getLogger(SigningKeyService.class.getName());
    /** The longest activation delay of a rotation: a week, as {@code portcullis.keys.activation-delay} allows. */
    public static final Duration MAX_ACTIVATION_DELAY = Duration.ofSeconds(604_800);
    private static final Duration UNKNOWN_KID_RELOAD_PAUSE = Duration.ofSeconds(1);

    @Inject
    SigningKeyRepository store;

    @Inject
    IssuerSettings issuer;

    @Inject
    TokenSettings tokenSettings;

    @Inject
    KeySettings keySettings;

    @Inject
    Clock clock;

    @Inject
    AuditLog audit;

    /** How far another instance's clock may lag behind the one that created the first key of an algorithm. */
    static final Duration FIRST_KEY_CLOCK_SKEW = Duration.ofMinutes(1);

    private Optional<Provider> provider;
    private EncryptionKeys encryption;
    private volatile Snapshot snapshot;
    private volatile Instant lastUnknownKidReload = Instant.EPOCH;

    /** A key ready to use: the row (times) plus its parsed JWK, signer and verifier. */
    record LoadedKey(SigningKey row, JWK privateJwk, JWSSigner signer, JWSVerifier verifier) {
        JWSAlgorithm alg() {
            return JWSAlgorithm.parse(row.alg());
        }
    }

    private record Snapshot(Instant loadedAt, Map<String, LoadedKey> byKid) {
    }

    /** The key that signs now with {@code alg}: its kid and signer. */
    public record ActiveKey(String kid, JWSAlgorithm alg, JWSSigner signer) {
    }

    @PostConstruct
    void init() {
        provider = JcaProviders.resolve(keySettings.jcaProvider());
        encryption = EncryptionKeys.fromSettings(keySettings, issuer);
    }

    /** The algorithms this issuer keeps a key for, in the order first keys are created and rotations list them. */
    public static final Set<JWSAlgorithm> ALGORITHMS = Collections.unmodifiableSet(new LinkedHashSet<>(
            List.of(JWSAlgorithm.RS256, JWSAlgorithm.PS256, JWSAlgorithm.ES256)));

    /** Algorithms this issuer keeps keys for: {@link #ALGORITHMS}. */
    public Set<JWSAlgorithm> algorithms() {
        return ALGORITHMS;
    }

    /** The current signing key for {@code alg}: the newest one whose active_from has passed and that is not retired. */
    public ActiveKey signingKey(JWSAlgorithm alg) {
        Instant now = clock.instant();
        LoadedKey best = snapshot(now).byKid().values().stream()
                .filter(k -> k.alg().equals(alg) && signsAt(k.row(), now))
                .max(Comparator.comparing((LoadedKey k) -> k.row().activeFrom()).thenComparing(k -> k.row().kid()))
                .orElseThrow(() -> new IllegalStateException("No active signing key for " + alg));
        return new ActiveKey(best.row().kid(), best.alg(), best.signer());
    }

    /**
     * The verifier for a token's {@code kid}, if that key is published now. An unknown kid triggers one re-read of
     * the table (at most once a second), since another instance may have just rotated.
     */
    public Optional<JWSVerifier> verifier(String kid, JWSAlgorithm alg) {
        if (kid == null) {
            return Optional.empty();
        }
        Instant now = clock.instant();
        LoadedKey k = snapshot(now).byKid().get(kid);
        if (k == null && now.isAfter(lastUnknownKidReload.plus(UNKNOWN_KID_RELOAD_PAUSE))) {
            lastUnknownKidReload = now;
            k = reload(now).byKid().get(kid);
        }
        return Optional.ofNullable(k).filter(key -> key.alg().equals(alg) && isPublished(key.row(), now))
                .map(LoadedKey::verifier);
    }

    /** The JWKS: public parts of every key that is published now (upcoming, active, and retired-but-unexpired). */
    public JWKSet publicJwks() {
        Instant now = clock.instant();
        List<JWK> keys = new ArrayList<>();
        snapshot(now).byKid().values().stream()
                .filter(k -> isPublished(k.row(), now))
                .sorted(Comparator.comparing((LoadedKey k) -> k.row().activeFrom()).reversed())
                .forEach(k -> keys.add(k.privateJwk().toPublicJWK()));
        return new JWKSet(keys);
    }

    /** Every key row (for the admin API); no key material. */
    public List<SigningKey> rows() {
        return store.all();
    }

    /**
     * Rotation as {@code actor}'s change ({@link #rotate(Optional, Duration)}), audited as {@code SIGNING_KEY_ROTATED}
     * once per new key.
     *
     * @return the new keys
     * @throws Refusal when {@code onlyAlg} is not one of {@link #algorithms}, the delay is outside 0 to
     *                       {@link #MAX_ACTIVATION_DELAY}, or another rotation inserted the same kid first
     */
    public List<SigningKey> rotate(Optional<JWSAlgorithm> onlyAlg, Duration activationDelay, Actor actor) {
        if (onlyAlg.isPresent() && !algorithms().contains(onlyAlg.get())) {
            throw Refusal.invalid("alg", "must be one of " + algorithms());
        }
        if (activationDelay.isNegative() || activationDelay.compareTo(MAX_ACTIVATION_DELAY) > 0) {
            throw invalidActivationDelay();
        }
        List<SigningKey> created;
        try {
            created = rotate(onlyAlg, activationDelay);
        } catch (jakarta.persistence.PersistenceException | jakarta.transaction.TransactionalException e) {
            // two rotations at once: the deterministic kid lets only one insert win
            throw new Refusal(new Refusal.KeyRotationInProgress());
        }
        for (SigningKey k : created) {
            audit.change(AuditEvent.Type.SIGNING_KEY_ROTATED, actor, null, null,
                    k.kid() + " signs from " + k.activeFrom().getEpochSecond());
        }
        return created;
    }

    /**
     * Rotation: for each algorithm (or just {@code onlyAlg}) publish a new key now that starts signing after
     * {@code activationDelay}; the current key signs until then and stays published until its tokens expire.
     *
     * @return the new keys
     */
    List<SigningKey> rotate(Optional<JWSAlgorithm> onlyAlg, Duration activationDelay) {
        Instant now = clock.instant();
        List<SigningKey> created = new ArrayList<>();
        List<SigningKey> rows = store.all();
        for (JWSAlgorithm alg : algorithms()) {
            if (onlyAlg.isPresent() && !onlyAlg.get().equals(alg)) {
                continue;
            }
            SigningKey next = generate(alg, nextGeneration(rows, alg), now, now.plus(activationDelay));
            store.rotate(next, now.minus(tokenSettings.accessTokenTtl()));
            created.add(next);
            LOG.info(() -> "Signing key " + next.kid() + " published; it signs from " + next.activeFrom());
        }
        reload(now);
        return created;
    }

    /** The refusal of an activation delay, in the admin API's words. */
    static Refusal invalidActivationDelay() {
        return Refusal.invalid("activation_delay_seconds", "a whole number from 0 to "
                + MAX_ACTIVATION_DELAY.toSeconds());
    }

    /** Forces a re-read of the table (tests, admin). */
    public void refresh() {
        reload(clock.instant());
    }

    static boolean signsAt(SigningKey k, Instant now) {
        return !k.activeFrom().isAfter(now) && (k.retiredAt() == null || k.retiredAt().isAfter(now));
    }

    /** A key's state now, as the console shows it: signing, published before it signs, or no longer signing. */
    public enum State { ACTIVE, NEXT, RETIRED }

    public State stateOf(SigningKey k) {
        Instant now = clock.instant();
        if (signsAt(k, now)) {
            return State.ACTIVE;
        }
        return k.activeFrom().isAfter(now) && k.retiredAt() == null ? State.NEXT : State.RETIRED;
    }

    /** Published from creation until the last token it could have signed has expired. */
    private boolean isPublished(SigningKey k, Instant now) {
        return !k.createdAt().isAfter(now)
                && (k.retiredAt() == null || k.retiredAt().plus(tokenSettings.accessTokenTtl()).isAfter(now));
    }

    private Snapshot snapshot(Instant now) {
        Snapshot s = snapshot;
        if (s == null || !now.isBefore(s.loadedAt().plus(keySettings.refreshInterval()))) {
            try {
                s = reload(now, false);
            } catch (RuntimeException e) {
                if (s == null) {
                    throw e;
                }
                // database briefly unreachable: keep verifying and serving the JWKS with the keys we know
                LOG.warning(() -> "Could not re-read signing keys, using the cached ones: " + e.getClass().getSimpleName());
            }
        }
        return s;
    }

    private Snapshot reload(Instant now) {
        return reload(now, true);
    }

    /** Re-reads the table; unless forced, a snapshot another thread has just loaded is reused. */
    private synchronized Snapshot reload(Instant now, boolean force) {
        Snapshot current = snapshot;
        if (!force && current != null && now.isBefore(current.loadedAt().plus(keySettings.refreshInterval()))) {
            return current;
        }
        List<SigningKey> rows = store.all();
        if (ensureKeys(rows, now)) {
            rows = store.all();
        }
        Map<String, LoadedKey> previous = snapshot == null ? Map.of() : snapshot.byKid();
        Map<String, LoadedKey> byKid = new HashMap<>();
        for (SigningKey row : rows) {
            LoadedKey known = previous.get(row.kid());
            byKid.put(row.kid(), known != null ? new LoadedKey(row, known.privateJwk(), known.signer(), known.verifier())
                    : load(row));
        }
        Snapshot s = new Snapshot(now, Map.copyOf(byKid));
        snapshot = s;
        return s;
    }

    /** Creates the first key of every algorithm that has none that can sign; returns whether it inserted one. */
    private boolean ensureKeys(List<SigningKey> rows, Instant now) {
        boolean inserted = false;
        for (JWSAlgorithm alg : algorithms()) {
            boolean hasKey = rows.stream().anyMatch(k -> k.alg().equals(alg.getName()) && k.retiredAt() == null);
            if (!hasKey) {
                // active a little before its creation: another instance whose clock is behind the creator's, or that
                // lost the race to create it, must be able to sign with it at once
                SigningKey key = generate(alg, nextGeneration(rows, alg), now, now.minus(FIRST_KEY_CLOCK_SKEW));
                try {
                    store.insert(key);
                    LOG.info(() -> "Created signing key " + key.kid());
                } catch (RuntimeException e) {
                    // PersistenceException (duplicate kid) or the TransactionalException wrapping it at commit
                    LOG.info(() -> "Signing key " + key.kid() + " not inserted (another instance created it?): "
                            + e.getClass().getSimpleName());
                }
                inserted = true;
            }
        }
        return inserted;
    }

    private static int nextGeneration(List<SigningKey> rows, JWSAlgorithm alg) {
        String prefix = alg.getName().toLowerCase(java.util.Locale.ROOT) + "-";
        return rows.stream().map(SigningKey::kid).filter(kid -> kid.startsWith(prefix))
                .mapToInt(kid -> {
                    try {
                        return Integer.parseInt(kid.substring(prefix.length()));
                    } catch (NumberFormatException e) {
                        return 0;
                    }
                }).max().orElse(0) + 1;
    }

    private SigningKey generate(JWSAlgorithm alg, int generation, Instant now, Instant activeFrom) {
        String kid = alg.getName().toLowerCase(java.util.Locale.ROOT) + "-" + generation;
        try {
            JWK jwk;
            if (JWSAlgorithm.RS256.equals(alg) || JWSAlgorithm.PS256.equals(alg)) {
                jwk = new RSAKeyGenerator(2048).keyID(kid).keyUse(KeyUse.SIGNATURE).algorithm(alg).generate();
            } else if (JWSAlgorithm.ES256.equals(alg)) {
                jwk = new ECKeyGenerator(Curve.P_256).keyID(kid).keyUse(KeyUse.SIGNATURE).algorithm(alg).generate();
            } else {
                throw new IllegalArgumentException("Unsupported signing algorithm " + alg);
            }
            return new SigningKey(kid, alg.getName(), encryption.seal(jwk.toJSONString(), kid), now, activeFrom);
        } catch (JOSEException e) {
            throw new IllegalStateException("Could not generate a " + alg + " key", e);
        }
    }

    private LoadedKey load(SigningKey row) {
        String json = privateJwkJson(row);
        try {
            JWK jwk = JWK.parse(json);
            // the private key is translated once into the provider's own key (see JcaProviders.translate); the
            // verifiers take the JDK public key (verification is off the hot path: userinfo matches a stored hash)
            if (jwk instanceof RSAKey rsa) {
                PrivateKey key = JcaProviders.translate(rsa.toPrivateKey(), provider);
                return new LoadedKey(row, jwk, JcaProviders.apply(new RSASSASigner(key), provider),
                        JcaProviders.apply(new RSASSAVerifier(rsa.toRSAPublicKey()), provider));
            }
            if (jwk instanceof ECKey ec) {
                PrivateKey key = JcaProviders.translate(ec.toPrivateKey(), provider);
                return new LoadedKey(row, jwk, JcaProviders.apply(new ECDSASigner(key, ec.getCurve()), provider),
                        JcaProviders.apply(new ECDSAVerifier(ec.toECPublicKey()), provider));
            }
            throw new IllegalStateException("Signing key " + row.kid() + " has an unsupported key type");
        } catch (ParseException | JOSEException | GeneralSecurityException e) {
            // the message names the kid only; the exception text could quote key material
            throw new IllegalStateException("Signing key " + row.kid() + " cannot be parsed");
        }
    }

    /** The row's private JWK in clear, re-sealing the stored value first if it is not under the current KEK. */
    private String privateJwkJson(SigningKey row) {
        String stored = row.privateJwk();
        if (encryption.isSealedUnderCurrentKey(stored)) {
            return open(row, stored);
        }
        String json = EncryptionKeys.isSealed(stored) ? open(row, stored) : stored;
        if (store.reseal(row.kid(), stored, encryption.seal(json, row.kid()))) {
            LOG.info(() -> "Signing key " + row.kid() + " is now encrypted under the current key-encryption key");
        }
        return json;
    }

    private String open(SigningKey row, String stored) {
        try {
            return encryption.open(stored, row.kid());
        } catch (GeneralSecurityException e) {
            throw new ConfigurationException(EncryptionKeys.CURRENT_KEY, "cannot decrypt signing key " + row.kid()
                    + " (" + e.getMessage() + "); set the key it was encrypted with as " + EncryptionKeys.CURRENT_KEY
                    + " or in " + EncryptionKeys.PREVIOUS_KEYS);
        }
    }
}
