package dev.portcullis.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.portcullis.testing.Admin;
import dev.portcullis.testing.Db;
import dev.portcullis.testing.Http;
import dev.portcullis.testing.PayaraProcess;
import dev.portcullis.testing.ServerTestBase;
import dev.portcullis.testing.UserAgent;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.IntSupplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Test;

/**
 * Back-channel logout delivery on two instances of one PostgreSQL database: the run's instance and a second Payara
 * Micro with the same settings and issuer. Many logouts queued at both are each delivered exactly once; a delivery the
 * second instance has claimed (its lease names that instance) and is sending when it is killed is delivered by the
 * first once the dead claim runs out, and not before.
 */
@Tag("postgres-only")
@TestMethodOrder(MethodOrderer.OrderAnnotation.class) // the second instance is killed last
class BackchannelLogoutClusterIT extends ServerTestBase {

    private static final String REDIRECT = "https://rp.example.com/cb";
    private static final String PASSWORD = "correct horse battery";

    private static PayaraProcess second;
    private static HttpServer receiver;
    /** The logout tokens received and answered 200, as their claims. */
    private static final Queue<JWTClaimsSet> accepted = new ConcurrentLinkedQueue<>();
    /** A POST that arrived, answered or not, and when (this machine's clock, which the servers' leases use too). */
    private record Arrival(long atMs, String body) {
    }

    /** Every POST that arrived, answered or not. */
    private static final Queue<Arrival> arrived = new ConcurrentLinkedQueue<>();
    /** While set, the receiver holds each request unanswered until the latch opens, then drops it. */
    private static volatile CountDownLatch hold;

    private final Admin admin = admin();

    @BeforeAll
    static void startSecondInstanceAndReceiver() throws IOException {
        receiver = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        receiver.setExecutor(java.util.concurrent.Executors.newCachedThreadPool());
        receiver.createContext("/bc", BackchannelLogoutClusterIT::receive);
        receiver.start();
        second = PayaraProcess.start("-Dportcullis.issuer=" + BASE);
    }

    @AfterAll
    static void stop() {
        if (second != null) {
            second.close();
        }
        if (receiver != null) {
            receiver.stop(0);
        }
    }

    @AfterEach
    void release() {
        CountDownLatch h = hold;
        hold = null;
        if (h != null) {
            h.countDown();
        }
    }

