package dev.portcullis.consent;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.IdClass;
import jakarta.persistence.Table;
import java.io.Serializable;
import java.time.Instant;
import java.util.Objects;

/** The scopes a user has granted to a client (remembered consent). */
@Entity
@Table(name = "consents")
@IdClass(Consent.Key.class)
public class Consent {

    @Id
    @Column(name = "user_id")
    private String userId;

    @Id
    @Column(name = "client_id")
    private String clientId;

    private String scope;

    @Column(name = "granted_at")
    private long grantedAt;

    protected Consent() {
    }

    Consent(String userId, String clientId, String scope, long grantedAt) {
        this.userId = userId;
        this.clientId = clientId;
        this.scope = scope;
        this.grantedAt = grantedAt;
    }

    public String clientId() {
        return clientId;
    }

    public String scope() {
        return scope;
    }

    /** When consent was (last) given. */
    public Instant grantedAt() {
        return Instant.ofEpochSecond(grantedAt);
    }

    void replace(String scope, long grantedAt) {
        this.scope = scope;
        this.grantedAt = grantedAt;
    }

    /** Composite primary key (user_id, client_id). */
    public static class Key implements Serializable {
        private static final long serialVersionUID = 1L;
        private String userId;
        private String clientId;

        public Key() {
        }

        public Key(String userId, String clientId) {
            this.userId = userId;
            this.clientId = clientId;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Key k && Objects.equals(userId, k.userId) && Objects.equals(clientId, k.clientId);
        }

        @Override
        public int hashCode() {
            return Objects.hash(userId, clientId);
        }
    }
}
