package dev.portcullis.authorize;

import dev.portcullis.account.UserAccessEnded;
import dev.portcullis.audit.AuditEvent;
import dev.portcullis.audit.AuditLog;
import dev.portcullis.config.TokenSettings;
import dev.portcullis.crypto.SplitToken;
import dev.portcullis.persistence.Jdbc;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import jakarta.transaction.Transactional;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * Issue, look up and redeem authorization codes. A code is a {@link SplitToken}: a time-ordered id and 256 random
 * bits, handed to the browser once; the database holds the id and the secret's hash. Redemption is one conditional
 * UPDATE, so of any number of concurrent redemptions on any number of instances exactly one wins. The one owner of
 * authorization_codes, in plain JDBC: this is the token path (docs/decisions.md, "Who owns which table").
 */
@ApplicationScoped
public class AuthorizationCodeRepository {

    private static final String COLUMNS = "code_id, secret_hash, client_id, user_id, redirect_uri, redirect_uri_given, "
            + "scope, nonce, code_challenge, code_challenge_method, auth_time, session_hash, created_at, expires_at, "
            + "redeemed_at, grant_id, amr, resources, sid, claims";

    @Inject
    Jdbc jdbc;

    @Inject
    TokenSettings tokenSettings;

    @Inject
    Clock clock;

    @Inject
    AuditLog audit;

    /** Stores a new code bound to {@code request} and audits it; returns the code value (never stored). */
    @Transactional
    public String issue(AuthorizationCode.CodeRequest r, String ip) {
        SplitToken code = SplitToken.issue();
        long now = clock.instant().getEpochSecond();
        jdbc.update("INSERT INTO authorization_codes (" + COLUMNS + ") VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,NULL,NULL,?,?,?,?)",
                code.id(), code.secretHash(), r.clientId(), r.userId(), r.redirectUri(), r.redirectUriGiven(),
                r.scope(), r.nonce(), r.codeChallenge(), r.codeChallenge() == null ? null : r.codeChallengeMethod(),
                r.authTime().getEpochSecond(), r.sessionHash(), now, now + tokenSettings.codeTtl().toSeconds(),
                Jdbc.words(r.amr()), r.resources().isEmpty() ? null : String.join(" ", r.resources()), r.sid(),
                r.claims());
        audit.success(AuditEvent.Type.CODE_ISSUED, r.clientId(), r.userId(), ip, r.scope());
        return code.value();
    }

    /** The code's row, whatever its state (expired, redeemed), or empty when the value is unknown. */
    public Optional<AuthorizationCode> find(String code) {
        if (code == null || code.isEmpty() || code.length() > 256) {
            return Optional.empty();
        }
        SplitToken presented = SplitToken.parse(code);
        return jdbc.one("SELECT " + COLUMNS + " FROM authorization_codes WHERE code_id = ?",
                AuthorizationCodeRepository::code, presented.id()).filter(found -> presented.matches(found.secretHash()));
    }

    static AuthorizationCode code(Jdbc.Row row) throws SQLException {
        return new AuthorizationCode(row.string("code_id"), row.string("secret_hash"), row.string("client_id"),
                row.string("user_id"), row.string("redirect_uri"), row.bool("redirect_uri_given"), row.string("scope"),
                Optional.ofNullable(row.string("nonce")), Optional.ofNullable(row.string("code_challenge")),
                Optional.ofNullable(row.string("code_challenge_method")), row.instant("auth_time"),
                Optional.ofNullable(row.string("session_hash")), row.instant("created_at"), row.instant("expires_at"),
                row.nullableInstant("redeemed_at"), Optional.ofNullable(row.string("grant_id")),
                row.words("amr"), List.copyOf(row.words("resources")), Optional.ofNullable(row.string("sid")),
                Optional.ofNullable(row.string("claims")));
    }

    /**
     * The single atomic step of redemption: marks the code used and records the grant it created, if and only if it
     * is still unused and unexpired. Returns true for exactly one caller. Joins the caller's transaction, so the
     * tokens of the grant commit together with the redemption.
     */
    public boolean markRedeemed(AuthorizationCode code, String grantId) {
        jdbc.requireTransaction();
        long now = clock.instant().getEpochSecond();
        return jdbc.update("UPDATE authorization_codes SET redeemed_at = ?, grant_id = ? "
                + "WHERE code_id = ? AND redeemed_at IS NULL AND expires_at > ?",
                now, grantId, code.codeId(), now) == 1;
    }

    /**
     * Redeems a code that one of Portcullis's own pages asked for (it opens no token family, {@link #markRedeemed}
     * without a grant) and audits it as {@code CODE_REDEEMED} of its user at its client, with {@code detail}, in the
     * same transaction. False, and nothing audited, when it was used or expired meanwhile.
     */
    public boolean redeemForOwnPage(AuthorizationCode code, String ip, String detail) {
        if (!markRedeemed(code, null)) {
            return false;
        }
        audit.success(AuditEvent.Type.CODE_REDEEMED, code.clientId(), code.userId(), ip, detail);
        return true;
    }

    /**
     * A new password or a disabled account also ends the user's codes not yet redeemed: they expire now, so a code
     * issued just before cannot open a new token family (a redeemed one still counts as a replay). Reads the
     * expiry index's last code lifetime only.
     */
    void userAccessEnded(@Observes UserAccessEnded change) {
        long now = clock.instant().getEpochSecond();
        int n = jdbc.update("UPDATE authorization_codes SET expires_at = ? WHERE expires_at > ? AND user_id = ? "
                + "AND redeemed_at IS NULL", now, now, change.userId());
        change.report(n + (n == 1 ? " authorization code" : " authorization codes") + " expired");
    }

    /**
     * Deletes codes that expired before {@code expiredBefore} (the cleanup passes a day ago: until then a replayed
     * code is still recognised as a replay and revokes its grant).
     */
    public int purgeExpired(Instant expiredBefore) {
        return jdbc.deleteInChunks("authorization_codes", "code_id", "expires_at < ?", expiredBefore.getEpochSecond());
    }
}
