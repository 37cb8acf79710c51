package dev.portcullis.session;

import dev.portcullis.metrics.TestMetrics;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.portcullis.client.LogoutNotifications;
import dev.portcullis.config.AddressRange;
import dev.portcullis.jose.TokenMinter;
import dev.portcullis.outbound.OutboundAddressPolicy;
import dev.portcullis.outbound.OutboundFailure;
import dev.portcullis.outbound.OutboundHttp;
import dev.portcullis.testing.MutableClock;
import dev.portcullis.testing.RecordingAudit;
import jakarta.enterprise.concurrent.ManagedScheduledExecutorService;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.event.TransactionPhase;
import java.io.IOException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.Proxy;
import java.net.InetSocketAddress;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledFuture;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * One attempt of the sender against a receiver on loopback (admitted, as an operator would with
 * {@code portcullis.outbound.allowed-networks}): only 200 and 204 deliver; a 5xx, 408, 429 or no connection is
 * retried; any other answer is given up at once (a redirect too, its {@code Location} never requested); an address the policy does not admit is given up without a
 * request.
 */
class BackchannelLogoutSenderTest {

    private static HttpServer receiver;
    /** What the receiver answers per path. */
    private static final Map<String, Integer> STATUS = new ConcurrentHashMap<>();
    /** Every request that arrived, as "METHOD path body". */
    private static final List<String> ARRIVED = Collections.synchronizedList(new ArrayList<>());

    private final MutableClock clock = new MutableClock(Instant.ofEpochSecond(1_800_000_000L));
    private final RecordingAudit audit = new RecordingAudit();
    private final List<String> settled = new ArrayList<>();
    private final List<String> retried = new ArrayList<>();
    private String registered;
    private BackchannelLogoutSender sender;

    @BeforeAll
    static void startReceiver() throws IOException {
        receiver = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        receiver.setExecutor(Executors.newCachedThreadPool());
        receiver.createContext("/", BackchannelLogoutSenderTest::receive);
        receiver.start();
    }

    @AfterAll
    static void stopReceiver() {
        receiver.stop(0);
    }

    private static void receive(HttpExchange x) throws IOException {
        String path = x.getRequestURI().getPath();
        ARRIVED.add(x.getRequestMethod() + " " + path + " "
                + new String(x.getRequestBody().readAllBytes(), StandardCharsets.US_ASCII));
        int status = STATUS.getOrDefault(path, 200);
        if (status >= 300 && status < 400) {
            x.getResponseHeaders().add("Location", uri(path + "-landing"));
        }
        x.sendResponseHeaders(status, -1);
        x.close();
    }

    private static String uri(String path) {
        return "http://127.0.0.1:" + receiver.getAddress().getPort() + path;
    }

    private static OutboundHttp admitting(String... networks) {
        return new OutboundHttp(new OutboundAddressPolicy(java.util.Arrays.stream(networks).map(AddressRange::parse)
                .toList()), null);
    }

    @BeforeEach
    void wire() {
        sender = new BackchannelLogoutSender();
        sender.metrics = TestMetrics.create();
        sender.clock = clock;
        sender.audit = audit;
        sender.outbound = admitting("127.0.0.0/8");
        sender.minter = new TokenMinter() {
            @Override
            public String logoutToken(LogoutTokenClaims c) {
                return "h.logout-token-for-" + c.sid() + ".s";
            }
        };
        sender.backchannel = new BackchannelLogout() {
            @Override
            public Optional<LogoutNotifications> currentRegistration(String clientId) {
                return Optional.of(new LogoutNotifications(registered, true, null, true));
            }
        };
        sender.deliveries = new LogoutDeliveryRepository() {
            @Override
            public boolean settle(Delivery d, String owner) {
                settled.add(d.deliveryId());
                return true;
            }

            @Override
            public boolean retryAt(Delivery d, String owner, Instant nextAttempt, String outcome) {
                retried.add(d.deliveryId() + " " + outcome);
                return true;
            }
        };
    }

