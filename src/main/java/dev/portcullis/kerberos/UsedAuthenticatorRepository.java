package dev.portcullis.kerberos;

import dev.portcullis.persistence.Jdbc;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;

/**
 * The one owner of kerberos_authenticators: the replay key ({@link KerberosAuthenticator}) of every Kerberos ticket
 * the login page accepted, kept for {@link #KEPT}. Using one is a single INSERT whose primary key refuses a second
 * use, whichever instance it reaches; the JDK's replay cache only knows its own JVM.
 */
@ApplicationScoped
public class UsedAuthenticatorRepository {

    /**
     * How long a used authenticator is remembered: longer than any authenticator is accepted for. The JDK accepts one
     * within the clock skew either side of now (krb5.conf {@code clockskew}, 5 minutes by default, as in Active
     * Directory), so an hour covers any skew up to 30 minutes.
     */
    public static final Duration KEPT = Duration.ofHours(1);

    @Inject
    Jdbc jdbc;

    /**
     * Records the use of the authenticator with this replay key; false when it was used before. Its own statement
     * (the login page runs outside a transaction), so a used authenticator stays used whatever happens next.
     */
    boolean use(String replayKey, Instant now) {
        return jdbc.insertUnlessTaken("INSERT INTO kerberos_authenticators (authenticator_hash, expires_at) "
                + "VALUES (?,?)", replayKey, now.plus(KEPT).getEpochSecond());
    }

    /** Whether the authenticator with this replay key was used (a token the JDK refused may be a replay). */
    boolean used(String replayKey) {
        return jdbc.one("SELECT authenticator_hash FROM kerberos_authenticators WHERE authenticator_hash = ?",
                row -> row.string("authenticator_hash"), replayKey).isPresent();
    }

    /** Deletes what was used {@link #KEPT} before {@code now} or earlier: such an authenticator is refused for its age. */
    public int purgeExpired(Instant now) {
        return jdbc.deleteInChunks("kerberos_authenticators", "authenticator_hash", "expires_at < ?",
                now.getEpochSecond());
    }
}
