package dev.portcullis.token;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.portcullis.crypto.Secrets;
import dev.portcullis.crypto.SplitToken;
import dev.portcullis.testing.Admin;
import dev.portcullis.testing.CodeFixture;
import dev.portcullis.testing.Db;
import dev.portcullis.testing.Http;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * POST /oauth/token with a refresh token: rotation, narrowing the scope, reuse detection that revokes the family
 * (also under concurrency), the family's maximum lifetime, tokens of a deleted client, and the stored forms of
 * codes and refresh tokens (the id and secret of a split token; rows written before V3); and POST /admin/purge, which
 * deletes rows past their grace and keeps what can still be used (a live token family, its used refresh tokens for
 * reuse detection, codes and sessions within their time).
 */
class RefreshTokenGrantIT extends TokenEndpointTestBase {

    // ---------------------------------------------------------------- refresh

    @Test
    void aCodeOrRefreshTokenWithTheRightIdButAnotherSecretIsUnknownAndChangesNothing() throws Exception {
        String code = confidentialCode("openid", null);
        String codeId = SplitToken.parse(code).id();
        assertError(confidentialJsonRequest(codeId + "." + Secrets.newSecret()), 400, "invalid_grant");
        assertError(confidentialJsonRequest(codeId), 400, "invalid_grant");
        Http.Res first = confidentialJsonRequest(code);
        assertEquals(200, first.status(), "the genuine code was not burnt: " + first);

        String rt = first.jsonString("refresh_token");
        String tokenId = SplitToken.parse(rt).id();
        assertError(refresh(confidential, tokenId + "." + Secrets.newSecret(), null), 400, "invalid_grant");
        assertError(refresh(confidential, tokenId, null), 400, "invalid_grant");
        Http.Res next = refresh(confidential, rt, null);
        assertEquals(200, next.status(), "no rotation and no revocation happened: " + next);
    }

    @Test
    void codesAndRefreshTokensIssuedBeforeV3KeepWorking() throws Exception {
        // rows as written before V3: keyed by the hash of the whole value, no secret hash
        fixtures();
        Http.Res first = confidentialJsonRequest(CodeFixture.issueBeforeV3(confidential.clientId(), user.userId(), REDIRECT,
                "openid"));
        assertEquals(200, first.status(), first::toString);
        String grantId = grantOf(first.jsonString("access_token"));
        String earlier = Secrets.newSecret();
        long now = java.time.Instant.now().getEpochSecond();
        Db.update("INSERT INTO refresh_tokens (token_id, secret_hash, grant_id, scope, created_at, expires_at, "
                + "used_at) VALUES (?, NULL, ?, 'openid', ?, ?, NULL)", Secrets.hash(earlier), grantId, now, now + 600);

        assertError(refresh(confidential, Secrets.hash(earlier) + "." + Secrets.newSecret(), null), 400,
                "invalid_grant");
        Http.Res rotated = refresh(confidential, earlier, null);
        assertEquals(200, rotated.status(), rotated::toString);
        assertTrue(rotated.jsonString("refresh_token").contains("."), "the next token has the current form");
        assertError(refresh(confidential, earlier, null), 400, "invalid_grant");
        assertTrue(grantRevoked(grantId), "reuse of the earlier token revoked its family");
    }

