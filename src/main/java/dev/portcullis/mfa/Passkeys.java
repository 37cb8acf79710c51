package dev.portcullis.mfa;

import dev.portcullis.account.SignInService;
import dev.portcullis.account.SignInThrottle;
import dev.portcullis.account.ThrottlePolicy;
import dev.portcullis.account.User;
import dev.portcullis.account.UserService;
import dev.portcullis.audit.AuditEvent;
import dev.portcullis.audit.AuditLog;
import dev.portcullis.config.PortcullisConfig;
import dev.portcullis.crypto.Secrets;
import dev.portcullis.persistence.Jdbc;
import dev.portcullis.protocol.LogText;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.transaction.Transactional;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * A user's passkeys (WebAuthn credentials) and the challenges of the ceremonies that register and use them. The one
 * owner of webauthn_credentials and webauthn_challenges, in plain JDBC. A challenge is bound to a browser (its SSO
 * session, or its CSRF cookie before sign-in) and a purpose, lives {@link #CHALLENGE_TTL}, and is used up by one
 * DELETE, so it answers one ceremony on any instance. An assertion is accepted by the one UPDATE that raises the
 * credential's sign count. Failed assertions count in the same {@link SignInThrottle} counters as wrong passwords.
 */
@ApplicationScoped
public class Passkeys {

    static final Duration CHALLENGE_TTL = Duration.ofMinutes(5);
    /** Passkeys one user may register; a bound on rows and on the page's credential lists. */
    public static final int MAX_PER_USER = 10;
    public static final int MAX_NAME = 60;

    private static final Logger LOG = Logger.getLogger(Passkeys.class.getName());
    private static final SecureRandom RANDOM = new SecureRandom();
    private static final Base64.Encoder B64URL = Base64.getUrlEncoder().withoutPadding();

    @Inject
    Jdbc jdbc;

    @Inject
    PortcullisConfig config;

    @Inject
    Clock clock;

    @Inject
    SignInThrottle throttle;

    @Inject
    AuditLog audit;

    @Inject
    UserService users;

    @Inject
    SignInService signIn;

    private volatile PasskeyVerifier verifier;

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
    public record SignIn(SecondFactors.Outcome outcome, Optional<User> user) {
    }

    private record Stored(String passkeyId, String userId, String publicKey, long signCount) {
    }

    /**
     * A new challenge for {@code purpose}, bound to {@code binding} (an SSO session hash or a CSRF cookie value),
     * with the user's credential ids when there is a user ({@code excludeCredentials} / {@code allowCredentials}).
     * Expired challenges are deleted on the way, so the table stays as small as the ceremonies in flight.
     */
    public Ceremony begin(Purpose purpose, String binding, String userId) {
        byte[] raw = new byte[32];
        RANDOM.nextBytes(raw);
        String challenge = B64URL.encodeToString(raw);
        long now = clock.instant().getEpochSecond();
        jdbc.update("DELETE FROM webauthn_challenges WHERE expires_at < ?", now);
        jdbc.update("INSERT INTO webauthn_challenges (challenge_hash, purpose, binding_hash, expires_at) "
                + "VALUES (?,?,?,?)", Secrets.hash(challenge), purpose.name(), bindingHash(binding),
                now + CHALLENGE_TTL.toSeconds());
        return new Ceremony(challenge, verifier().rpId(), userId == null ? List.of() : credentialIds(userId));
    }

    /** Uses the challenge up: true for exactly one caller, if it is unexpired and was given to this binding. */
    boolean useChallenge(Purpose purpose, String binding, String challenge) {
        return jdbc.update("DELETE FROM webauthn_challenges WHERE challenge_hash = ? AND purpose = ? "
                + "AND binding_hash = ? AND expires_at >= ?", Secrets.hash(challenge), purpose.name(),
                bindingHash(binding), clock.instant().getEpochSecond()) == 1;
    }

    public boolean has(String userId) {
        return jdbc.one("SELECT COUNT(*) AS n FROM webauthn_credentials WHERE user_id = ?",
                row -> row.longValue("n"), userId).orElse(0L) > 0;
    }

    public List<Passkey> list(String userId) {
        return jdbc.list("SELECT passkey_id, name, created_at, last_used_at FROM webauthn_credentials "
                + "WHERE user_id = ? ORDER BY created_at, passkey_id", row -> new Passkey(row.string("passkey_id"),
                row.string("name"), row.instant("created_at"), row.nullableInstant("last_used_at")), userId);
    }

    private List<String> credentialIds(String userId) {
        return jdbc.list("SELECT credential_id FROM webauthn_credentials WHERE user_id = ? ORDER BY created_at",
                row -> row.string("credential_id"), userId);
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
            if (jdbc.one("SELECT COUNT(*) AS n FROM webauthn_credentials WHERE user_id = ?",
                    row -> row.longValue("n"), user.userId()).orElse(0L) >= MAX_PER_USER) {
                throw new PasskeyVerifier.Rejected("already " + MAX_PER_USER + " passkeys");
            }
            long now = clock.instant().getEpochSecond();
            int added = jdbc.update("INSERT INTO webauthn_credentials (passkey_id, user_id, credential_hash, "
                    + "credential_id, public_key, name, sign_count, created_at) "
                    + "SELECT ?,?,?,?,?,?,?,? WHERE NOT EXISTS (SELECT 1 FROM webauthn_credentials "
                    + "WHERE credential_hash = ?)", Secrets.newTimeOrderedId(), user.userId(),
                    Secrets.hash(c.credentialId()), c.credentialId(), c.publicKey(), cleanName(name),
                    c.signCount(), now, Secrets.hash(c.credentialId()));
            if (added != 1) {
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
    public SecondFactors.Outcome verifySecondFactor(User user, String json, String binding, String clientId,
                                                    String ip) {
        Optional<SecondFactors.Outcome> blocked = reserve(user, clientId, ip);
        if (blocked.isPresent()) {
            return blocked.get();
        }
        try {
            PasskeyVerifier.Assertion a = verifier().parseAssertion(json);
            Stored stored = find(a.credentialId()).filter(s -> s.userId().equals(user.userId()))
                    .orElseThrow(() -> new PasskeyVerifier.Rejected("not a passkey of this user"));
            accept(a, stored, Purpose.FACTOR, binding, false);
        } catch (PasskeyVerifier.Rejected e) {
            refused(e, clientId, user.userId(), ip);
            return SecondFactors.Outcome.INVALID;
        }
        throttle.recordSuccess(user.username());
        audit.success(AuditEvent.Type.SECOND_FACTOR_SUCCESS, clientId, user.userId(), ip, "passkey");
        return SecondFactors.Outcome.ACCEPTED;
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
                return new SignIn(SecondFactors.Outcome.WAIT, Optional.empty());
            }
            throttle.recordAddressFailure(ip);
            audit.failure(AuditEvent.Type.SIGN_IN_FAILURE, clientId, null, ip,
                    a == null ? "passkey: malformed assertion" : "passkey: unknown credential");
            return new SignIn(SecondFactors.Outcome.INVALID, Optional.empty());
        }
        Optional<SecondFactors.Outcome> blocked = reserve(user, clientId, ip);
        if (blocked.isPresent()) {
            return new SignIn(blocked.get(), Optional.empty());
        }
        try {
            byte[] handle = a.data().getUserHandle();
            if (handle != null && !MessageDigest.isEqual(handle, user.userId().getBytes(StandardCharsets.UTF_8))) {
                throw new PasskeyVerifier.Rejected("user handle is not the credential's owner");
            }
            accept(a, stored.get(), Purpose.PASSWORDLESS, binding, true);
            if (!user.enabled() || !signIn.stillAllowed(user.userId())) {
                throw new PasskeyVerifier.Rejected("account disabled");
            }
        } catch (PasskeyVerifier.Rejected e) {
            refused(e, clientId, user.userId(), ip);
            return new SignIn(SecondFactors.Outcome.INVALID, Optional.empty());
        }
        throttle.recordSuccess(user.username());
        audit.success(AuditEvent.Type.SIGN_IN_SUCCESS, clientId, user.userId(), ip, "passkey, passwordless");
        return new SignIn(SecondFactors.Outcome.ACCEPTED, Optional.of(user));
    }

    /** Removes one passkey of the user (account page); whether there was one. */
    public boolean remove(String userId, String passkeyId, String ip) {
        boolean removed = passkeyId != null && jdbc.update(
                "DELETE FROM webauthn_credentials WHERE passkey_id = ? AND user_id = ?", passkeyId, userId) == 1;
        if (removed) {
            audit.success(AuditEvent.Type.SECOND_FACTORS_RESET, null, userId, ip, "one passkey removed by its user");
        }
        return removed;
    }

    /** Removes every passkey of the user (administrator reset); how many. */
    @Transactional
    public int removeAll(String userId) {
        return jdbc.update("DELETE FROM webauthn_credentials WHERE user_id = ?", userId);
    }

    /** Verifies the assertion and claims its sign count with one conditional UPDATE (lost races are refused). */
    private void accept(PasskeyVerifier.Assertion a, Stored stored, Purpose purpose, String binding,
                        boolean userVerificationRequired) throws PasskeyVerifier.Rejected {
        if (!useChallenge(purpose, binding, a.challenge())) {
            throw new PasskeyVerifier.Rejected("unknown, used, expired or foreign challenge");
        }
        PasskeyVerifier.Verified v = verifier().verifyAssertion(a, stored.publicKey(), stored.signCount(),
                userVerificationRequired);
        if (jdbc.update("UPDATE webauthn_credentials SET sign_count = ?, last_used_at = ? WHERE passkey_id = ? "
                + "AND (sign_count < ? OR (sign_count = 0 AND ? = 0))", v.signCount(),
                clock.instant().getEpochSecond(), stored.passkeyId(), v.signCount(), v.signCount()) != 1) {
            throw new PasskeyVerifier.Rejected("sign count " + v.signCount() + " did not increase: cloned "
                    + "authenticator?", true);
        }
    }

    private Optional<SecondFactors.Outcome> reserve(User user, String clientId, String ip) {
        ThrottlePolicy.Verdict byAddress = throttle.checkAddress(ip, user.username());
        SignInThrottle.Reservation attempt = byAddress == ThrottlePolicy.Verdict.ALLOW
                ? throttle.reserve(user.username()) : null;
        if (attempt != null && attempt.allowed()) {
            return Optional.empty();
        }
        ThrottlePolicy.Verdict v = attempt == null ? byAddress : attempt.verdict();
        audit.failure(AuditEvent.Type.SIGN_IN_LOCKED, clientId, user.userId(), ip,
                v.name().toLowerCase(Locale.ROOT) + " (passkey)");
        return Optional.of(v == ThrottlePolicy.Verdict.LOCKED ? SecondFactors.Outcome.LOCKED
                : SecondFactors.Outcome.WAIT);
    }

    private void refused(PasskeyVerifier.Rejected e, String clientId, String userId, String ip) {
        throttle.recordAddressFailure(ip);
        audit.failure(AuditEvent.Type.SECOND_FACTOR_FAILURE, clientId, userId, ip, "passkey: " + e.getMessage());
        if (e.signCountRegressed()) {
            LOG.log(Level.WARNING, "Passkey of user {0} refused: {1}",
                    new Object[] {LogText.escape(userId), e.getMessage()});
        }
    }

    private Optional<Stored> find(String credentialId) {
        return jdbc.one("SELECT passkey_id, user_id, public_key, sign_count FROM webauthn_credentials "
                + "WHERE credential_hash = ?", row -> new Stored(row.string("passkey_id"), row.string("user_id"),
                row.string("public_key"), row.longValue("sign_count")), Secrets.hash(credentialId));
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

    private PasskeyVerifier verifier() {
        PasskeyVerifier v = verifier;
        if (v == null) {
            v = new PasskeyVerifier(config.issuer());
            verifier = v;
        }
        return v;
    }
}
