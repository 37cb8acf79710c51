package dev.portcullis.mfa;

import dev.portcullis.account.User;
import dev.portcullis.audit.Actor;
import dev.portcullis.audit.AuditEvent;
import dev.portcullis.audit.AuditLog;
import dev.portcullis.config.ConfigurationException;
import dev.portcullis.config.IssuerSettings;
import dev.portcullis.config.KeySettings;
import dev.portcullis.crypto.EncryptionKeys;
import dev.portcullis.crypto.Secrets;
import dev.portcullis.metrics.Metrics;
import dev.portcullis.mfa.SecondFactorRepository.TotpRow;
import dev.portcullis.mfa.SecondFactorRepository.TotpSeed;
import dev.portcullis.session.AuthMethods;
import dev.portcullis.session.SsoSessionRepository;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.transaction.Transactional;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * A user's second factors: the TOTP authenticator (seed sealed by {@link EncryptionKeys}, the user id as associated
 * data) and the recovery codes (SHA-256 with the user id, each usable once), in {@link SecondFactorRepository}:
 * each code is accepted by one conditional UPDATE, so a code is good once on any number of instances. Wrong codes
 * count in the account's second-factor counter ({@link SecondFactorGuard}).
 */
@ApplicationScoped
public class SecondFactorService {

    public static final int RECOVERY_CODES = 10;
    /** How long a seed shown for enrolment may be confirmed, by the session it was shown to. */
    public static final Duration PENDING_TTL = Duration.ofMinutes(10);
    /** 16 characters of a 32-letter alphabet without 0/o, 1/l/i: 80 bits, typed in four groups. */
    private static final String RECOVERY_ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789";
    private static final SecureRandom RANDOM = new SecureRandom();

    @Inject
    SecondFactorRepository repository;

    @Inject
    Metrics metrics;

    @Inject
    IssuerSettings issuer;

    @Inject
    KeySettings keySettings;

    @Inject
    Clock clock;

    @Inject
    SecondFactorGuard attempts;

    @Inject
    AuditLog audit;

    @Inject
    SsoSessionRepository sessions;

    @Inject
    PasskeyService passkeys;

    volatile EncryptionKeys keys;

    /** How a presented factor was judged; {@code WAIT} and {@code LOCKED} come from the throttles. */
    public enum Outcome { ACCEPTED, INVALID, WAIT, LOCKED }

    /** Whether the user has a confirmed TOTP authenticator. */
    public boolean hasTotp(String userId) {
        return repository.totp(userId).filter(TotpRow::confirmed).isPresent();
    }

    /** A pending seed this session may see and confirm: shown to it, less than {@link #PENDING_TTL} ago. */
    private Optional<TotpRow> pendingFor(String userId, String sessionHash) {
        long notBefore = clock.instant().getEpochSecond() - PENDING_TTL.toSeconds();
        return repository.totp(userId).filter(r -> !r.confirmed() && sessionHash.equals(r.sessionHash())
                && r.createdAt() >= notBefore);
    }

    /** Unused recovery codes left. */
    public int recoveryCodesLeft(String userId) {
        return repository.unusedRecoveryCodes(userId);
    }

    /**
     * The seed of the user's enrolment in progress in the SSO session {@code sessionHash}, in Base32 for the QR code:
     * the pending one this session was shown in the last {@link #PENDING_TTL} (so a wrong first code shows the same
     * QR code again), else a new one stored sealed, unconfirmed and bound to this session (replacing one shown to
     * another session or expired, which is never shown again). Empty when the user already has a confirmed
     * authenticator (remove it first) or another request replaced the pending seed at this moment.
     */
    @Transactional
    public Optional<String> pendingTotp(String userId, String sessionHash) {
        Optional<TotpRow> row = repository.totp(userId);
        if (row.isPresent() && row.get().confirmed()) {
            return Optional.empty();
        }
        Optional<TotpRow> mine = pendingFor(userId, sessionHash);
        if (mine.isPresent()) {
            return Optional.of(open(mine.get().sealed(), userId));
        }
        String secret = Totp.newSecret();
        String sealed = keys().seal(secret, associatedData(userId));
        long now = clock.instant().getEpochSecond();
        boolean written = row.isPresent()
                ? repository.replacePendingTotp(userId, row.get().sealed(), sealed, now, sessionHash)
                : repository.addPendingTotp(userId, sealed, now, sessionHash);
        return written ? Optional.of(secret) : Optional.empty();
    }