    @Test
    void refreshRotatesTheTokenAndMayNarrowButNeverWidenTheScope() throws Exception {
        Http.Res first = confidentialJsonRequest(confidentialCode("openid profile read_user", null));
        String rt1 = first.jsonString("refresh_token");
        String grantId = grantOf(first.jsonString("access_token"));

        assertError(refresh(confidential, rt1, "openid api"), 400, "invalid_scope");

        Http.Res second = refresh(confidential, rt1, "read_user");
        assertEquals(200, second.status(), second::toString);
        assertNoStore(second);
        assertEquals(TOKEN_RESPONSE_FIELDS, second.json().keySet(), "no openid in the narrowed scope: no id_token");
        assertEquals("read_user", second.jsonString("scope"));
        assertEquals("read_user", claims(second.jsonString("access_token")).getStringClaim("scope"));
        String rt2 = second.jsonString("refresh_token");
        assertNotEquals(rt1, rt2);
        assertEquals(grantId, grantOf(second.jsonString("access_token")), "same family");
        assertNotNull(Db.rows("SELECT used_at FROM refresh_tokens WHERE token_id = ?", SplitToken.parse(rt1).id())
                .get(0).get("used_at"));

        // the rotated token keeps the granted scope: the next refresh may ask for all of it again, with an ID token
        Http.Res third = refresh(confidential, rt2, null);
        assertEquals(200, third.status(), third::toString);
        assertEquals("openid profile read_user", third.jsonString("scope"));
        assertNotNull(third.jsonString("id_token"));
        assertTrue(Db.count("SELECT COUNT(*) FROM audit_events WHERE event_type = 'TOKEN_REFRESHED' AND client_id = ?",
                confidential.clientId()) >= 2);
    }

    @Test
    void replayOfARotatedRefreshTokenRevokesTheWholeFamily() throws Exception {
        Http.Res first = publicJsonRequest(publicCode("openid read_user"), VERIFIER);
        assertEquals(200, first.status(), first::toString);
        String rt1 = first.jsonString("refresh_token");
        Http.Res second = refresh(publicClient, rt1, null);
        assertEquals(200, second.status(), second::toString);
        String newestAccessToken = second.jsonString("access_token");
        assertFalse(accessTokenRevoked(newestAccessToken));

        assertError(refresh(publicClient, rt1, null), 400, "invalid_grant");
        assertTrue(grantRevoked(grantOf(newestAccessToken)));
        assertTrue(accessTokenRevoked(newestAccessToken), "the newest access token stops working");
        assertTrue(accessTokenRevoked(first.jsonString("access_token")));
        assertError(refresh(publicClient, second.jsonString("refresh_token"), null), 400, "invalid_grant");
        assertTrue(Db.count("SELECT COUNT(*) FROM audit_events WHERE event_type = 'REFRESH_TOKEN_REUSED' AND client_id = ?",
                publicClient.clientId()) >= 1);
    }

    @Test
    void parallelUseOfOneRefreshTokenYieldsExactlyOneSuccessAndRevokesTheFamily() throws Exception {
        Http.Res first = confidentialJsonRequest(confidentialCode("openid", null));
        String rt = first.jsonString("refresh_token");
        List<Http.Res> results = race(20, () -> refresh(confidential, rt, null));
        List<Http.Res> ok = results.stream().filter(r -> r.status() == 200).toList();
        assertEquals(1, ok.size(), () -> results.stream().map(Http.Res::toString).toList().toString());
        results.stream().filter(r -> r.status() != 200).forEach(r -> assertError(r, 400, "invalid_grant"));
        assertTrue(accessTokenRevoked(ok.get(0).jsonString("access_token")), "the winner's tokens are revoked");
        assertError(refresh(confidential, ok.get(0).jsonString("refresh_token"), null), 400, "invalid_grant");
    }

    @Test
    void refreshErrors() {
        assertError(refresh(confidential(), Secrets.newSecret(), null), 400, "invalid_grant");
        Http.Res first = confidentialJsonRequest(confidentialCode("openid", null));
        Admin.TestClient other = admin.confidentialClient("openid", REDIRECT);
        assertError(refresh(other, first.jsonString("refresh_token"), null), 400, "invalid_grant");
        Map<String, String> p = new LinkedHashMap<>(Map.of("grant_type", "refresh_token",
                "client_id", confidential.clientId(), "client_secret", confidential.secret()));
        assertError(form(p), 400, "invalid_request");
        // the other client's failed attempt did not burn the token
        assertEquals(200, refresh(confidential, first.jsonString("refresh_token"), null).status());
    }

