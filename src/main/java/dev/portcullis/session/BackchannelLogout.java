package dev.portcullis.session;

import dev.portcullis.client.Client;
import dev.portcullis.client.ClientRepository;
import dev.portcullis.client.LogoutNotifications;
import dev.portcullis.config.LogoutSettings;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Event;
import jakarta.inject.Inject;
import jakarta.transaction.Transactional;
import java.time.Clock;
import java.time.Instant;
import java.util.Collection;
import java.util.Optional;

/**
 * Queues the back-channel logouts of ending SSO sessions (OIDC Back-Channel Logout 1.0): one delivery for each
 * client of the session that registered a {@code backchannel_logout_uri}, written by {@link SsoSessionRepository} in the
 * transaction that deletes the session, so a logout is queued exactly when the session is gone.
 * {@link BackchannelLogoutSender} sends them; it observes {@link BackchannelLogoutsQueued} once that transaction has
 * committed, so a logout goes out without waiting for the next poll.
 */
@ApplicationScoped
public class BackchannelLogout {

    /** An SSO session being ended: its user (the {@code sub} of its ID tokens), {@code sid} and clients. */
    record Ending(String userId, String sid, Collection<String> clientIds) {
    }

    @Inject
    ClientRepository clients;

    @Inject
    LogoutDeliveryRepository deliveries;

    @Inject
    LogoutSettings settings;

    @Inject
    Clock clock;

    @Inject
    Event<BackchannelLogoutsQueued> queuedEvent;

    /** Queues a delivery per client of each session that wants one; returns how many were queued. */
    int queue(Collection<Ending> sessions) {
        Instant now = clock.instant();
        int queued = 0;
        for (Ending s : sessions) {
            for (String clientId : s.clientIds()) {
                Optional<LogoutNotifications> n = registration(clientId);
                // a session without sid (started before sids existed) cannot be named to a client that needs it
                if (n.isPresent() && n.get().backchannelUri() != null
                        && (s.sid() != null || !n.get().backchannelSessionRequired())) {
                    deliveries.add(clientId, s.userId(), s.sid(), now, settings.backchannelRetryFor());
                    queued++;
                }
            }
        }
        if (queued > 0) {
            queuedEvent.fire(new BackchannelLogoutsQueued(queued));
        }
        return queued;
    }

    /**
     * The client's logout registration as it is now, for {@link BackchannelLogoutSender}: read in a transaction of
     * its own, as the sender's threads run outside any and the persistence context needs one.
     */
    @Transactional
    public Optional<LogoutNotifications> currentRegistration(String clientId) {
        return registration(clientId);
    }

    /** The client's logout registration as it is now; empty for a client that no longer exists. */
    Optional<LogoutNotifications> registration(String clientId) {
        return clients.find(clientId).map(Client::logoutNotifications);
    }
}
