package dev.portcullis.dpop;

import dev.portcullis.crypto.Secrets;
import dev.portcullis.persistence.Jdbc;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Instant;

/**
 * The one owner of dpop_proof_jtis: the {@code jti} of every accepted DPoP proof, kept until the proof is too old to
 * be accepted anyway. Using one is a single INSERT whose primary key (the hash of the key's thumbprint and the jti,
 * so a jti of any length fits) refuses a second use, whichever instance it reaches.
 */
@ApplicationScoped
public class DpopProofJtiRepository {

    @Inject
    Jdbc jdbc;

    /**
     * Records the use of {@code jti} in a proof signed by the key {@code jkt}; false when it was used before. Its own
     * statement, outside any transaction: a proof once accepted stays used whatever the request does next.
     */
    public boolean use(String jkt, String jti, Instant expiresAt) {
        return jdbc.insertUnlessTaken("INSERT INTO dpop_proof_jtis (jti_hash, expires_at) VALUES (?,?)",
                Secrets.hash(jkt + "\n" + jti), expiresAt.getEpochSecond());
    }

    /** Deletes the jtis of proofs that expired before {@code before}: those are refused for their iat alone. */
    public int purgeExpired(Instant before) {
        return jdbc.deleteInChunks("dpop_proof_jtis", "jti_hash", "expires_at < ?", before.getEpochSecond());
    }
}