    @Test
    void deletingTheClientKillsItsTokens() throws Exception {
        fixtures();
        Admin.TestClient c = admin.confidentialClient("openid read_user", REDIRECT);
        String code = CodeFixture.issue(c.clientId(), user.userId(), REDIRECT, "openid read_user", null, null);
        Http.Res r = form(codeForm(c, code, REDIRECT));
        assertEquals(200, r.status(), r::toString);
        String accessToken = r.jsonString("access_token");
        String jti = claims(accessToken).getJWTID();
        assertEquals(200, http.get("/oauth/userinfo", "Authorization", "Bearer " + accessToken).status());
        assertEquals(204, admin.delete("/admin/clients/" + c.clientId()).status());
        assertEquals(0, Db.count("SELECT COUNT(*) FROM access_tokens WHERE jti = ?", jti));
        assertError(refresh(c, r.jsonString("refresh_token"), null), 401, "invalid_client");
        // at once, on every endpoint that reads them
        assertEquals(401, http.get("/oauth/userinfo", "Authorization", "Bearer " + accessToken).status());
        assertEquals(401, http.get("/api/v1/me", "Authorization", "Bearer " + accessToken).status());
        for (String token : List.of(accessToken, r.jsonString("refresh_token"))) {
            Http.Res introspected = http.postForm("/oauth/introspect", Map.of("token", token,
                    "client_id", confidential.clientId(), "client_secret", confidential.secret()));
            assertEquals(Boolean.FALSE, introspected.json().get("active"), introspected::toString);
        }
        assertError(refresh(confidential, r.jsonString("refresh_token"), null), 400, "invalid_grant");
    }

    @Test
    void aRefreshTokenFamilyEndsAtItsMaximumLifetimeHoweverOftenItIsRefreshed() throws Exception {
        long day = 86_400;
        long maxLifetime = 90 * day; // portcullis.refresh-token.max-lifetime's default
        Http.Res first = confidentialJsonRequest(confidentialCode("openid", null));
        assertEquals(200, first.status(), first::toString);
        String grantId = grantOf(first.jsonString("access_token"));

        // refreshed daily for 80 days: the next token expires with the family, not a full ttl later
        Db.update("UPDATE token_grants SET created_at = created_at - ? WHERE grant_id = ?", 80 * day, grantId);
        Http.Res second = refresh(confidential, first.jsonString("refresh_token"), null);
        assertEquals(200, second.status(), second::toString);
        long createdAt = ((Number) Db.rows("SELECT created_at FROM token_grants WHERE grant_id = ?", grantId)
                .get(0).get("created_at")).longValue();
        long expiresAt = ((Number) Db.rows("SELECT expires_at FROM refresh_tokens WHERE token_id = ?",
                SplitToken.parse(second.jsonString("refresh_token")).id()).get(0).get("expires_at")).longValue();
        assertEquals(createdAt + maxLifetime, expiresAt);

        // past the family's end: introspection says inactive too: refused with a reason, although the presented token itself has not expired
        Db.update("UPDATE token_grants SET created_at = created_at - ? WHERE grant_id = ?", 10 * day, grantId);
        Db.update("UPDATE refresh_tokens SET expires_at = expires_at + ? WHERE token_id = ?", 10 * day,
                SplitToken.parse(second.jsonString("refresh_token")).id());
        Http.Res introspected = http.postForm("/oauth/introspect", Map.of("token", second.jsonString("refresh_token"),
                "client_id", confidential.clientId(), "client_secret", confidential.secret()));
        assertEquals(Boolean.FALSE, introspected.json().get("active"), introspected::toString);
        Http.Res third = refresh(confidential, second.jsonString("refresh_token"), null);
        assertError(third, 400, "invalid_grant");
        assertTrue(third.jsonString("error_description").contains("maximum lifetime"), third::toString);
    }

    // ---------------------------------------------------------------- retention (POST /admin/purge)

