package dev.portcullis.session;

import dev.portcullis.config.PortcullisConfig;
import dev.portcullis.crypto.Secrets;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.transaction.Transactional;
import java.time.Clock;
import java.time.Instant;
import java.util.Optional;

/**
 * Server-side SSO sessions in the database, so any instance can read them and a restart keeps users signed in.
 * Lifetime: {@code portcullis.session.idle-ttl} since last use, at most {@code portcullis.session.max-ttl} in all.
 */
@ApplicationScoped
public class SsoSessions {

    @PersistenceContext(unitName = "portcullis")
    EntityManager em;

    @Inject
    PortcullisConfig config;

    @Inject
    Clock clock;

    /** A new session and the cookie value that names it (returned once, stored only hashed). */
    public record Started(String cookieValue, SsoSession session) {
    }

    @Transactional
    public Started start(String userId) {
        String id = Secrets.newSecret();
        Instant now = clock.instant();
        SsoSession s = new SsoSession(Secrets.hash(id), userId, now, now.plus(config.sessionMaxTtl()));
        em.persist(s);
        return new Started(id, s);
    }

    /** The live session named by a cookie value; expired sessions are deleted when met. */
    @Transactional
    public Optional<SsoSession> findLive(String cookieValue) {
        if (cookieValue == null || cookieValue.length() != 43) {
            return Optional.empty();
        }
        SsoSession s = em.find(SsoSession.class, Secrets.hash(cookieValue));
        if (s == null) {
            return Optional.empty();
        }
        Instant now = clock.instant();
        if (!s.isLive(now, config.sessionIdleTtl())) {
            em.remove(s);
            return Optional.empty();
        }
        s.touch(now);
        return Optional.of(s);
    }

    @Transactional
    public void end(String cookieValue) {
        if (cookieValue != null && cookieValue.length() == 43) {
            em.createQuery("DELETE FROM SsoSession s WHERE s.sessionHash = :h")
                    .setParameter("h", Secrets.hash(cookieValue)).executeUpdate();
        }
    }
}
