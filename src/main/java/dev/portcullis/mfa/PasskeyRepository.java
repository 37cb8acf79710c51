package dev.portcullis.mfa;

import dev.portcullis.persistence.Jdbc;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.List;
import java.util.Optional;

/**
 * The one owner of webauthn_credentials and webauthn_challenges, in plain JDBC, for {@link PasskeyService}: a user's
 * passkeys (public key, sign count) and the challenges in flight, stored by hash. A challenge is used up by one
 * DELETE (or, for a sealed one, one INSERT of its hash) and an assertion accepted by the one UPDATE that raises the
 * credential's sign count, so each succeeds once on any number of instances.
 */
@ApplicationScoped
public class PasskeyRepository {

    @Inject
    Jdbc jdbc;

    /** A credential as an assertion is checked against it. */
    record Stored(String passkeyId, String userId, String publicKey, long signCount) {
    }

    /** Deletes the challenges that expired before {@code now}, so the table stays as small as the ceremonies. */
    void deleteExpiredChallenges(long now) {
        jdbc.update("DELETE FROM webauthn_challenges WHERE expires_at < ?", now);
    }

    void addChallenge(String challengeHash, String purpose, String bindingHash, long expiresAt) {
        jdbc.update("INSERT INTO webauthn_challenges (challenge_hash, purpose, binding_hash, expires_at) "
                + "VALUES (?,?,?,?)", challengeHash, purpose, bindingHash, expiresAt);
    }

    /** Uses the challenge up: true for exactly one caller, if it is unexpired at {@code now} and of this binding. */
    boolean useChallenge(String challengeHash, String purpose, String bindingHash, long now) {
        return jdbc.update("DELETE FROM webauthn_challenges WHERE challenge_hash = ? AND purpose = ? "
                + "AND binding_hash = ? AND expires_at >= ?", challengeHash, purpose, bindingHash, now) == 1;
    }

    /** Records a challenge as used until it expires: true for exactly one caller. */
    boolean addUsedChallenge(String challengeHash, String purpose, String bindingHash, long expiresAt) {
        try {
            return jdbc.update("INSERT INTO webauthn_challenges (challenge_hash, purpose, binding_hash, expires_at) "
                    + "SELECT ?,?,?,? WHERE NOT EXISTS (SELECT 1 FROM webauthn_challenges WHERE challenge_hash = ?)",
                    challengeHash, purpose, bindingHash, expiresAt, challengeHash) == 1;
        } catch (Jdbc.PersistenceFailure e) {
            if (e.isUniqueViolation()) {
                return false; // the same assertion at the same instant: the other request used the challenge up
            }
            throw e;
        }
    }

    long count(String userId) {
        return jdbc.one("SELECT COUNT(*) AS n FROM webauthn_credentials WHERE user_id = ?",
                row -> row.longValue("n"), userId).orElse(0L);
    }

    List<PasskeyService.Passkey> list(String userId) {
        return jdbc.list("SELECT passkey_id, name, created_at, last_used_at FROM webauthn_credentials "
                + "WHERE user_id = ? ORDER BY created_at, passkey_id", row -> new PasskeyService.Passkey(
                row.string("passkey_id"), row.string("name"), row.instant("created_at"),
                row.nullableInstant("last_used_at")), userId);
    }

    List<String> credentialIds(String userId) {
        return jdbc.list("SELECT credential_id FROM webauthn_credentials WHERE user_id = ? ORDER BY created_at",
                row -> row.string("credential_id"), userId);
    }

    Optional<Stored> find(String credentialHash) {
        return jdbc.one("SELECT passkey_id, user_id, public_key, sign_count FROM webauthn_credentials "
                + "WHERE credential_hash = ?", row -> new Stored(row.string("passkey_id"), row.string("user_id"),
                row.string("public_key"), row.longValue("sign_count")), credentialHash);
    }

    /** Adds a credential; false when one of this hash is registered already. */
    boolean add(String passkeyId, String userId, String credentialHash, String credentialId, String publicKey,
                String name, long signCount, long createdAt) {
        return jdbc.update("INSERT INTO webauthn_credentials (passkey_id, user_id, credential_hash, credential_id, "
                + "public_key, name, sign_count, created_at) SELECT ?,?,?,?,?,?,?,? WHERE NOT EXISTS "
                + "(SELECT 1 FROM webauthn_credentials WHERE credential_hash = ?)", passkeyId, userId, credentialHash,
                credentialId, publicKey, name, signCount, createdAt, credentialHash) == 1;
    }

    /**
     * Raises the credential's sign count to {@code signCount} and marks it used; false when the count did not
     * increase (a count that stays 0 is an authenticator without one) or another assertion raised it first.
     */
    boolean raiseSignCount(String passkeyId, long signCount, long now) {
        return jdbc.update("UPDATE webauthn_credentials SET sign_count = ?, last_used_at = ? WHERE passkey_id = ? "
                + "AND (sign_count < ? OR (sign_count = 0 AND ? = 0))", signCount, now, passkeyId, signCount,
                signCount) == 1;
    }

    boolean remove(String userId, String passkeyId) {
        return jdbc.update("DELETE FROM webauthn_credentials WHERE passkey_id = ? AND user_id = ?", passkeyId,
                userId) == 1;
    }

    int removeAll(String userId) {
        return jdbc.update("DELETE FROM webauthn_credentials WHERE user_id = ?", userId);
    }
}