    /**
     * Confirms the enrolment pending in the SSO session {@code sessionHash} ({@link #pendingTotp}) with the first
     * code from the app; on success the new recovery codes (shown once, replacing any earlier ones). Empty when the
     * code is wrong, or nothing is pending for this session (shown to another one, expired, or none).
     */
    @Transactional
    public Optional<List<String>> confirmTotp(User user, String sessionHash, String code, String ip) {
        String userId = user.userId();
        Optional<String> sealed = pendingFor(userId, sessionHash).map(TotpRow::sealed);
        if (sealed.isEmpty()) {
            return Optional.empty();
        }
        OptionalLong step = Totp.matchingStep(open(sealed.get(), userId), normalise(code), clock.instant());
        if (step.isEmpty() || !repository.confirmTotp(userId, sealed.get(), sessionHash,
                clock.instant().getEpochSecond(), step.getAsLong())) {
            return Optional.empty();
        }
        List<String> codes = newRecoveryCodes(userId);
        audit.success(AuditEvent.Type.SECOND_FACTOR_ENROLLED, null, userId, ip, "totp");
        return Optional.of(codes);
    }

    /**
     * Checks a one-time code or a recovery code at sign-in, after the password: counted in the account's
     * second-factor throttle before it is checked (and on the address when wrong), accepted at most once.
     */
    public Outcome verify(User user, String presented, String clientId, String ip) {
        Optional<Outcome> blocked = attempts.reserve(user, clientId, ip, "second factor");
        if (blocked.isPresent()) {
            return blocked.get();
        }
        String code = normalise(presented);
        boolean ok = code.length() == Totp.DIGITS ? useTotp(user.userId(), code) : useRecoveryCode(user.userId(), code);
        if (!ok) {
            audit.failure(AuditEvent.Type.SECOND_FACTOR_FAILURE, clientId, user.userId(), ip, null);
            metrics.signIn(Metrics.Method.OTP, Metrics.Reason.SECOND_FACTOR_FAILED);
            attempts.failed(user, clientId, ip);
            return Outcome.INVALID;
        }
        attempts.succeeded(user);
        audit.success(AuditEvent.Type.SECOND_FACTOR_SUCCESS, clientId, user.userId(), ip,
                code.length() == Totp.DIGITS ? AuthMethods.OTP : "recovery code");
        metrics.signIn(Metrics.Method.OTP, Metrics.Reason.NONE);
        return Outcome.ACCEPTED;
    }

    /** Removes every factor of the user (administrator reset, or the user removing theirs); returns how many. */
    @Transactional
    public int removeAll(String userId) {
        return repository.removeAll(userId) ? 1 : 0;
    }

    /**
     * An administrator's reset (a lost phone or key), the same from the admin API and the console: removes the user's
     * authenticator app, recovery codes and passkeys, ends all their SSO sessions, and audits both as
     * {@code actor}'s change. Where a second factor is required, the user enrols a new one at the next sign-in.
     */
    @Transactional
    public void reset(User user, Actor actor) {
        int totp = removeAll(user.userId());
        int keys = passkeys.removeAll(user.userId());
        String app = totp == 0 ? "" : "authenticator and recovery codes removed; ";
        audit.change(AuditEvent.Type.SECOND_FACTORS_RESET, actor, null, user.username(),
                totp + keys == 0 ? "none enrolled" : app + keys + " passkey(s) removed");
        // a session that gave a removed factor must not outlive it, and no session may enrol the next one unasked
        int ended = sessions.endAllOf(user.userId());
        audit.change(AuditEvent.Type.SESSION_ENDED, actor, null, user.username(),
                "second factors reset: " + SsoSessionRepository.ended(ended));
        metrics.logout(Metrics.LogoutTrigger.ADMIN);
    }