    private static void receive(HttpExchange exchange) throws IOException {
        long at = System.currentTimeMillis();
        String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
        arrived.add(new Arrival(at, body));
        CountDownLatch h = hold;
        if (h != null) {
            // a held request is never answered: its sender is to be killed while it waits
            try {
                h.await(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            exchange.close();
            return;
        }
        try {
            String token = Http.query("http://x/?" + body).get("logout_token");
            JWTClaimsSet claims = SignedJWT.parse(token).getJWTClaimsSet();
            exchange.sendResponseHeaders(200, -1);
            accepted.add(claims);
        } catch (Exception e) {
            exchange.sendResponseHeaders(400, -1);
        } finally {
            exchange.close();
        }
    }

    private String receiverUri() {
        return "http://127.0.0.1:" + receiver.getAddress().getPort() + "/bc";
    }

    /** A confidential client without consent whose back-channel logout URI is the receiver. */
    private Admin.TestClient client() {
        Http.Res r = admin.post("/admin/clients", "{\"client_name\":\"Cluster RP\",\"redirect_uris\":["
                + Http.q(REDIRECT) + "],\"confidential\":true,\"scopes\":\"openid\",\"skip_consent\":true,"
                + "\"backchannel_logout_uri\":" + Http.q(receiverUri()) + "}");
        assertEquals(201, r.status(), r::toString);
        return new Admin.TestClient(r.jsonString("client_id"), r.jsonString("client_secret"), REDIRECT, "Cluster RP");
    }

    /** Signs {@code user} in at the client in a new browser and redeems the code; the ID token's sid. */
    private String signIn(Admin.TestClient rp, Admin.TestUser user) throws Exception {
        UserAgent ua = new UserAgent(BASE);
        Map<String, String> p = ua.authorizeAndGetRedirectParams(rp, user, Map.of("scope", "openid"));
        Http.Res r = http().postForm("/oauth/token", Map.of("grant_type", "authorization_code", "code", p.get("code"),
                "redirect_uri", REDIRECT, "client_id", rp.clientId(), "client_secret", rp.secret()));
        assertEquals(200, r.status(), r::toString);
        return SignedJWT.parse(r.jsonString("id_token")).getJWTClaimsSet().getStringClaim("sid");
    }

    private static long delivered(Admin.TestClient rp) {
        return Db.count("SELECT COUNT(*) FROM audit_events WHERE event_type = 'BACKCHANNEL_LOGOUT_DELIVERED' "
                + "AND client_id = ?", rp.clientId());
    }

    private static long pending(Admin.TestClient rp) {
        return Db.count("SELECT COUNT(*) FROM logout_deliveries WHERE client_id = ?", rp.clientId());
    }

    private static void await(String what, Duration patience, BooleanSupplier done) {
        Instant deadline = Instant.now().plus(patience);
        while (!done.getAsBoolean()) {
            assertTrue(Instant.now().isBefore(deadline), "timed out waiting for: " + what);
            try {
                Thread.sleep(100); // polling interval of a condition with a deadline, not a synchronisation
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError(e);
            }
        }
    }

    /** The name an instance claims deliveries under, as its sender logs it at start. */
    private static String leaseOwnerOf(PayaraProcess instance) {
        Matcher m = Pattern.compile("Back-channel logouts are claimed here as ([A-Za-z0-9_-]+)")
                .matcher(instance.output());
        assertTrue(m.find(), "the instance logs its lease owner name");
        return m.group(1);
    }

    private static List<JWTClaimsSet> acceptedFor(Admin.TestClient rp) {
        return accepted.stream().filter(c -> c.getAudience().contains(rp.clientId())).toList();
    }

    @Test
    @Order(1)
    void manyLogoutsQueuedAtBothInstancesAreEachDeliveredExactlyOnce() throws Exception {
        Admin.TestClient rp = client();
        Admin admin2 = new Admin(new Http(second.base()), ADMIN_TOKEN);
        int n = 16;
        List<String> sids = new ArrayList<>();
        List<Admin.TestUser> users = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            Admin.TestUser user = admin.user(PASSWORD);
            users.add(user);
            sids.add(signIn(rp, user));
        }
        for (int i = 0; i < n; i++) {
            Admin on = i % 2 == 0 ? admin : admin2; // each instance queues half and is woken by its own
            Http.Res ended = on.delete("/admin/sessions?user=" + users.get(i).username());
            assertTrue(ended.status() == 200 || ended.status() == 204, ended::toString);
        }
        await(n + " deliveries audited", Duration.ofSeconds(60), () -> delivered(rp) >= n);
        await("the queue empty", Duration.ofSeconds(10), () -> pending(rp) == 0);
        List<JWTClaimsSet> got = acceptedFor(rp);
        Map<String, Integer> perSid = new HashMap<>();
        Map<String, Integer> perJti = new HashMap<>();
        for (JWTClaimsSet c : got) {
            perSid.merge(c.getStringClaim("sid"), 1, Integer::sum);
            perJti.merge(c.getJWTID(), 1, Integer::sum);
        }
        assertEquals(n, got.size(), () -> "one token per session: " + perSid);
        assertEquals(n, delivered(rp), "audited once each");
        assertEquals(new java.util.TreeSet<>(sids), new java.util.TreeSet<>(perSid.keySet()), "every session's sid");
        assertTrue(perSid.values().stream().allMatch(v -> v == 1), perSid::toString);
        assertTrue(perJti.values().stream().allMatch(v -> v == 1), perJti::toString);
        assertEquals(0, Db.count("SELECT COUNT(*) FROM audit_events WHERE event_type LIKE 'BACKCHANNEL_LOGOUT_%' "
                + "AND event_type <> 'BACKCHANNEL_LOGOUT_DELIVERED' AND client_id = ?", rp.clientId()),
                "no failure, no retry");
    }

    /**
     * The second instance queues the logout and, woken by it, claims and sends it at once; the receiver holds that
     * request, and the instance is killed mid-send. Its claim (a lease) runs out and the first instance delivers.
     */
    @Test
    @Order(2)
    void aDeliveryClaimedByAKilledInstanceIsDeliveredByTheOtherOnceTheClaimRunsOut() throws Exception {
        Admin.TestClient rp = client();
        Admin.TestUser user = admin.user(PASSWORD);
        String sid = signIn(rp, user);
        Admin admin2 = new Admin(new Http(second.base()), ADMIN_TOKEN);
        hold = new CountDownLatch(1);
        int arrivedBefore = arrived.size();

        Http.Res ended = admin2.delete("/admin/sessions?user=" + user.username());
        assertTrue(ended.status() == 200 || ended.status() == 204, ended::toString);
        await("the second instance's request at the receiver", Duration.ofSeconds(10),
                () -> arrived.size() > arrivedBefore);
        List<Map<String, Object>> row = Db.rows("SELECT lease_owner, lease_until FROM logout_deliveries "
                + "WHERE client_id = ?", rp.clientId());
        assertEquals(1, row.size(), row::toString);
        assertEquals(leaseOwnerOf(second), row.get(0).get("lease_owner"), "the second instance holds the lease");
        long leaseUntil = ((Number) row.get(0).get("lease_until")).longValue();
        second.kill();
        second = null;
        CountDownLatch h = hold;
        hold = null;
        h.countDown(); // from now on the receiver answers 200 at once

        IntSupplier got = () -> acceptedFor(rp).size();
        await("the first instance's delivery", Duration.ofSeconds(150), () -> delivered(rp) == 1);
        assertEquals(1, got.getAsInt(), "delivered once");
        assertEquals(sid, acceptedFor(rp).get(0).getStringClaim("sid"));
        assertEquals(0, pending(rp));
        assertEquals(2, arrived.size() - arrivedBefore, "the killed instance's attempt and the first's");
        Arrival redelivery = arrived.stream().skip(arrivedBefore + 1L).findFirst().orElseThrow();
        assertTrue(redelivery.atMs() >= leaseUntil, "the first instance waited for the lease to run out: arrived "
                + (leaseUntil - redelivery.atMs()) + " ms before it did");
        assertEquals(1, Db.count("SELECT COUNT(*) FROM audit_events WHERE event_type = 'BACKCHANNEL_LOGOUT_DELIVERED' "
                + "AND client_id = ? AND occurred_at_ms >= ? AND detail LIKE '% at attempt 2'", rp.clientId(),
                leaseUntil), "delivered after the lease, as the delivery's second attempt");
        assertEquals(0, Db.count("SELECT COUNT(*) FROM audit_events WHERE event_type = 'BACKCHANNEL_LOGOUT_FAILED' "
                + "AND client_id = ?", rp.clientId()), "the held attempt was never settled: its sender died with it");
    }
}
