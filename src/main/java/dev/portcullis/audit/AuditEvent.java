package dev.portcullis.audit;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.SequenceGenerator;
import jakarta.persistence.Table;
import java.time.Instant;

/** One security event. Holds ids, IP, time and outcome, never a credential. */
@Entity
@Table(name = "audit_events")
public class AuditEvent {

    /** Every event type Portcullis records; the names appear in the log and in {@code GET /admin/audit?type=}. */
    public enum Type {
        SIGN_IN_SUCCESS, SIGN_IN_FAILURE, SIGN_IN_LOCKED, SIGN_OUT,
        CONSENT_GRANTED, CONSENT_DENIED,
        CODE_ISSUED, CODE_REDEEMED, CODE_REPLAYED,
        TOKEN_REFRESHED, REFRESH_TOKEN_REUSED, TOKEN_REVOKED, GRANT_REVOKED,
        CLIENT_AUTH_FAILURE,
        CLIENT_CREATED, CLIENT_DELETED, CLIENT_SECRET_ROTATED,
        USER_CREATED, USER_DELETED, USER_PASSWORD_CHANGED,
        SIGNING_KEY_ROTATED,
        EXPIRED_ROWS_PURGED
    }

    @Id
    @Column(name = "event_id")
    @SequenceGenerator(name = "audit_event_seq", sequenceName = "audit_event_seq", allocationSize = 1)
    @GeneratedValue(strategy = GenerationType.SEQUENCE, generator = "audit_event_seq")
    private Long id;

    @Column(name = "occurred_at_ms")
    private long occurredAtMs;

    @Column(name = "event_type")
    private String type;

    private String outcome;

    @Column(name = "client_id")
    private String clientId;

    private String subject;

    private String ip;

    private String detail;

    protected AuditEvent() {
    }

    AuditEvent(Instant at, Type type, String outcome, String clientId, String subject, String ip, String detail) {
        this.occurredAtMs = at.toEpochMilli();
        this.type = type.name();
        this.outcome = outcome;
        this.clientId = clip(clientId, 64);
        this.subject = clip(subject, 100);
        this.ip = clip(ip, 64);
        this.detail = clip(detail, 1000);
    }

    private static String clip(String s, int max) {
        return s == null || s.length() <= max ? s : s.substring(0, max);
    }

    public Long id() {
        return id;
    }

    public Instant occurredAt() {
        return Instant.ofEpochMilli(occurredAtMs);
    }

    public String type() {
        return type;
    }

    public String outcome() {
        return outcome;
    }

    public String clientId() {
        return clientId;
    }

    public String subject() {
        return subject;
    }

    public String ip() {
        return ip;
    }

    public String detail() {
        return detail;
    }

    @Override
    public String toString() {
        return type + " outcome=" + outcome + (clientId != null ? " client=" + clientId : "")
                + (subject != null ? " subject=" + subject : "") + (ip != null ? " ip=" + ip : "")
                + (detail != null ? " " + detail : "");
    }
}
