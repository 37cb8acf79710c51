package dev.portcullis.token;

import com.nimbusds.jose.jwk.JWKSet;
import dev.portcullis.client.Client;
import dev.portcullis.client.ClientJwksRules;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.io.ByteArrayOutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Flow;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The public keys of a {@code private_key_jwt} client: its inline {@code jwks}, or the set at its {@code jwks_uri}.
 * A fetch is bounded: {@value #CONNECT_TIMEOUT_MS} ms to connect, {@value #TOTAL_TIMEOUT_MS} ms for the whole answer,
 * no redirect followed, at most {@value #MAX_BYTES} bytes (a larger answer is refused), status 200 only. Fetched sets
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
    /** More URLs than this and the oldest entries go: bounds the memory a flood of registrations could take. */
    private static final int MAX_CACHED = 1_000;

    /** Why no key set could be had; the message goes to the audit trail and the {@code invalid_client} answer. */
    public static final class Unavailable extends Exception {
        private static final long serialVersionUID = 1L;

        Unavailable(String why) {
            super(why, null, false, false);
        }
    }

    /** Reads the body of a key set URL within the bounds above; replaced in unit tests. */
    @FunctionalInterface
    interface Fetcher {
        String fetch(URI uri) throws Unavailable;
    }

    /** A fetched set (null when the last fetch failed), when it was fetched, when the URL was last tried. */
    private record Entry(JWKSet keys, Instant fetchedAt, Instant triedAt) {
    }

    private final Map<String, Entry> cache = new ConcurrentHashMap<>();

    @Inject
    Clock clock;

    Fetcher fetcher = new HttpFetcher();

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
                throw new Unavailable("The registered jwks " + e.getMessage());
            }
        }
        if (client.jwksUri() == null) {
            throw new Unavailable("The client has no keys registered");
        }
        String uri = client.jwksUri();
        Instant now = clock.instant();
        Entry kept = cache.get(uri);
        boolean stale = kept == null || kept.keys() == null || refresh
                || kept.fetchedAt().plus(MAX_AGE).isBefore(now);
        boolean mayTry = kept == null || !kept.triedAt().plus(REFETCH_INTERVAL).isAfter(now);
        if (!stale || !mayTry) {
            if (kept.keys() == null) {
                throw new Unavailable("The client's jwks_uri could not be read (tried less than a minute ago)");
            }
            return kept.keys();
        }
        // marked as tried before the fetch, so that requests arriving meanwhile use what is kept instead of queueing
        cache.put(uri, new Entry(kept == null ? null : kept.keys(), kept == null ? now : kept.fetchedAt(), now));
        try {
            JWKSet fetched = ClientJwksRules.parse(fetcher.fetch(URI.create(uri)));
            trim();
            cache.put(uri, new Entry(fetched, now, now));
            return fetched;
        } catch (ClientJwksRules.Unusable e) {
            cache.put(uri, new Entry(null, now, now));
            throw new Unavailable("The key set at the client's jwks_uri " + e.getMessage());
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

    /** java.net.http with the bounds of the class: an answer not complete within the time-out is abandoned. */
    static final class HttpFetcher implements Fetcher {

        private final HttpClient http = HttpClient.newBuilder()
                .connectTimeout(Duration.ofMillis(CONNECT_TIMEOUT_MS))
                .followRedirects(HttpClient.Redirect.NEVER)
                .build();

        @Override
        public String fetch(URI uri) throws Unavailable {
            HttpRequest request = HttpRequest.newBuilder(uri).timeout(Duration.ofMillis(TOTAL_TIMEOUT_MS))
                    .header("Accept", "application/json, application/jwk-set+json").GET().build();
            CompletableFuture<HttpResponse<byte[]>> answer = http.sendAsync(request, info -> capped());
            try {
                HttpResponse<byte[]> r = answer.get(TOTAL_TIMEOUT_MS, TimeUnit.MILLISECONDS);
                if (r.statusCode() != 200) {
                    throw new Unavailable("The client's jwks_uri answered " + r.statusCode());
                }
                return new String(r.body(), StandardCharsets.UTF_8);
            } catch (TimeoutException e) {
                answer.cancel(true);
                throw new Unavailable("The client's jwks_uri did not answer within " + TOTAL_TIMEOUT_MS + " ms");
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new Unavailable("Interrupted while reading the client's jwks_uri");
            } catch (ExecutionException e) {
                throw new Unavailable(tooLarge(e)
                        ? "The client's jwks_uri answered more than " + MAX_BYTES + " bytes"
                        : "The client's jwks_uri could not be read");
            }
        }

        private static boolean tooLarge(Throwable e) {
            for (Throwable t = e; t != null; t = t.getCause()) {
                if (t instanceof TooLarge) {
                    return true;
                }
            }
            return false;
        }

        /** A body subscriber that gives up (and cancels the download) past {@link #MAX_BYTES}. */
        private static HttpResponse.BodySubscriber<byte[]> capped() {
            return new HttpResponse.BodySubscriber<>() {
                private final CompletableFuture<byte[]> body = new CompletableFuture<>();
                private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
                private Flow.Subscription subscription;

                @Override
                public CompletionStage<byte[]> getBody() {
                    return body;
                }

                @Override
                public void onSubscribe(Flow.Subscription s) {
                    subscription = s;
                    s.request(Long.MAX_VALUE);
                }

                @Override
                public void onNext(List<ByteBuffer> items) {
                    if (body.isDone()) {
                        return;
                    }
                    for (ByteBuffer b : items) {
                        if (bytes.size() + b.remaining() > MAX_BYTES) {
                            subscription.cancel();
                            body.completeExceptionally(new TooLarge());
                            return;
                        }
                        byte[] chunk = new byte[b.remaining()];
                        b.get(chunk);
                        bytes.write(chunk, 0, chunk.length);
                    }
                }

                @Override
                public void onError(Throwable t) {
                    body.completeExceptionally(t);
                }

                @Override
                public void onComplete() {
                    body.complete(bytes.toByteArray());
                }
            };
        }

        private static final class TooLarge extends Exception {
            private static final long serialVersionUID = 1L;

            TooLarge() {
                super(null, null, false, false);
            }
        }
    }
}