    /**
     * Re-seals under the current key-encryption key every authenticator seed sealed under a previous one (at start,
     * after a rotation of {@code portcullis.keys.encryption-key}); how many this call re-sealed. Each row is replaced
     * by one UPDATE conditional on the value it read, so instances starting together re-seal it once and never
     * overwrite a newer seed.
     */
    public int resealSeeds() {
        EncryptionKeys k = keys();
        int resealed = 0;
        for (TotpSeed row : repository.seedsNotSealedWith(k.currentKeyPrefix())) {
            String seed;
            try {
                seed = k.open(row.sealed(), associatedData(row.userId()));
            } catch (GeneralSecurityException e) {
                throw new ConfigurationException(EncryptionKeys.CURRENT_KEY, "cannot decrypt the authenticator seed "
                        + "of user " + row.userId() + " (" + e.getMessage() + "); set the key it was encrypted with as "
                        + EncryptionKeys.CURRENT_KEY + " or in " + EncryptionKeys.PREVIOUS_KEYS);
            }
            if (repository.reseal(row.userId(), row.sealed(), k.seal(seed, associatedData(row.userId())))) {
                resealed++;
            }
        }
        return resealed;
    }

    /** A TOTP code is accepted by raising the factor's last step, so the same code (or an older one) fails. */
    private boolean useTotp(String userId, String code) {
        Optional<String> sealed = repository.totp(userId).filter(TotpRow::confirmed).map(TotpRow::sealed);
        if (sealed.isEmpty()) {
            return false;
        }
        OptionalLong step = Totp.matchingStep(open(sealed.get(), userId), code, clock.instant());
        return step.isPresent() && repository.useTotpStep(userId, step.getAsLong());
    }

    private boolean useRecoveryCode(String userId, String code) {
        if (code.length() != 16) {
            return false;
        }
        return repository.useRecoveryCode(userId, recoveryHash(userId, code), clock.instant().getEpochSecond());
    }

    private List<String> newRecoveryCodes(String userId) {
        List<String> codes = new ArrayList<>();
        List<String> hashes = new ArrayList<>();
        for (int i = 0; i < RECOVERY_CODES; i++) {
            StringBuilder c = new StringBuilder();
            for (int j = 0; j < 16; j++) {
                c.append(RECOVERY_ALPHABET.charAt(RANDOM.nextInt(RECOVERY_ALPHABET.length())));
            }
            hashes.add(recoveryHash(userId, c.toString()));
            codes.add(c.substring(0, 4) + "-" + c.substring(4, 8) + "-" + c.substring(8, 12) + "-" + c.substring(12));
        }
        repository.replaceRecoveryCodes(userId, hashes);
        return codes;
    }

    private static String recoveryHash(String userId, String code) {
        return Secrets.hash(userId + ":" + code);
    }

    /** Codes as people type them: spaces and dashes dropped, lower case; bounded before any work. */
    static String normalise(String presented) {
        if (presented == null || presented.length() > 64) {
            return "";
        }
        return presented.replaceAll("[\\s-]", "").toLowerCase(Locale.ROOT);
    }

    private String open(String sealed, String userId) {
        try {
            return keys().open(sealed, associatedData(userId));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("The TOTP seed of a user cannot be decrypted with the configured keys", e);
        }
    }

    private static String associatedData(String userId) {
        return "totp:" + userId;
    }

    private EncryptionKeys keys() {
        EncryptionKeys k = keys;
        if (k == null) {
            k = EncryptionKeys.fromSettings(keySettings, issuer);
            keys = k;
        }
        return k;
    }
}