    @Test
    void purgeDeletesRowsPastTheirGraceAndKeepsWhatCanStillBeUsed() throws Exception {
        fixtures();
        long now = java.time.Instant.now().getEpochSecond();
        long twoDaysAgo = now - 2 * 86_400;
        long anHourAgo = now - 3_600;
        long fortyDaysAgo = now - 40 * 86_400;
        // a live family, rotated once: its first refresh token is used and must stay to detect reuse
        Http.Res issued = confidentialJsonRequest(confidentialCode("openid", null));
        String usedRefreshToken = issued.jsonString("refresh_token");
        Http.Res rotated = refresh(confidential, usedRefreshToken, null);
        assertEquals(200, rotated.status(), rotated::toString);
        String liveGrant = grantOf(rotated.jsonString("access_token"));
        String oldRecordOfLiveGrant = insertAccessToken(liveGrant, twoDaysAgo);
        // a family whose last tokens expired two days ago, one whose token expired an hour ago (within the grace),
        // one revoked with no token left, and one created this second that has no token yet (being written)
        String deadGrant = insertGrant(fortyDaysAgo, null);
        String deadAccess = insertAccessToken(deadGrant, twoDaysAgo);
        String deadRefresh = insertRefreshToken(deadGrant, twoDaysAgo);
        String graceGrant = insertGrant(fortyDaysAgo, null);
        String graceRefresh = insertRefreshToken(graceGrant, anHourAgo);
        String revokedEmptyGrant = insertGrant(fortyDaysAgo, fortyDaysAgo);
        String newEmptyGrant = insertGrant(now, null);
        String oldCode = CodeFixture.issue(confidential.clientId(), user.userId(), REDIRECT, true, "openid", null,
                null, 60 - 2 * 86_400);
        String recentCode = CodeFixture.issue(confidential.clientId(), user.userId(), REDIRECT, true, "openid", null,
                null, 60 - 3_600);
        long oldEvent = insertAuditEvent(now - 91L * 86_400);
        long keptEvent = insertAuditEvent(now - 89L * 86_400);
        String expiredSession = Secrets.newSecret();
        Db.update("INSERT INTO sso_sessions (session_hash, user_id, auth_time, created_at, last_seen_at, expires_at) "
                + "VALUES (?,?,?,?,?,?)", expiredSession, user.userId(), twoDaysAgo, twoDaysAgo, twoDaysAgo, anHourAgo);
        // a Kerberos authenticator past its time, and one still remembered
        String oldAuthenticator = Secrets.hash(Secrets.newSecret());
        String keptAuthenticator = Secrets.hash(Secrets.newSecret());
        Db.update("INSERT INTO kerberos_authenticators (authenticator_hash, expires_at) VALUES (?,?)",
                oldAuthenticator, now - 60);
        Db.update("INSERT INTO kerberos_authenticators (authenticator_hash, expires_at) VALUES (?,?)",
                keptAuthenticator, now + 3_000);

        assertEquals(401, http.postJson("/admin/purge", "").status(), "admin only");
        Http.Res purged = admin.post("/admin/purge", "");
        assertEquals(200, purged.status(), purged::toString);
        // counts per table; the rows themselves are checked below (the scheduled run may have taken some of them)
        Map<?, ?> counts = (Map<?, ?>) purged.json().get("purged");
        assertEquals(Set.of("sso_sessions", "throttle_counters", "authorization_codes", "access_tokens",
                "refresh_tokens", "token_grants", "client_assertion_jtis", "kerberos_authenticators",
                "pushed_authorization_requests", "request_object_jtis", "dpop_proof_jtis", "audit_events"),
                counts.keySet(),
                purged::toString);
        assertEquals(counts.values().stream().mapToInt(n -> ((Number) n).intValue()).sum(),
                ((Number) purged.json().get("total")).intValue(), purged::toString);

        assertEquals(0, Db.count("SELECT COUNT(*) FROM access_tokens WHERE jti IN (?, ?)", oldRecordOfLiveGrant,
                deadAccess));
        assertEquals(0, Db.count("SELECT COUNT(*) FROM refresh_tokens WHERE token_id = ?", deadRefresh));
        assertEquals(0, Db.count("SELECT COUNT(*) FROM token_grants WHERE grant_id IN (?, ?)", deadGrant,
                revokedEmptyGrant));
        assertEquals(3, Db.count("SELECT COUNT(*) FROM token_grants WHERE grant_id IN (?, ?, ?)", liveGrant,
                graceGrant, newEmptyGrant));
        assertEquals(1, Db.count("SELECT COUNT(*) FROM refresh_tokens WHERE token_id = ?", graceRefresh));
        assertEquals(0, Db.count("SELECT COUNT(*) FROM authorization_codes WHERE code_id = ?",
                SplitToken.parse(oldCode).id()));
        assertEquals(1, Db.count("SELECT COUNT(*) FROM authorization_codes WHERE code_id = ?",
                SplitToken.parse(recentCode).id()));
        assertEquals(0, Db.count("SELECT COUNT(*) FROM audit_events WHERE event_id = ?", oldEvent));
        assertEquals(1, Db.count("SELECT COUNT(*) FROM audit_events WHERE event_id = ?", keptEvent));
        assertEquals(0, Db.count("SELECT COUNT(*) FROM sso_sessions WHERE session_hash = ?", expiredSession));
        assertEquals(0, Db.count("SELECT COUNT(*) FROM kerberos_authenticators WHERE authenticator_hash = ?",
                oldAuthenticator));
        assertEquals(1, Db.count("SELECT COUNT(*) FROM kerberos_authenticators WHERE authenticator_hash = ?",
                keptAuthenticator));
        assertTrue(Db.count("SELECT COUNT(*) FROM audit_events WHERE event_type = 'EXPIRED_ROWS_PURGED' "
                + "AND subject = 'admin' AND detail LIKE 'sso_sessions=%'") >= 1, "the purge is audited");

        // the live family still works, and its used refresh token is still recognised as reuse
        Http.Res again = refresh(confidential, rotated.jsonString("refresh_token"), null);
        assertEquals(200, again.status(), again::toString);
        assertError(refresh(confidential, usedRefreshToken, null), 400, "invalid_grant");
        assertTrue(grantRevoked(liveGrant), "reuse after the purge still revokes the family");
    }

