package dev.portcullis.authorize;

import dev.portcullis.crypto.Secrets;
import dev.portcullis.persistence.Jdbc;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * The one owner of pushed_authorization_requests (RFC 9126): requests a client pushed, each under the hash of the
 * reference in its {@code request_uri} and bound to the client. A request is redeemed once at the authorization
 * endpoint, by one UPDATE that only the first of any number of instances gets to change; from then on the sign-in
 * pages carry it by its hash ({@link #pending}) for {@link #PENDING} more. A request that came as a verified request
 * object (RFC 9101) is marked {@code signed}; one sent by value to the authorization endpoint is stored here already
 * redeemed ({@link #carry}), so the pages carry it by hash as well and never by parameters the browser could change.
 */
@ApplicationScoped
public class PushedRequestRepository {

    /** RFC 9126 2.2: the {@code request_uri} of a pushed request is this prefix and a random reference. */
    public static final String REQUEST_URI_PREFIX = "urn:ietf:params:oauth:request_uri:";

    /** How long a pushed request may wait to be redeemed ({@code expires_in}). */
    public static final Duration LIFETIME = Duration.ofSeconds(60);

    /** How long after its redemption the sign-in, second-factor and consent pages may carry the request. */
    static final Duration PENDING = Duration.ofMinutes(30);

    @Inject
    Jdbc jdbc;

    @Inject
    Clock clock;

    /** A redeemed request's parameters (a form-encoded query) and whether they came as a signed request object. */
    public record Pending(String parameters, boolean signed) {
    }

    /**
     * Stores {@code parameters} (a validated request's query) for {@code clientId}, {@code signed} when they came as a
     * verified request object; returns the request_uri.
     */
    public String push(String clientId, String parameters, boolean signed) {
        String reference = Secrets.newSecret();
        jdbc.update("INSERT INTO pushed_authorization_requests (reference_hash, client_id, parameters, expires_at, "
                + "signed) VALUES (?,?,?,?,?)", Secrets.hash(reference), clientId, parameters,
                clock.instant().plus(LIFETIME).getEpochSecond(), signed);
        return REQUEST_URI_PREFIX + reference;
    }

    /**
     * Stores the parameters of a request object sent by value to the authorization endpoint as a redeemed signed
     * request, for the pages to carry by the hash returned.
     */
    public String carry(String clientId, String parameters) {
        String hash = Secrets.hash(Secrets.newSecret());
        Instant now = clock.instant();
        jdbc.update("INSERT INTO pushed_authorization_requests (reference_hash, client_id, parameters, expires_at, "
                + "redeemed_at, signed) VALUES (?,?,?,?,?,?)", hash, clientId, parameters,
                now.plus(PENDING).getEpochSecond(), now.getEpochSecond(), true);
        return hash;
    }

    /**
     * Redeems a request_uri for {@code clientId}: the hash under which the sign-in pages then find the request, or
     * empty when it is not one of this client's pushed requests, was redeemed before, or has expired.
     */
    public Optional<String> redeem(String requestUri, String clientId) {
        if (!requestUri.startsWith(REQUEST_URI_PREFIX)) {
            return Optional.empty();
        }
        String hash = Secrets.hash(requestUri.substring(REQUEST_URI_PREFIX.length()));
        Instant now = clock.instant();
        int redeemed = jdbc.update("UPDATE pushed_authorization_requests SET redeemed_at = ?, expires_at = ? "
                + "WHERE reference_hash = ? AND client_id = ? AND redeemed_at IS NULL AND expires_at > ?",
                now.getEpochSecond(), now.plus(PENDING).getEpochSecond(), hash, clientId, now.getEpochSecond());
        return redeemed == 1 ? Optional.of(hash) : Optional.empty();
    }

    /** The parameters of {@code clientId}'s redeemed request under {@code hash}, while its pages may carry it. */
    public Optional<Pending> pending(String hash, String clientId) {
        return jdbc.one("SELECT parameters, signed FROM pushed_authorization_requests WHERE reference_hash = ? "
                + "AND client_id = ? AND redeemed_at IS NOT NULL AND expires_at > ?",
                row -> new Pending(row.string("parameters"), row.bool("signed")),
                hash, clientId, clock.instant().getEpochSecond());
    }

    /** Deletes the requests that can no longer be redeemed or carried. */
    public int purgeExpired(Instant before) {
        return jdbc.deleteInChunks("pushed_authorization_requests", "reference_hash", "expires_at < ?",
                before.getEpochSecond());
    }
}
