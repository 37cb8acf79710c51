package dev.portcullis.account;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/** A row of login_throttle: the failure counter of one account ("user:name") or client IP ("ip:addr"). */
@Entity
@Table(name = "login_throttle")
public class LoginThrottleEntry {

    @Id
    @Column(name = "throttle_key")
    private String key;

    private int failures;

    @Column(name = "first_failure_at")
    private long firstFailureAt;

    @Column(name = "locked_until")
    private Long lockedUntil;

    protected LoginThrottleEntry() {
    }

    LoginThrottleEntry(String key) {
        this.key = key;
    }

    ThrottlePolicy.Counter counter() {
        return new ThrottlePolicy.Counter(failures, firstFailureAt, lockedUntil);
    }

    void set(ThrottlePolicy.Counter c) {
        this.failures = c.failures();
        this.firstFailureAt = c.firstFailureAt();
        this.lockedUntil = c.lockedUntil();
    }
}
