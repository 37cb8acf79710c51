package dev.portcullis.audit;

import dev.portcullis.protocol.LogText;
import java.time.Instant;

/**
 * One security event (a row of audit_events, owned by {@link AuditLog}). Holds ids, IP, time and outcome, never a
 * credential. {@code id} is null until the event is written.
 */
public record AuditEvent(Long id, Instant occurredAt, String type, String outcome, String clientId, String subject,
                         String ip, String detail, String actor) {

    /** Every event type Portcullis records; the names appear in the log and in {@code GET /admin/audit?type=}. */
    public enum Type {
        SIGN_IN_SUCCESS, SIGN_IN_FAILURE, SIGN_IN_LOCKED, SIGN_OUT,
        SECOND_FACTOR_SUCCESS, SECOND_FACTOR_FAILURE, SECOND_FACTOR_ENROLLED, SECOND_FACTORS_RESET,
        CONSENT_GRANTED, CONSENT_DENIED,
        CODE_ISSUED, CODE_REDEEMED, CODE_REPLAYED,
        TOKEN_REFRESHED, REFRESH_TOKEN_REUSED, TOKEN_REVOKED, GRANT_REVOKED, CLIENT_CREDENTIALS_ISSUED,
        TOKEN_EXCHANGED,
        CLIENT_AUTH_FAILURE,
        CLIENT_CREATED, CLIENT_DELETED, CLIENT_SECRET_ROTATED, CLIENT_UPDATED,
        API_CREATED, API_UPDATED, API_DELETED,
        USER_CREATED, USER_DELETED, USER_PASSWORD_CHANGED, USER_UPDATED, USER_UNLOCKED,
        SESSION_ENDED,
        BACKCHANNEL_LOGOUT_DELIVERED, BACKCHANNEL_LOGOUT_FAILED, BACKCHANNEL_LOGOUT_GIVEN_UP,
        SIGNING_KEY_ROTATED,
        EXPIRED_ROWS_PURGED
    }

    /**
     * A new event, its texts with control characters escaped ({@link LogText}) and clipped to their columns; the id
     * is drawn from audit_event_seq when it is written.
     */
    AuditEvent(Instant at, Type type, String outcome, String clientId, String subject, String ip, String detail,
               String actor) {
        this(null, Instant.ofEpochMilli(at.toEpochMilli()), type.name(), outcome, safe(clientId, 64),
                safe(subject, 100), safe(ip, 64), safe(detail, 1000), safe(actor, 100));
    }

    private static String safe(String s, int max) {
        return clip(LogText.escape(s), max);
    }

    private static String clip(String s, int max) {
        return s == null || s.length() <= max ? s : s.substring(0, max);
    }

    @Override
    public String toString() {
        return type + " outcome=" + outcome + (clientId != null ? " client=" + clientId : "")
                + (subject != null ? " subject=" + subject : "") + (ip != null ? " ip=" + ip : "")
                + (actor != null ? " by=" + actor : "") + (detail != null ? " " + detail : "");
    }
}