    private LogoutDeliveryRepository.Delivery delivery(String id) {
        return new LogoutDeliveryRepository.Delivery(id, "rp-1", "user-1", "sid-" + id, clock.instant(),
                clock.instant().plus(Duration.ofMinutes(10)), 1);
    }

    private List<String> arrivedAt(String path) {
        synchronized (ARRIVED) {
            return ARRIVED.stream().filter(a -> a.split(" ")[1].equals(path)).toList();
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {200, 204})
    void attemptWhenTheReceiverAnswers200Or204ThenDelivered(int status) {
        String path = "/ok-" + status;
        STATUS.put(path, status);
        registered = uri(path);
        sender.attempt(delivery("d-" + status));
        assertEquals(List.of("d-" + status), settled);
        assertEquals(List.of(), retried);
        assertEquals(List.of("POST " + path + " logout_token=h.logout-token-for-sid-d-" + status + ".s"),
                arrivedAt(path));
        assertTrue(audit.lines.get(0).startsWith("BACKCHANNEL_LOGOUT_DELIVERED user-1 delivered to " + registered),
                audit.lines::toString);
    }

    @ParameterizedTest
    @ValueSource(ints = {301, 302, 303, 307, 308})
    void attemptWhenTheReceiverRedirectsThenGivenUpAndTheLocationIsNeverRequested(int status) {
        String path = "/moved-" + status;
        STATUS.put(path, status);
        registered = uri(path);
        sender.attempt(delivery("d-" + status));
        assertEquals(List.of("d-" + status), settled, "a redirect delivers nothing and would come again");
        assertEquals(List.of(), retried);
        assertEquals(List.of("BACKCHANNEL_LOGOUT_GIVEN_UP user-1 given up at attempt 1: answered " + status
                + ", which a retry would not change"), audit.lines);
        assertEquals(1, arrivedAt(path).size());
        assertEquals(List.of(), arrivedAt(path + "-landing"), "the Location was not followed");
    }

    /** What the receiver would answer again (it could not validate the token, or answered oddly) is final. */
    @ParameterizedTest
    @ValueSource(ints = {201, 202, 205, 400, 401, 403, 404, 405, 410, 413, 415, 422, 499})
    void attemptWhenTheReceiverAnswersAnotherStatusThatWouldNotChangeThenGivenUpAtOnce(int status) {
        String path = "/final-" + status;
        STATUS.put(path, status);
        registered = uri(path);
        sender.attempt(delivery("d-" + status));
        assertEquals(List.of("d-" + status), settled);
        assertEquals(List.of(), retried);
        assertEquals(List.of("BACKCHANNEL_LOGOUT_GIVEN_UP user-1 given up at attempt 1: answered " + status
                + ", which a retry would not change"), audit.lines);
        assertEquals(1, arrivedAt(path).size());
    }

    /** A server error, a time-out of the receiver's own (408) and "call later" (429) may pass: retried. */
    @ParameterizedTest
    @ValueSource(ints = {408, 429, 500, 502, 503, 504, 599})
    void attemptWhenTheReceiverAnswersWhatMayPassThenRetried(int status) {
        String path = "/later-" + status;
        STATUS.put(path, status);
        registered = uri(path);
        sender.attempt(delivery("d-" + status));
        assertEquals(List.of(), settled);
        assertEquals(List.of("d-" + status + " answered " + status), retried);
        assertTrue(audit.lines.get(0).startsWith("BACKCHANNEL_LOGOUT_FAILED user-1 attempt 1: answered " + status
                + "; next in "), audit.lines::toString);
    }

    @Test
    void verdictByClassOfStatusAndFailure() {
        for (int status = 100; status <= 599; status++) {
            BackchannelLogoutSender.Verdict expected = status == 200 || status == 204
                    ? BackchannelLogoutSender.Verdict.DELIVERED
                    : status >= 500 || status == 408 || status == 429 ? BackchannelLogoutSender.Verdict.RETRY
                    : BackchannelLogoutSender.Verdict.FINAL;
            assertEquals(expected, BackchannelLogoutSender.verdict(status), "status " + status);
        }
        assertEquals(BackchannelLogoutSender.Verdict.RETRY,
                BackchannelLogoutSender.verdict(OutboundFailure.Kind.UNREACHABLE));
        assertEquals(BackchannelLogoutSender.Verdict.RETRY,
                BackchannelLogoutSender.verdict(OutboundFailure.Kind.TIMED_OUT));
        assertEquals(BackchannelLogoutSender.Verdict.REFUSED,
                BackchannelLogoutSender.verdict(OutboundFailure.Kind.REFUSED));
        assertEquals(BackchannelLogoutSender.Verdict.FINAL,
                BackchannelLogoutSender.verdict(OutboundFailure.Kind.MALFORMED));
        assertEquals(BackchannelLogoutSender.Verdict.FINAL,
                BackchannelLogoutSender.verdict(OutboundFailure.Kind.TOO_LARGE));
    }

    @Test
    void attemptWhenTheUriNamesAnAddressThePolicyDoesNotAdmitThenGivenUpWithoutARequest() {
        sender.outbound = admitting();
        registered = uri("/refused");
        sender.attempt(delivery("d-refused"));
        assertEquals(List.of("d-refused"), settled);
        assertEquals(List.of(), retried);
        assertEquals(List.of(), arrivedAt("/refused"));
        assertEquals(List.of("BACKCHANNEL_LOGOUT_GIVEN_UP user-1 not sent: backchannel_logout_uri " + registered
                + ": names a loopback address (127.0.0.1), which only portcullis.outbound.allowed-networks can admit"),
                audit.lines);

        sender.outbound = admitting("10.0.0.0/8");
        sender.attempt(delivery("d-elsewhere"));
        assertEquals(List.of("d-refused", "d-elsewhere"), settled);
        assertEquals(List.of(), arrivedAt("/refused"));
    }

    @Test
    void attemptWhenNothingListensThenAFailedAttemptNamingIt() throws IOException {
        int port;
        try (java.net.ServerSocket s = new java.net.ServerSocket(0, 1, java.net.InetAddress.getByName("127.0.0.1"))) {
            port = s.getLocalPort();
        }
        registered = "http://127.0.0.1:" + port + "/bc";
        sender.attempt(delivery("d-closed"));
        assertEquals(List.of(), settled);
        assertEquals(1, retried.size());
        assertTrue(retried.get(0).startsWith("d-closed not answered: " + registered + ": no connection to 127.0.0.1"),
                retried::toString);
    }

    /**
     * The sender learns of a logout queued on this instance from {@link BackchannelLogoutsQueued}, observed after the
     * queueing transaction committed (a rolled-back logout wakes nothing), and then claims at once; once stopped, it
     * starts nothing more.
     */
    @Test
    void aCommittedQueueWakesTheSenderUntilItStops() throws Exception {
        Method observer = BackchannelLogoutSender.class.getMethod("queued", BackchannelLogoutsQueued.class);
        assertTrue(Modifier.isPublic(observer.getModifiers()), "an EJB observes through a business method");
        assertEquals(TransactionPhase.AFTER_SUCCESS, observer.getParameters()[0].getAnnotation(Observes.class).during());

        List<String> started = new ArrayList<>();
        ScheduledFuture<?> poll = (ScheduledFuture<?>) Proxy.newProxyInstance(getClass().getClassLoader(),
                new Class<?>[] {ScheduledFuture.class}, (proxy, m, args) -> m.getName().equals("cancel") ? true : null);
        BackchannelLogoutSender sender = new BackchannelLogoutSender();
        sender.metrics = TestMetrics.create();
        sender.scheduler = (ManagedScheduledExecutorService) Proxy.newProxyInstance(getClass().getClassLoader(),
                new Class<?>[] {ManagedScheduledExecutorService.class}, (proxy, m, args) -> {
                    started.add(m.getName());
                    return m.getName().equals("scheduleWithFixedDelay") ? poll : null;
                });
        sender.start();
        sender.queued(new BackchannelLogoutsQueued(2));
        assertEquals(List.of("scheduleWithFixedDelay", "execute"), started, "the poll, then a claim at once");
        sender.stop();
        sender.queued(new BackchannelLogoutsQueued(1));
        assertEquals(2, started.size(), "nothing started after the stop");
    }
}
