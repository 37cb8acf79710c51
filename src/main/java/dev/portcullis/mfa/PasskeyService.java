package dev.portcullis.mfa;

import dev.portcullis.account.SignInService;
import dev.portcullis.account.SignInThrottle;
import dev.portcullis.account.ThrottlePolicy;
import dev.portcullis.account.User;
import dev.portcullis.account.UserLookupService;
import dev.portcullis.audit.AuditEvent;
import dev.portcullis.audit.AuditLog;
import dev.portcullis.config.IssuerSettings;
import dev.portcullis.config.KeySettings;
import dev.portcullis.crypto.EncryptionKeys;
import dev.portcullis.crypto.Secrets;
import dev.portcullis.metrics.Metrics;
import dev.portcullis.mfa.PasskeyRepository.Stored;
import dev.portcullis.protocol.LogText;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.transaction.Transactional;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * A user's passkeys (WebAuthn credentials) and the challenges of the ceremonies that register and use them, stored by
 * {@link PasskeyRepository}. A challenge is bound to a browser (its SSO
 * session, or its CSRF cookie before sign-in) and a purpose, lives {@link #CHALLENGE_TTL}, and answers one ceremony
 * on any instance. A signed-in user's challenges are rows, used up by one DELETE. The passwordless challenge of the
 * login page is written nowhere until it is used: it carries its expiry and a nonce with their HMAC under the
 * key-encryption key and the browser's binding, and one INSERT of its hash (the primary key) uses it up, so viewing
 * the login page writes nothing. An assertion is accepted by the one UPDATE that raises the credential's sign count.
 * Failed assertions after the password count in the account's second-factor counter, passwordless ones like a
 * password ({@link SecondFactorGuard}).
 */
@ApplicationScoped
public class PasskeyService {

    static final Duration CHALLENGE_TTL = Duration.ofMinutes(5);
    /** Passkeys one user may register; a bound on rows and on the page's credential lists. */
    public static final int MAX_PER_USER = 10;
    public static final int MAX_NAME = 60;

    private static final Logger LOG = Logger.getLogger(PasskeyService.class.getName());
    private static final SecureRandom RANDOM = new SecureRandom();
    private static final Base64.Encoder B64URL = Base64.getUrlEncoder().withoutPadding();
    private static final int NONCE_BYTES = 16;
    private static final int SEALED_BYTES = Long.BYTES + NONCE_BYTES + 32;

    @Inject
    PasskeyRepository repository;

    @Inject
    Metrics metrics;

    @Inject
    IssuerSettings issuer;

    @Inject
    KeySettings keySettings;

    @Inject
    Clock clock;

    @Inject
    SignInThrottle throttle;

    @Inject
    SecondFactorGuard attempts;

    @Inject
    AuditLog audit;

    @Inject
    UserLookupService users;

    @Inject
    SignInService signIn;

    private volatile PasskeyVerifier verifier;

    /** The key-encryption keys, read from the configuration at first use. */
    volatile EncryptionKeys keys;

    /** Which ceremony a challenge belongs to; a challenge of one is never accepted by another. */
    public enum Purpose { REGISTER, FACTOR, PASSWORDLESS }

    /** A registered passkey as the account page lists it. */
    public record Passkey(String passkeyId, String name, Instant createdAt, Instant lastUsedAt) {
    }

    /** What a ceremony needs from the page: the challenge (base64url), RP ID and credential ids (base64url). */
    public record Ceremony(String challenge, String rpId, List<String> credentialIds) {
        /** The credential ids space-separated, as the page's {@code data-credentials} carries them. */
        public String credentialIdList() {
            return String.join(" ", credentialIds);
        }
    }

    /** The outcome of a passwordless sign-in; the user when it was accepted. */
    public record SignIn(SecondFactorService.Outcome outcome, Optional<User> user) {
    }

    /**
     * A new challenge for {@code purpose}, bound to {@code binding} (an SSO session hash or a CSRF cookie value),
     * with the user's credential ids when there is a user ({@code excludeCredentials} / {@code allowCredentials}).
     * Expired challenges are deleted on the way, so the table stays as small as the ceremonies in flight. A
     * {@link Purpose#PASSWORDLESS} challenge writes nothing: an unauthenticated page view must not add a row.
     */
    public Ceremony begin(Purpose purpose, String binding, String userId) {
        long now = clock.instant().getEpochSecond();
        if (purpose == Purpose.PASSWORDLESS) {
            byte[] nonce = new byte[NONCE_BYTES];
            RANDOM.nextBytes(nonce);
            return new Ceremony(B64URL.encodeToString(sealedChallenge(binding, now + CHALLENGE_TTL.toSeconds(),
                    nonce)), verifier().rpId(), List.of());
        }
        byte[] raw = new byte[32];
        RANDOM.nextBytes(raw);
        String challenge = B64URL.encodeToString(raw);
        repository.deleteExpiredChallenges(now);
        repository.addChallenge(Secrets.hash(challenge), purpose.name(), bindingHash(binding),
                now + CHALLENGE_TTL.toSeconds());
        return new Ceremony(challenge, verifier().rpId(), userId == null ? List.of() : repository.credentialIds(userId));
    }

    /** Uses the challenge up: true for exactly one caller, if it is unexpired and was given to this binding. */
    boolean useChallenge(Purpose purpose, String binding, String challenge) {
        if (purpose == Purpose.PASSWORDLESS) {
            return useSealedChallenge(binding, challenge);
        }
        return repository.useChallenge(Secrets.hash(challenge), purpose.name(), bindingHash(binding),
                clock.instant().getEpochSecond());
    }

    /**
     * A sealed challenge is used up by the one INSERT of its hash that succeeds (kept until it expires, so a replay
     * finds it); one that was altered, given to another browser or expired is refused before anything is written.
     */
    private boolean useSealedChallenge(String binding, String challenge) {
        ByteBuffer in;
        try {
            in = ByteBuffer.wrap(Base64.getUrlDecoder().decode(challenge));
        } catch (IllegalArgumentException e) {
            return false;
        }
        if (in.remaining() != SEALED_BYTES) {
            return false;
        }
        long expiresAt = in.getLong();
        byte[] nonce = new byte[NONCE_BYTES];
        in.get(nonce);
        long now = clock.instant().getEpochSecond();
        // no upper bound on the expiry: only this server's key signs one, and instances' clocks may differ a little
        if (expiresAt < now || !MessageDigest.isEqual(in.array(), sealedChallenge(binding, expiresAt, nonce))) {
            return false;
        }
        repository.deleteExpiredChallenges(now);
        return repository.addUsedChallenge(Secrets.hash(challenge), Purpose.PASSWORDLESS.name(),
                bindingHash(binding), expiresAt);
    }

    /** Expiry, nonce and their tag under the key-encryption key and the browser: 56 bytes (WebAuthn allows 64). */
    private byte[] sealedChallenge(String binding, long expiresAt, byte[] nonce) {
        byte[] tag = Base64.getUrlDecoder().decode(keys().tag("webauthn-challenge", Purpose.PASSWORDLESS.name()
                + "|" + binding + "|" + expiresAt + "|" + B64URL.encodeToString(nonce)));
        return ByteBuffer.allocate(SEALED_BYTES).putLong(expiresAt).put(nonce).put(tag).array();
    }

    public boolean has(String userId) {
        return repository.count(userId) > 0;
    }

    public List<Passkey> list(String userId) {
        return repository.list(userId);
    }

    /**
     * Registers a passkey of the signed-in user from the browser's {@code navigator.credentials.create()} answer to
     * a {@link Purpose#REGISTER} challenge of this binding. False (nothing written) for anything malformed, a
     * used or foreign challenge, a credential registered before, or a user at {@link #MAX_PER_USER}.
     */
    public boolean register(User user, String name, String json, String binding, String ip) {
        try {
            PasskeyVerifier.Registration r = verifier().parseRegistration(json);
            if (!useChallenge(Purpose.REGISTER, binding, r.challenge())) {
                throw new PasskeyVerifier.Rejected("unknown, used, expired or foreign challenge");
            }
            PasskeyVerifier.NewCredential c = verifier().verifyRegistration(r);
            if (repository.count(user.userId()) >= MAX_PER_USER) {
                throw new PasskeyVerifier.Rejected("already " + MAX_PER_USER + " passkeys");
            }
            long now = clock.instant().getEpochSecond();
            if (!repository.add(Secrets.newTimeOrderedId(), user.userId(), Secrets.hash(c.credentialId()),
                    c.credentialId(), c.publicKey(), cleanName(name), c.signCount(), now)) {
                throw new PasskeyVerifier.Rejected("credential registered before");
            }
            audit.success(AuditEvent.Type.SECOND_FACTOR_ENROLLED, null, user.userId(), ip, "passkey");
            return true;
        } catch (PasskeyVerifier.Rejected e) {
            audit.failure(AuditEvent.Type.SECOND_FACTOR_FAILURE, null, user.userId(), ip,
                    "passkey registration: " + e.getMessage());
            return false;
        }
    }

    /**
     * Checks a passkey as the second step of a sign-in (after the password): an assertion by one of the user's
     * passkeys answering a {@link Purpose#FACTOR} challenge of this binding. Counted like a password attempt.
     */
    public SecondFactorService.Outcome verifySecondFactor(User user, String json, String binding, String clientId,
                                                    String ip) {
        Optional<SecondFactorService.Outcome> blocked = attempts.reserve(user, clientId, ip, "passkey");
        if (blocked.isPresent()) {
            return blocked.get();
        }
        try {
            PasskeyVerifier.Assertion a = verifier().parseAssertion(json);
            Stored stored = find(a.credentialId()).filter(s -> s.userId().equals(user.userId()))
                    .orElseThrow(() -> new PasskeyVerifier.Rejected("not a passkey of this user"));
            accept(a, stored, Purpose.FACTOR, binding, false);
        } catch (PasskeyVerifier.Rejected e) {
            refused(e, clientId, user, ip);
            return SecondFactorService.Outcome.INVALID;
        }
        attempts.succeeded(user);
        audit.success(AuditEvent.Type.SECOND_FACTOR_SUCCESS, clientId, user.userId(), ip, "passkey");
        return SecondFactorService.Outcome.ACCEPTED;
    }

    /**
     * A passwordless sign-in with a discoverable credential: the user is the passkey's owner, who must be enabled
     * (a directory user: still in the directory) and verified by the authenticator (UV). Unknown credentials count
     * on the client address; a known one also on its account, like a wrong password.
     */
    public SignIn signInPasswordless(String json, String binding, String clientId, String ip) {
        PasskeyVerifier.Assertion a;
        Optional<Stored> stored;
        try {
            a = verifier().parseAssertion(json);
            stored = find(a.credentialId());
        } catch (PasskeyVerifier.Rejected e) {
            a = null;
            stored = Optional.empty();
        }
        User user = stored.flatMap(s -> users.findById(s.userId())).orElse(null);
        if (a == null || user == null) {
            if (throttle.checkAddress(ip, null) != ThrottlePolicy.Verdict.ALLOW) {
                return new SignIn(SecondFactorService.Outcome.WAIT, Optional.empty());
            }
            throttle.recordAddressFailure(ip);
            audit.failure(AuditEvent.Type.SIGN_IN_FAILURE, clientId, null, ip,
                    a == null ? "passkey: malformed assertion" : "passkey: unknown credential");
            metrics.signIn(Metrics.Method.PASSKEY, Metrics.Reason.UNKNOWN_USER);
            return new SignIn(SecondFactorService.Outcome.INVALID, Optional.empty());
        }
        Optional<SecondFactorService.Outcome> blocked = attempts.reservePasswordless(user, clientId, ip);
        if (blocked.isPresent()) {
            return new SignIn(blocked.get(), Optional.empty());
        }
        try {
            byte[] handle = a.data().getUserHandle();
            if (handle != null && !MessageDigest.isEqual(handle, user.userId().getBytes(StandardCharsets.UTF_8))) {
                throw new PasskeyVerifier.Rejected("user handle is not the credential's owner");
            }
            accept(a, stored.get(), Purpose.PASSWORDLESS, binding, true);
            if (!user.enabled() || !signIn.allowsSignInWithoutPassword(user.userId())) {
                throw new PasskeyVerifier.Rejected("account disabled");
            }
        } catch (PasskeyVerifier.Rejected e) {
            refused(e, clientId, user, ip);
            return new SignIn(SecondFactorService.Outcome.INVALID, Optional.empty());
        }
        attempts.signedInPasswordless(user);
        audit.success(AuditEvent.Type.SIGN_IN_SUCCESS, clientId, user.userId(), ip, "passkey, passwordless");
        metrics.signIn(Metrics.Method.PASSKEY, Metrics.Reason.NONE);
        return new SignIn(SecondFactorService.Outcome.ACCEPTED, Optional.of(user));
    }

    /** Removes one passkey of the user (account page); whether there was one. */
    public boolean remove(String userId, String passkeyId, String ip) {
        boolean removed = passkeyId != null && repository.remove(userId, passkeyId);
        if (removed) {
            audit.success(AuditEvent.Type.SECOND_FACTORS_RESET, null, userId, ip, "one passkey removed by its user");
        }
        return removed;
    }

    /** Removes every passkey of the user (administrator reset); how many. */
    @Transactional
    public int removeAll(String userId) {
        return repository.removeAll(userId);
    }

    /** Verifies the assertion and claims its sign count with one conditional UPDATE (lost races are refused). */
    private void accept(PasskeyVerifier.Assertion a, Stored stored, Purpose purpose, String binding,
                        boolean userVerificationRequired) throws PasskeyVerifier.Rejected {
        if (!useChallenge(purpose, binding, a.challenge())) {
            throw new PasskeyVerifier.Rejected("unknown, used, expired or foreign challenge");
        }
        PasskeyVerifier.Verified v = verifier().verifyAssertion(a, stored.publicKey(), stored.signCount(),
                userVerificationRequired);
        if (!repository.raiseSignCount(stored.passkeyId(), v.signCount(), clock.instant().getEpochSecond())) {
            throw new PasskeyVerifier.Rejected("sign count " + v.signCount() + " did not increase: cloned "
                    + "authenticator?", true);
        }
    }

    private void refused(PasskeyVerifier.Rejected e, String clientId, User user, String ip) {
        audit.failure(AuditEvent.Type.SECOND_FACTOR_FAILURE, clientId, user.userId(), ip, "passkey: " + e.getMessage());
        metrics.signIn(Metrics.Method.PASSKEY, Metrics.Reason.SECOND_FACTOR_FAILED);
        attempts.failed(user, clientId, ip);
        if (e.signCountRegressed()) {
            LOG.log(Level.WARNING, "Passkey of user {0} refused: {1}",
                    new Object[] {LogText.escape(user.userId()), e.getMessage()});
        }
    }

    private Optional<Stored> find(String credentialId) {
        return repository.find(Secrets.hash(credentialId));
    }

    /** The name the user typed, trimmed, without control characters, at most {@link #MAX_NAME}; else "Passkey". */
    static String cleanName(String name) {
        String n = name == null ? "" : name.codePoints().filter(c -> !Character.isISOControl(c))
                .collect(StringBuilder::new, StringBuilder::appendCodePoint, StringBuilder::append).toString().strip();
        if (n.isEmpty()) {
            return "Passkey";
        }
        return n.length() > MAX_NAME ? n.substring(0, MAX_NAME).strip() : n;
    }

    private static String bindingHash(String binding) {
        return Secrets.hash("webauthn:" + binding);
    }

    private EncryptionKeys keys() {
        if (keys == null) {
            keys = EncryptionKeys.fromSettings(keySettings, issuer); // a race only builds equal instances twice
        }
        return keys;
    }

    private PasskeyVerifier verifier() {
        PasskeyVerifier v = verifier;
        if (v == null) {
            v = new PasskeyVerifier(issuer.issuer());
            verifier = v;
        }
        return v;
    }
}
