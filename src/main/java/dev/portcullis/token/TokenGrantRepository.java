package dev.portcullis.token;

import dev.portcullis.account.UserAccessEnded;
import dev.portcullis.client.ClientAccessEnded;
import dev.portcullis.crypto.SplitToken;
import dev.portcullis.persistence.Jdbc;
import dev.portcullis.session.SsoSessionsEnded;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import jakarta.interceptor.Interceptor;
import jakarta.transaction.Transactional;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Persistence of token families: {@link TokenGrant}s with their {@link RefreshToken}s and {@link AccessTokenRecord}s.
 * The two race-deciding steps are single conditional UPDATEs ({@link #markRefreshTokenUsed}, and
 * {@code AuthorizationCodeRepository.markRedeemed}), so exactly one of any number of concurrent requests on any number of
 * instances wins. Revocation is its own transaction, so it commits even when the request that detected the attack
 * fails. The one owner of token_grants, refresh_tokens and access_tokens, in plain JDBC on the enlisted connection of
 * the caller's transaction: this is the token path (docs/decisions.md, "Who owns which table").
 */
@ApplicationScoped
public class TokenGrantRepository {

    @Inject
    Jdbc jdbc;

    @Inject
    Clock clock;

    /** Result of a revocation-aware access-token lookup by jti. */
    public record AccessTokenStatus(AccessTokenRecord token, TokenGrant grant) {
        /** Active = not revoked itself, its grant not revoked, and not expired. */
        public boolean isActive(Instant now) {
            return !token.isRevoked() && !grant.isRevoked() && now.isBefore(token.expiresAt());
        }
    }

    TokenGrant createGrant(String grantId, String clientId, String userId, String scope, Instant authTime,
                           Set<String> amr, List<String> resources, String sid) {
        return createGrant(grantId, clientId, userId, scope, authTime, amr, resources, sid, null, null, null, null);
    }

    /**
     * A new grant of an authorization code, with the request's {@code claims} parameter (stored form, or null) and
     * the DPoP key its refresh tokens are bound to ({@code dpopJkt}, null for none).
     */
    TokenGrant createCodeGrant(String grantId, String clientId, String userId, String scope, Instant authTime,
                               Set<String> amr, List<String> resources, String sid, String claims, String dpopJkt) {
        return createGrant(grantId, clientId, userId, scope, authTime, amr, resources, sid, null, null, claims,
                dpopJkt);
    }

    /**
     * A new grant; {@code sid} is the SSO session it was signed in by (null without one). For the grant of an
     * exchanged token, {@code subjectGrantId} is the grant of the user's original authorization that the chain of
     * exchanges started from, and {@code subjectJti} the access token it was exchanged from; both null for every
     * other grant.
     */
    TokenGrant createGrant(String grantId, String clientId, String userId, String scope, Instant authTime,
                           Set<String> amr, List<String> resources, String sid, String subjectGrantId,
                           String subjectJti) {
        return createGrant(grantId, clientId, userId, scope, authTime, amr, resources, sid, subjectGrantId,
                subjectJti, null, null);
    }

    private TokenGrant createGrant(String grantId, String clientId, String userId, String scope, Instant authTime,
                                   Set<String> amr, List<String> resources, String sid, String subjectGrantId,
                                   String subjectJti, String claims, String dpopJkt) {
        jdbc.requireTransaction();
        TokenGrant g = new TokenGrant(grantId, clientId, userId, scope, authTime, clock.instant(), amr, resources,
                sid, claims, dpopJkt);
        jdbc.update("INSERT INTO token_grants (grant_id, client_id, user_id, scope, auth_time, created_at, revoked_at, "
                + "amr, resources, sid, subject_grant_id, subject_jti, claims, dpop_jkt) "
                + "VALUES (?,?,?,?,?,?,NULL,?,?,?,?,?,?,?)",
                grantId, clientId, userId, scope, g.authTime().getEpochSecond(), g.createdAt().getEpochSecond(),
                Jdbc.words(amr), resources.isEmpty() ? null : String.join(" ", resources), sid, subjectGrantId,
                subjectJti, claims, dpopJkt);
        return g;
    }

    /**
     * The user's original authorization that {@code grantId} descends from: the grant a chain of token exchanges
     * started from ({@code subject_grant_id}), or {@code grantId} itself when it was not made by an exchange. Empty
     * when it is gone.
     */
    Optional<TokenGrant> originalAuthorizationOf(String grantId) {
        return jdbc.one("SELECT " + GRANT_COLUMNS + " FROM token_grants g WHERE g.grant_id = (SELECT "
                + "COALESCE(subject_grant_id, grant_id) FROM token_grants WHERE grant_id = ?)", TokenGrantRepository::grant,
                grantId);
    }

    /**
     * Locks the grant's row, then the row of its access token {@code jti}, until the caller's transaction ends, and
     * says whether both are live. A token exchange takes these locks on its subject token before it links a new grant
     * to it; a revocation updates grants before their tokens ({@link #revokeGrants}), in the same order, so that a
     * concurrent revocation either comes first (and the exchange sees it) or waits and then finds the new grant.
     */
    boolean lockIfLive(String grantId, String jti) {
        jdbc.requireTransaction();
        return jdbc.one("SELECT revoked_at FROM token_grants WHERE grant_id = ? FOR UPDATE",
                row -> row.nullableInstant("revoked_at") == null, grantId).orElse(false)
                && jdbc.one("SELECT revoked_at FROM access_tokens WHERE jti = ? AND grant_id = ? FOR UPDATE",
                        row -> row.nullableInstant("revoked_at") == null, jti, grantId).orElse(false);
    }

    void recordAccessToken(AccessTokenRecord r) {
        jdbc.requireTransaction();
        jdbc.update("INSERT INTO access_tokens (jti, grant_id, scope, created_at, expires_at, revoked_at, token_hash) "
                + "VALUES (?,?,?,?,?,NULL,?)", r.jti(), r.grantId(), r.scope(), r.createdAt().getEpochSecond(),
                r.expiresAt().getEpochSecond(), r.tokenHash());
    }

    /** Stores a new refresh token of {@code grant}; returns its value (the secret is stored only as a hash). */
    String newRefreshToken(TokenGrant grant, Instant now, Instant expiresAt) {
        jdbc.requireTransaction();
        SplitToken token = SplitToken.issue();
        jdbc.update("INSERT INTO refresh_tokens (token_id, secret_hash, grant_id, scope, created_at, expires_at, "
                + "used_at) VALUES (?,?,?,?,?,?,NULL)", token.id(), token.secretHash(), grant.grantId(), grant.scope(),
                now.getEpochSecond(), expiresAt.getEpochSecond());
        return token.value();
    }

    /**
     * The single atomic step of rotation: marks the refresh token used if and only if nobody has yet. Returns true
     * for exactly one caller; joins the caller's transaction so the new tokens commit with it.
     */
    boolean markRefreshTokenUsed(RefreshToken token) {
        jdbc.requireTransaction();
        return jdbc.update("UPDATE refresh_tokens SET used_at = ? WHERE token_id = ? AND used_at IS NULL",
                clock.instant().getEpochSecond(), token.tokenId()) == 1;
    }

    /** A refresh token's row and its grant, in one query. */
    public record RefreshTokenStatus(RefreshToken token, TokenGrant grant) {
    }

    /** A refresh token and its grant by the token's value (one query), whatever their state. */
    public Optional<RefreshTokenStatus> findRefreshToken(String value) {
        if (value == null || value.isEmpty() || value.length() > 256) {
            return Optional.empty();
        }
        SplitToken presented = SplitToken.parse(value);
        return jdbc.one("SELECT r.token_id, r.secret_hash, r.scope AS r_scope, r.created_at AS r_created_at, "
                        + "r.expires_at, r.used_at, " + GRANT_COLUMNS + " FROM refresh_tokens r JOIN token_grants g "
                        + "ON g.grant_id = r.grant_id WHERE r.token_id = ?",
                row -> new RefreshTokenStatus(new RefreshToken(row.string("token_id"), row.string("secret_hash"),
                        row.string("grant_id"), row.string("r_scope"), row.instant("r_created_at"),
                        row.instant("expires_at"), row.nullableInstant("used_at")), grant(row)),
                presented.id()).filter(found -> presented.matches(found.token().secretHash()));
    }

    /** An access token's record and its grant, by jti, in one query (for validation and introspection). */
    public Optional<AccessTokenStatus> accessTokenStatus(String jti) {
        if (jti == null || jti.isEmpty() || jti.length() > 64) {
            return Optional.empty();
        }
        return jdbc.one("SELECT a.jti, a.scope AS a_scope, a.created_at AS a_created_at, a.expires_at, "
                        + "a.revoked_at AS a_revoked_at, a.token_hash, " + GRANT_COLUMNS + " FROM access_tokens a "
                        + "JOIN token_grants g ON g.grant_id = a.grant_id WHERE a.jti = ?",
                row -> new AccessTokenStatus(new AccessTokenRecord(row.string("jti"), row.string("grant_id"),
                        row.string("a_scope"), row.instant("a_created_at"), row.instant("expires_at"),
                        row.nullableInstant("a_revoked_at"), row.string("token_hash")), grant(row)),
                jti);
    }

    /** The grant's columns (table alias {@code g}) of the two JOIN lookups, under the names {@link #grant} reads. */
    private static final String GRANT_COLUMNS =
            "g.grant_id, g.client_id, g.user_id, g.scope, g.auth_time, g.created_at, g.revoked_at, g.amr, "
            + "g.resources, g.sid, g.claims, g.dpop_jkt";

    static TokenGrant grant(Jdbc.Row row) throws SQLException {
        return new TokenGrant(row.string("grant_id"), row.string("client_id"), row.string("user_id"),
                row.string("scope"), row.instant("auth_time"), row.instant("created_at"),
                row.nullableInstant("revoked_at"), row.words("amr"), List.copyOf(row.words("resources")),
                row.string("sid"), row.string("claims"), row.string("dpop_jkt"));
    }

    /** How many token grants (refresh-token families) are not revoked (the console's dashboard). */
    public long countLive() {
        return jdbc.one("SELECT COUNT(*) AS n FROM token_grants WHERE revoked_at IS NULL", r -> r.longValue("n"))
                .orElse(0L);
    }

    /** The user's live (unrevoked) grants, oldest first. */
    public List<TokenGrant> liveGrantsOf(String userId) {
        return jdbc.list("SELECT " + GRANT_COLUMNS + " FROM token_grants g WHERE g.user_id = ? AND g.revoked_at IS NULL "
                + "ORDER BY g.created_at, g.client_id", TokenGrantRepository::grant, userId);
    }

    /**
     * Revokes a single access token (RFC 7009 revocation of an access token) and whatever was exchanged from it down
     * the chain (RFC 8693); its grant and refresh token stay valid. Returns whether it was active.
     */
    @Transactional(Transactional.TxType.REQUIRES_NEW)
    public boolean revokeAccessToken(String jti) {
        Object now = clock.instant().getEpochSecond();
        boolean revoked = jdbc.update("UPDATE access_tokens SET revoked_at = ? WHERE jti = ? AND revoked_at IS NULL",
                now, jti) == 1;
        revokeExchangedFrom("?", now, jti);
        return revoked;
    }

    /**
     * Revokes a whole family: the grant (so none of its refresh tokens works any more) and every access token in it.
     * Its own transaction, so it commits even when the caller's request fails. Returns whether the grant was active.
     */
    @Transactional(Transactional.TxType.REQUIRES_NEW)
    public boolean revokeGrant(String grantId) {
        return revokeGrants("grant_id = ?", grantId) == 1;
    }

    /**
     * Revokes one family, as {@link #revokeGrant} does, but inside the caller's transaction, so that it commits with
     * whatever else that change ends. Returns whether the grant was active (one conditional UPDATE decides).
     */
    public boolean revokeGrantWithCaller(String grantId) {
        jdbc.requireTransaction();
        return revokeGrants("grant_id = ?", grantId) == 1;
    }

    /**
     * Revokes every grant of {@code userId} for {@code clientId} with all their access tokens (their refresh tokens
     * die with the grant), inside the caller's transaction. Returns the number of grants that were active.
     */
    public int revokeGrantsOf(String userId, String clientId) {
        jdbc.requireTransaction();
        return revokeGrants("user_id = ? AND client_id = ?", userId, clientId);
    }

    /**
     * Revokes every grant of {@code userId}, whatever the client, with all their access tokens, inside the caller's
     * transaction. Returns the number of grants that were active.
     */
    public int revokeAllGrantsOf(String userId) {
        jdbc.requireTransaction();
        return revokeGrants("user_id = ?", userId);
    }

    /**
     * A new password or a disabled account revokes every token family of the user, in the same transaction; before
     * the user's sessions end ({@link #ssoSessionsEnded}), so its report counts every family.
     */
    void userAccessEnded(@Observes @Priority(Interceptor.Priority.APPLICATION) UserAccessEnded change) {
        change.report(revoked(revokeAllGrantsOf(change.userId())));
    }

    /**
     * An ended SSO session ends the token families signed in by it (their grants' {@code sid}), in the transaction that
     * ends it, whatever ended it; the user's families of other sessions stay.
     */
    void ssoSessionsEnded(@Observes SsoSessionsEnded ended) {
        for (String sid : ended.sids()) {
            revokeGrants("sid = ?", sid);
        }
    }

    /** A disabled client, or one made public, keeps no working token, in the transaction that changes it. */
    void clientAccessEnded(@Observes ClientAccessEnded change) {
        jdbc.requireTransaction();
        change.report(revoked(revokeGrants("client_id = ?", change.clientId())));
    }

    private static String revoked(int n) {
        return n + (n == 1 ? " token grant" : " token grants") + " revoked";
    }

    /**
     * Revokes the grants that {@code condition} (a constant over token_grants) selects and their access tokens, the
     * grants of the chains of exchanges they started ({@code subject_grant_id}) and, down every chain, the grants
     * exchanged from any of their tokens ({@link #revokeExchangedFrom}): a chain ends with any of its links. Grants go
     * before their tokens, in the lock order of {@link #lockIfLive}. Returns the number of selected grants that were
     * active (the exchanged ones not counted).
     */
    private int revokeGrants(String condition, String... params) {
        Object now = clock.instant().getEpochSecond();
        Object[] withTime = new Object[params.length + 1];
        withTime[0] = now;
        System.arraycopy(params, 0, withTime, 1, params.length);
        int revoked = jdbc.update("UPDATE token_grants SET revoked_at = ? WHERE " + condition
                + " AND revoked_at IS NULL", withTime);
        jdbc.update("UPDATE access_tokens SET revoked_at = ? WHERE revoked_at IS NULL AND grant_id IN "
                + "(SELECT grant_id FROM token_grants WHERE " + condition + ")", withTime);
        String chains = "subject_grant_id IN (SELECT grant_id FROM token_grants WHERE " + condition + ")";
        jdbc.update("UPDATE token_grants SET revoked_at = ? WHERE " + chains + " AND revoked_at IS NULL",
                withTime);
        jdbc.update("UPDATE access_tokens SET revoked_at = ? WHERE revoked_at IS NULL AND grant_id IN "
                + "(SELECT grant_id FROM token_grants WHERE " + chains + ")", withTime);
        revokeExchangedFrom("SELECT jti FROM access_tokens WHERE grant_id IN (SELECT grant_id FROM token_grants "
                + "WHERE " + condition + ")", withTime);
        return revoked;
    }

    /**
     * Revokes every grant exchanged, directly or further down a chain, from the access tokens that {@code tokens}
     * (an SQL list of jtis, with {@code params} after the time) selects, and their tokens, one link of the chains at a
     * time until a link has no grant (a chain is at most {@link TokenExchangeGrant#MAX_CHAIN} links). Each link is
     * read after the one above it was locked, so an exchange that held a lock there has committed what the next read
     * finds, and no exchange gets past a grant revoked here.
     */
    private void revokeExchangedFrom(String tokens, Object... timeAndParams) {
        String above = tokens;
        while (true) {
            String link = "SELECT grant_id FROM token_grants WHERE subject_jti IN (" + above + ")";
            // already revoked grants are counted (and keep their time): their links below are walked all the same
            if (jdbc.update("UPDATE token_grants SET revoked_at = COALESCE(revoked_at, ?) WHERE subject_jti IN ("
                    + above + ")", timeAndParams) == 0) {
                return;
            }
            jdbc.update("UPDATE access_tokens SET revoked_at = ? WHERE revoked_at IS NULL AND grant_id IN (" + link
                    + ")", timeAndParams);
            above = "SELECT jti FROM access_tokens WHERE grant_id IN (" + link + ")";
        }
    }

    /** Deletes access-token records that expired before {@code expiredBefore}: their tokens fail on expiry anyway. */
    public int purgeExpiredAccessTokens(Instant expiredBefore) {
        return jdbc.deleteInChunks("access_tokens", "jti", "expires_at < ?", expiredBefore.getEpochSecond());
    }

    /**
     * Deletes refresh tokens, used or not, that expired before {@code expiredBefore}. A used one is kept until then:
     * presenting it again is reuse and revokes its family (RFC 9700 4.14.2); once expired it is refused anyway.
     */
    public int purgeExpiredRefreshTokens(Instant expiredBefore) {
        return jdbc.deleteInChunks("refresh_tokens", "token_id", "expires_at < ?", expiredBefore.getEpochSecond());
    }

    /**
     * Deletes grants created before {@code createdBefore} that have no token left, revoked or not: nothing can be
     * issued from them any more. Run after the two purges above.
     */
    public int purgeEmptyGrants(Instant createdBefore) {
        return jdbc.deleteInChunks("token_grants", "grant_id", "created_at < ? "
                + "AND NOT EXISTS (SELECT 1 FROM refresh_tokens r WHERE r.grant_id = token_grants.grant_id) "
                + "AND NOT EXISTS (SELECT 1 FROM access_tokens a WHERE a.grant_id = token_grants.grant_id)",
                createdBefore.getEpochSecond());
    }
}
