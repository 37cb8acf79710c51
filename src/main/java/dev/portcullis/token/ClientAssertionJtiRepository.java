package dev.portcullis.token;

import dev.portcullis.crypto.Secrets;
import dev.portcullis.persistence.Jdbc;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Instant;

/**
 * The one owner of client_assertion_jtis: the {@code jti} of every accepted client assertion, kept until the
 * assertion expires. Using one is a single INSERT whose primary key (the hash of client and jti, so a jti of any
 * length fits) refuses a second use, whichever instance it reaches.
 */
@ApplicationScoped
public class ClientAssertionJtiRepository {

    @Inject
    Jdbc jdbc;

    /**
     * Records the use of {@code jti} by {@code clientId}; false when it was used before. Runs in its own statement
     * (the token endpoint authenticates outside a transaction), so a used assertion stays used whatever the request
     * does next.
     */
    public boolean use(String clientId, String jti, Instant expiresAt) {
        return jdbc.insertUnlessTaken("INSERT INTO client_assertion_jtis (jti_hash, client_id, expires_at) "
                + "VALUES (?,?,?)", Secrets.hash(clientId + "\n" + jti), clientId, expiresAt.getEpochSecond());
    }

    /** Deletes the jtis of assertions expired before {@code before}: those are refused for their exp alone. */
    public int purgeExpired(Instant before) {
        return jdbc.deleteInChunks("client_assertion_jtis", "jti_hash", "expires_at < ?", before.getEpochSecond());
    }
}
