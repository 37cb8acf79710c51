package dev.portcullis.token;

import com.nimbusds.jose.jwk.JWKSet;
import dev.portcullis.client.Client;
import dev.portcullis.client.ClientJwksRules;
import dev.portcullis.outbound.OutboundFailure;
import dev.portcullis.outbound.OutboundHttp;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The public keys of a {@code private_key_jwt} client: its inline {@code jwks}, or the set at its {@code jwks_uri}.
 * A fetch goes through {@link OutboundHttp} (the address checked, no redirect followed) and is bounded:
 * {@value #CONNECT_TIMEOUT_MS} ms to connect, {@value #TOTAL_TIMEOUT_MS} ms for the whole answer, at most
 * {@value #MAX_BYTES} bytes (a larger answer is refused), status 200 only. Fetched sets
 * are kept per instance for {@link #MAX_AGE} (they are public data, not protocol state); an assertion whose key is not
 * in the kept set may refetch it, at most once per {@link #REFETCH_INTERVAL} per URL, and so may a failed fetch,
 * which keeps a slow or broken URL from costing every request its time-out.
 */
@ApplicationScoped
public class ClientJwksSource {

    static final int CONNECT_TIMEOUT_MS = 2_000;
    static final int TOTAL_TIMEOUT_MS = 3_000;
    static final int MAX_BYTES = 64 * 1024;
    static final Duration MAX_AGE = Duration.ofMinutes(5);
    static final Duration REFETCH_INTERVAL = Duration.ofMinutes(1);
    private static final OutboundHttp.Limits LIMITS = new OutboundHttp.Limits(
            Duration.ofMillis(CONNECT_TIMEOUT_MS), Duration.ofMillis(TOTAL_TIMEOUT_MS), MAX_BYTES);
    /** More URLs than this and the oldest entries go: bounds the memory a flood of registrations could take. */
    private static final int MAX_CACHED = 1_000;

    /**
     * Why no key set could be had. The message (the URL, the status, the time-out) goes to the audit trail only; the
     * {@code invalid_client} answer says no more than {@link ClientAssertionVerifier#KEYS_UNUSABLE}, so a client's key set
     * URL cannot be used to learn which hosts and ports answer inside the network.
     */
    public static final class Unavailable extends Exception {
        private static final long serialVersionUID = 1L;

        Unavailable(String why) {
            super(why, null, false, false);
        }
    }

    /** Reads the body of a key set URL within the bounds above; replaced in unit tests. */
    @FunctionalInterface
    interface Fetcher {
        String fetch(String uri) throws Unavailable;
    }

    /** A fetched set (null when the last fetch failed), when it was fetched, when the URL was last tried. */
    private record Entry(JWKSet keys, Instant fetchedAt, Instant triedAt) {
    }

    private final Map<String, Entry> cache = new ConcurrentHashMap<>();

    @Inject
    Clock clock;

    @Inject
    OutboundHttp outbound;

    Fetcher fetcher = this::fetch;

    /**
     * The client's keys. For a {@code jwks_uri}, the kept set unless it is older than {@link #MAX_AGE} or
     * {@code refresh} asks for a newer one (its key was not found), each only when the URL was not tried in the last
     * {@link #REFETCH_INTERVAL}.
     */
    public JWKSet keysOf(Client client, boolean refresh) throws Unavailable {
        if (client.jwks() != null) {
            try {
                return ClientJwksRules.parse(client.jwks());
            } catch (ClientJwksRules.Unusable e) {
                throw new Unavailable("the registered jwks " + e.getMessage());
            }
        }
        if (client.jwksUri() == null) {
            throw new Unavailable("the client has no keys registered");
        }
        String uri = client.jwksUri();
        Instant now = clock.instant();
        Entry kept = cache.get(uri);
        boolean stale = kept == null || kept.keys() == null || refresh
                || kept.fetchedAt().plus(MAX_AGE).isBefore(now);
        boolean mayTry = kept == null || !kept.triedAt().plus(REFETCH_INTERVAL).isAfter(now);
        if (!stale || !mayTry) {
            if (kept.keys() == null) {
                throw new Unavailable("jwks_uri " + uri + " not tried again: its last fetch failed less than "
                        + REFETCH_INTERVAL.toSeconds() + " s ago");
            }
            return kept.keys();
        }
        // marked as tried before the fetch, so that requests arriving meanwhile use what is kept instead of queueing
        cache.put(uri, new Entry(kept == null ? null : kept.keys(), kept == null ? now : kept.fetchedAt(), now));
        try {
            JWKSet fetched = ClientJwksRules.parse(fetcher.fetch(uri));
            trim();
            cache.put(uri, new Entry(fetched, now, now));
            return fetched;
        } catch (ClientJwksRules.Unusable e) {
            cache.put(uri, new Entry(null, now, now));
            throw new Unavailable("the key set at " + uri + " " + e.getMessage());
        } catch (Unavailable e) {
            cache.put(uri, new Entry(null, now, now));
            throw e;
        }
    }

    private void trim() {
        if (cache.size() >= MAX_CACHED) {
            cache.clear();
        }
    }

    /** One fetch of the key set URL: status 200 and a body within {@link #MAX_BYTES}, else why not. */
    private String fetch(String uri) throws Unavailable {
        OutboundHttp.Answer answer;
        try {
            answer = outbound.get(uri, "application/json, application/jwk-set+json", LIMITS);
        } catch (OutboundFailure e) {
            throw new Unavailable("jwks_uri " + e.getMessage());
        }
        if (answer.status() != 200) {
            throw new Unavailable("jwks_uri " + uri + ": answered " + answer.status());
        }
        return new String(answer.body(), StandardCharsets.UTF_8);
    }
}