    private String insertGrant(long createdAt, Long revokedAt) {
        String grantId = Secrets.newTimeOrderedId();
        Db.update("INSERT INTO token_grants (grant_id, client_id, user_id, scope, auth_time, created_at, revoked_at) "
                + "VALUES (?,?,?,?,?,?,?)", grantId, confidential.clientId(), user.userId(), "openid", createdAt,
                createdAt, revokedAt);
        return grantId;
    }

    private static String insertAccessToken(String grantId, long expiresAt) {
        String jti = Secrets.newTimeOrderedId();
        Db.update("INSERT INTO access_tokens (jti, grant_id, scope, created_at, expires_at, revoked_at, token_hash) "
                + "VALUES (?,?,?,?,?,NULL,?)", jti, grantId, "openid", expiresAt - 3_600, expiresAt,
                Secrets.hash(jti));
        return jti;
    }

    private static String insertRefreshToken(String grantId, long expiresAt) {
        SplitToken t = SplitToken.issue();
        Db.update("INSERT INTO refresh_tokens (token_id, secret_hash, grant_id, scope, created_at, expires_at, used_at) "
                + "VALUES (?,?,?,?,?,?,NULL)", t.id(), t.secretHash(), grantId, "openid", expiresAt - 86_400,
                expiresAt);
        return t.id();
    }

    /** An audit event at {@code epochSecond}, with a negative id so it never meets one of the sequence's. */
    private static long insertAuditEvent(long epochSecond) {
        long id = -1 - java.util.concurrent.ThreadLocalRandom.current().nextLong(Long.MAX_VALUE - 1);
        Db.update("INSERT INTO audit_events (event_id, occurred_at_ms, event_type, outcome, client_id, subject, ip, "
                + "detail) VALUES (?,?,?,?,NULL,NULL,NULL,NULL)", id, epochSecond * 1000, "SIGN_OUT", "success");
        return id;
    }
}
