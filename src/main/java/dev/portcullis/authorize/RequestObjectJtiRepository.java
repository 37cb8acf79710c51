package dev.portcullis.authorize;

import dev.portcullis.crypto.Secrets;
import dev.portcullis.persistence.Jdbc;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Instant;

/**
 * The one owner of request_object_jtis: the {@code jti} of every accepted request object (RFC 9101), kept until the
 * object expires. Using one is a single INSERT whose primary key (the hash of client and jti) refuses a second use,
 * whichever instance it reaches.
 */
@ApplicationScoped
public class RequestObjectJtiRepository {

    @Inject
    Jdbc jdbc;

    /** Records the use of {@code jti} by {@code clientId}; false when it was used before. */
    public boolean use(String clientId, String jti, Instant expiresAt) {
        return jdbc.insertUnlessTaken("INSERT INTO request_object_jtis (jti_hash, client_id, expires_at) "
                + "VALUES (?,?,?)", Secrets.hash(clientId + "\n" + jti), clientId, expiresAt.getEpochSecond());
    }

    /** Deletes the jtis of objects expired before {@code before}: those are refused for their exp alone. */
    public int purgeExpired(Instant before) {
        return jdbc.deleteInChunks("request_object_jtis", "jti_hash", "expires_at < ?", before.getEpochSecond());
    }
}
