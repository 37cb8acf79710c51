package dev.portcullis.mfa;

import dev.portcullis.persistence.Jdbc;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.List;
import java.util.Optional;

/**
 * The one owner of totp_factors and recovery_codes, in plain JDBC, for {@link SecondFactorService}: a user's
 * authenticator seed (sealed) and recovery codes (hashed). Each code is accepted by one conditional UPDATE, so a code
 * is good once on any number of instances; every statement runs on the caller's transaction, if any.
 */
@ApplicationScoped
public class SecondFactorRepository {

    @Inject
    Jdbc jdbc;

    /** A user's authenticator: the sealed seed, whether confirmed, the session it was shown to, when (epoch s). */
    record TotpRow(String sealed, boolean confirmed, String sessionHash, long createdAt) {
    }

    /** A sealed seed with its user, for re-sealing. */
    record TotpSeed(String userId, String sealed) {
    }

    Optional<TotpRow> totp(String userId) {
        return jdbc.one("SELECT secret_sealed, confirmed_at, session_hash, created_at FROM totp_factors "
                + "WHERE user_id = ?", row -> new TotpRow(row.string("secret_sealed"),
                row.nullableLong("confirmed_at") != null, row.string("session_hash"), row.longValue("created_at")),
                userId);
    }

    /** A new unconfirmed seed shown to {@code sessionHash}; false when the user has a row already. */
    boolean addPendingTotp(String userId, String sealed, long now, String sessionHash) {
        return jdbc.update("INSERT INTO totp_factors (user_id, secret_sealed, created_at, last_step, session_hash) "
                + "SELECT ?,?,?,?,? WHERE NOT EXISTS (SELECT 1 FROM totp_factors WHERE user_id = ?)",
                userId, sealed, now, -1L, sessionHash, userId) == 1;
    }

    /** Replaces the unconfirmed seed {@code replaced}; false when it is confirmed or another request replaced it. */
    boolean replacePendingTotp(String userId, String replaced, String sealed, long now, String sessionHash) {
        return jdbc.update("UPDATE totp_factors SET secret_sealed = ?, created_at = ?, session_hash = ? "
                + "WHERE user_id = ? AND confirmed_at IS NULL AND secret_sealed = ?", sealed, now, sessionHash, userId,
                replaced) == 1;
    }

    /** Confirms the pending seed {@code sealed} shown to {@code sessionHash} with the code of {@code step}. */
    boolean confirmTotp(String userId, String sealed, String sessionHash, long now, long step) {
        return jdbc.update("UPDATE totp_factors SET confirmed_at = ?, last_step = ? WHERE user_id = ? "
                + "AND confirmed_at IS NULL AND secret_sealed = ? AND session_hash = ?", now, step, userId, sealed,
                sessionHash) == 1;
    }

    /** The one statement that accepts a TOTP code: it raises last_step, so the same code (or an older one) fails. */
    boolean useTotpStep(String userId, long step) {
        return jdbc.update("UPDATE totp_factors SET last_step = ? WHERE user_id = ? AND confirmed_at IS NOT NULL "
                + "AND last_step < ?", step, userId, step) == 1;
    }

    /** The seeds not sealed under the key whose prefix is {@code currentKeyPrefix}. */
    List<TotpSeed> seedsNotSealedWith(String currentKeyPrefix) {
        return jdbc.list("SELECT user_id, secret_sealed FROM totp_factors WHERE secret_sealed NOT LIKE ?",
                r -> new TotpSeed(r.string("user_id"), r.string("secret_sealed")), currentKeyPrefix + "%");
    }

    /** Replaces the seed {@code sealed} by {@code resealed}; false when it changed meanwhile. */
    boolean reseal(String userId, String sealed, String resealed) {
        return jdbc.update("UPDATE totp_factors SET secret_sealed = ? WHERE user_id = ? AND secret_sealed = ?",
                resealed, userId, sealed) == 1;
    }

    int unusedRecoveryCodes(String userId) {
        return jdbc.one("SELECT COUNT(*) AS n FROM recovery_codes WHERE user_id = ? AND used_at IS NULL",
                row -> (int) row.longValue("n"), userId).orElse(0);
    }

    /** The user's recovery codes become exactly {@code codeHashes}, all unused. */
    void replaceRecoveryCodes(String userId, List<String> codeHashes) {
        jdbc.update("DELETE FROM recovery_codes WHERE user_id = ?", userId);
        for (String hash : codeHashes) {
            jdbc.update("INSERT INTO recovery_codes (user_id, code_hash, used_at) VALUES (?,?,NULL)", userId, hash);
        }
    }

    /** Uses the recovery code of this hash, once. */
    boolean useRecoveryCode(String userId, String codeHash, long now) {
        return jdbc.update("UPDATE recovery_codes SET used_at = ? WHERE user_id = ? AND code_hash = ? "
                + "AND used_at IS NULL", now, userId, codeHash) == 1;
    }

    /** Deletes the user's authenticator and recovery codes; whether there was an authenticator. */
    boolean removeAll(String userId) {
        int totp = jdbc.update("DELETE FROM totp_factors WHERE user_id = ?", userId);
        jdbc.update("DELETE FROM recovery_codes WHERE user_id = ?", userId);
        return totp == 1;
    }
}
