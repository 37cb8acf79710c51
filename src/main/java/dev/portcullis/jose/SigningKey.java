package dev.portcullis.jose;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.time.Instant;

/**
 * One row of {@code signing_keys}: a private JWK shared by every instance. Published in the JWKS from
 * {@code createdAt}, signs from {@code activeFrom} until {@code retiredAt}, and stays published until the last token
 * it signed has expired ({@code retiredAt} + token lifetime). The private JWK is never logged or served.
 */
@Entity
@Table(name = "signing_keys")
public class SigningKey {

    @Id
    private String kid;

    private String alg;

    @Column(name = "private_jwk")
    private String privateJwk;

    @Column(name = "created_at")
    private long createdAt;

    @Column(name = "active_from")
    private long activeFrom;

    @Column(name = "retired_at")
    private Long retiredAt;

    protected SigningKey() {
    }

    SigningKey(String kid, String alg, String privateJwk, Instant createdAt, Instant activeFrom) {
        this.kid = kid;
        this.alg = alg;
        this.privateJwk = privateJwk;
        this.createdAt = createdAt.getEpochSecond();
        this.activeFrom = activeFrom.getEpochSecond();
    }

    public String kid() {
        return kid;
    }

    public String alg() {
        return alg;
    }

    String privateJwk() {
        return privateJwk;
    }

    public Instant createdAt() {
        return Instant.ofEpochSecond(createdAt);
    }

    public Instant activeFrom() {
        return Instant.ofEpochSecond(activeFrom);
    }

    public Instant retiredAt() {
        return retiredAt == null ? null : Instant.ofEpochSecond(retiredAt);
    }

    @Override
    public String toString() {
        return "SigningKey[" + kid + " " + alg + "]"; // never the key material
    }
}
