package dev.portcullis.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import dev.portcullis.admin.Refusal;
import dev.portcullis.audit.Actor;
import dev.portcullis.config.AddressRange;
import dev.portcullis.config.ClientSettings;
import dev.portcullis.outbound.OutboundAddressPolicy;
import dev.portcullis.outbound.OutboundHttp;
import dev.portcullis.testing.FiredEvents;
import dev.portcullis.testing.MutableClock;
import dev.portcullis.testing.RecordingAudit;
import jakarta.enterprise.event.Event;
import jakarta.enterprise.event.NotificationOptions;
import jakarta.enterprise.util.TypeLiteral;
import java.lang.annotation.Annotation;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletionStage;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The rules of token_endpoint_auth_method, keys and secrets at registration, in a patch and at a rotation. */
class ClientServiceTest {

    private static final Actor ADMIN = Actor.adminToken("192.0.2.1");
    private static String jwks;

    private final Map<String, Client> rows = new HashMap<>();
    private final RecordingAudit audit = new RecordingAudit();
    private final MutableClock clock = new MutableClock(Instant.ofEpochSecond(1_800_000_000L));
    private ClientService service;

    @BeforeAll
    static void keys() throws Exception {
        jwks = new JWKSet(new RSAKeyGenerator(2048).keyID("k").generate().toPublicJWK()).toString();
    }

    @BeforeEach
    void wire() {
        service = new ClientService();
        service.clients = new ClientRepository() {
            @Override
            public Optional<Client> findForChange(String clientId) {
                return Optional.ofNullable(rows.get(clientId));
            }

            @Override
            public void add(Client client) {
                rows.put(client.clientId(), client);
            }
        };
        service.clientSettings = new ClientSettings(false);
        service.outbound = outboundAdmitting();
        service.clock = clock;
        service.audit = audit;
        service.accessEnded = new FiredEvents<>();
    }

    private ClientService.Registration.Builder backend() {
        return ClientService.Registration.builder().name("Backend")
                .redirectUris(List.of("https://backend.example.com/cb")).scopes("openid");
    }

    private static OutboundHttp outboundAdmitting(String... networks) {
        return new OutboundHttp(new OutboundAddressPolicy(Arrays.stream(networks).map(AddressRange::parse).toList()),
                null);
    }

    private static LogoutNotifications.Change backchannel(String uri) {
        return new LogoutNotifications.Change(Optional.of(uri), null, null, null);
    }

    /** Each class of address that is never a relying party's, in every spelling a parser might read differently. */
    static final List<String> NOT_REACHED = List.of("http://127.0.0.1:8081/k", "http://127.8.9.10/k",
            "http://[::1]:8081/k", "http://localhost:8081/k", "https://[::ffff:127.0.0.1]/k", "https://[::127.0.0.1]/k",
            "https://[64:ff9b::a9fe:a9fe]/k", "https://[2002:7f00:1::]/k", "https://0.0.0.0/k", "https://[::]/k",
            "https://169.254.169.254/latest/meta-data/", "https://[fe80::1]/k", "https://224.0.0.1/k",
            "https://[ff02::1]/k", "https://255.255.255.255/k", "https://100.100.100.200/k", "https://[fd00:ec2::254]/k",
            "http://2130706433/k", "http://0x7f000001/k", "http://0x7f.0.0.1/k", "http://0177.0.0.1/k",
            "http://127.1/k", "http://127.0.0.01/k", "http://017700000001/k", "https://keys.example.com.2130706433/k",
            "https://[fe80::1%25eth0]/k", "https://[fe80::1%eth0]/k", "https://user@keys.example.com/k",
            "https://keys.example.com@127.0.0.1/k");

    @Test
    void registerWhenAnOutboundUriReachesAnAddressThatIsNeverARelyingPartysThenRefusedNamingTheField() {
        for (String uri : NOT_REACHED) {
            Refusal keys = assertThrows(Refusal.class, () -> service.register(backend()
                    .authMethod("private_key_jwt").jwksUri(uri).build(), ADMIN), uri);
            assertTrue(keys.getMessage().startsWith("jwks_uri: "), keys::getMessage);
            Refusal logout = assertThrows(Refusal.class, () -> service.register(backend()
                    .logout(backchannel(uri)).build(), ADMIN), uri);
            assertTrue(logout.getMessage().startsWith("backchannel_logout_uri: "), logout::getMessage);
        }
        assertTrue(rows.isEmpty(), "nothing registered");
        Refusal named = assertThrows(Refusal.class, () -> service.register(backend()
                .logout(backchannel("https://169.254.169.254/latest")).build(), ADMIN));
        assertEquals("backchannel_logout_uri: names a link-local address (169.254.169.254), which only "
                + "portcullis.outbound.allowed-networks can admit", named.getMessage());
        Refusal resolved = assertThrows(Refusal.class, () -> service.register(backend()
                .logout(backchannel("http://localhost/bc")).build(), ADMIN));
        assertTrue(resolved.getMessage().startsWith("backchannel_logout_uri: has a host that resolves to a loopback "
                + "address"), resolved::getMessage);
    }

    @Test
    void registerWhenAllowedNetworksAreSetThenExactlyThoseAreReached() {
        service.outbound = outboundAdmitting("127.0.0.0/8", "::1/128");
        for (String uri : List.of("http://127.0.0.1:8081/bc", "http://localhost/bc", "http://[::1]:8081/bc")) {
            assertEquals(uri, service.register(backend().logout(backchannel(uri)).build(), ADMIN).client()
                    .logoutNotifications().backchannelUri());
        }
        for (String uri : List.of("https://10.1.2.3/bc", "https://169.254.169.254/bc", "https://[fe80::1]/bc")) {
            Refusal e = assertThrows(Refusal.class, () -> service.register(backend()
                    .logout(backchannel(uri)).build(), ADMIN), uri);
            assertTrue(e.getMessage().contains("outside portcullis.outbound.allowed-networks"), e::getMessage);
        }
        for (String uri : List.of("http://2130706433/bc", "https://[::1%25lo]/bc", "http://u@127.0.0.1/bc")) {
            assertThrows(Refusal.class, () -> service.register(backend().logout(backchannel(uri)).build(),
                    ADMIN), "what no parser may read two ways stays refused: " + uri);
        }
    }

    @Test
    void registerWhenPrivateRangesOrANameWithoutAddressThenAccepted() {
        for (String uri : List.of("https://10.1.2.3/bc", "https://172.16.0.9/bc", "https://192.168.1.20:8443/bc",
                "https://[fd12:3456::1]/bc", "https://rp.invalid/bc")) {
            assertEquals(uri, service.register(backend().logout(backchannel(uri)).build(), ADMIN).client()
                    .logoutNotifications().backchannelUri(), uri);
        }
    }

    @Test
    void patchWhenAStoredUriIsRefusedSinceThenOtherChangesStillApplyAndANewSuchUriIsRefused() {
        service.outbound = outboundAdmitting("127.0.0.0/8");
        String id = service.register(backend().logout(backchannel("http://127.0.0.1:8081/bc")).build(), ADMIN)
                .client().clientId();
        service.outbound = outboundAdmitting();
        service.update(id, ClientService.ClientPatch.patch().enabled(false).build(), ADMIN).orElseThrow();
        assertFalse(rows.get(id).enabled(), "disabling a client never depends on its URIs");
        assertThrows(Refusal.class, () -> service.update(id, ClientService.ClientPatch.patch()
                .logout(backchannel("http://127.0.0.1:8082/bc")).build(), ADMIN));
        assertEquals("http://127.0.0.1:8081/bc", rows.get(id).logoutNotifications().backchannelUri());
    }

    @Test
    void registerWhenPrivateKeyJwtThenConfidentialWithoutASecret() {
        var r = service.register(backend().authMethod("private_key_jwt").jwks(jwks).build(), ADMIN);
        assertTrue(r.secret().isEmpty());
        assertTrue(r.client().confidential());
        assertEquals("private_key_jwt", r.client().authMethod());
        assertFalse(r.client().secretMatches("", clock.instant()));
        assertThrows(Refusal.class, () -> service.rotateSecret(r.client().clientId(), null, ADMIN));
    }

    @Test
    void registerWhenTheMethodAndTheTypeDisagreeOrKeysAreMisplacedThenRefused() {
        assertThrows(Refusal.class, () -> service.register(backend().confidential(true).authMethod("none")
                .build(), ADMIN));
        assertThrows(Refusal.class, () -> service.register(backend().authMethod("private_key_jwt").build(),
                ADMIN));
        assertThrows(Refusal.class, () -> service.register(backend().authMethod("private_key_jwt").jwks(jwks)
                .jwksUri("https://keys.example.com/jwks").build(), ADMIN));
        assertThrows(Refusal.class, () -> service.register(backend().authMethod("client_secret_post")
                .jwks(jwks).build(), ADMIN));
        assertTrue(rows.isEmpty(), "nothing registered");
        var none = service.register(backend().authMethod("none").build(), ADMIN);
        assertFalse(none.client().confidential(), "none named alone makes a public client");
    }

    @Test
    void patchBetweenSecretAndKeysDeletesOrIssuesTheSecret() {
        var r = service.register(backend().build(), ADMIN);
        String id = r.client().clientId();
        assertEquals("client_secret_basic", r.client().authMethod());
        assertFalse(r.client().authMethodChosen());

        var toKeys = service.update(id, ClientService.ClientPatch.patch().authMethod("private_key_jwt").jwks(jwks)
                .build(), ADMIN).orElseThrow();
        assertTrue(toKeys.secret().isEmpty());
        assertFalse(rows.get(id).secretMatches(r.secret().orElseThrow(), clock.instant()), "the secret is deleted");

        var toUri = service.update(id, ClientService.ClientPatch.patch().jwks("")
                .jwksUri("https://keys.example.com/jwks").build(), ADMIN).orElseThrow();
        assertNull(toUri.client().jwks());
        assertEquals("https://keys.example.com/jwks", toUri.client().jwksUri());

        var back = service.update(id, ClientService.ClientPatch.patch().authMethod("client_secret_post").build(),
                ADMIN).orElseThrow();
        String fresh = back.secret().orElseThrow();
        assertTrue(rows.get(id).secretMatches(fresh, clock.instant()));
        assertNull(back.client().jwksUri(), "keys go with the method");
        assertTrue(audit.lines.get(audit.lines.size() - 1).contains("new secret"), audit.lines::toString);
    }

    @Test
    void rotateWithAnOverlapKeepsThePreviousSecretUntilItEnds() {
        var r = service.register(backend().build(), ADMIN);
        String id = r.client().clientId();
        String old = r.secret().orElseThrow();
        String fresh = service.rotateSecret(id, Duration.ofHours(1), ADMIN).orElseThrow();
        Client c = rows.get(id);
        assertEquals(Optional.of(clock.instant().plus(Duration.ofHours(1))), c.previousSecretExpiresAt());
        assertTrue(c.secretMatches(old, clock.instant()) && c.secretMatches(fresh, clock.instant()));
        clock.set(clock.instant().plus(Duration.ofHours(1)));
        assertFalse(c.secretMatches(old, clock.instant()));
        assertTrue(c.secretMatches(fresh, clock.instant()));
        assertTrue(audit.lines.get(audit.lines.size() - 1).contains("valid for 3600 s"), audit.lines::toString);

        String third = service.rotateSecret(id, null, ADMIN).orElseThrow();
        assertTrue(c.previousSecretExpiresAt().isEmpty());
        assertFalse(c.secretMatches(fresh, clock.instant()), "without an overlap the old one ends at once");
        assertTrue(c.secretMatches(third, clock.instant()));
    }

    @Test
    void rotateWhenTheOverlapIsOutOfRangeThenRefusedAndNothingChanges() {
        var r = service.register(backend().build(), ADMIN);
        String id = r.client().clientId();
        for (Duration bad : List.of(Duration.ZERO, Duration.ofDays(30).plusSeconds(1))) {
            Refusal e = assertThrows(Refusal.class, () -> service.rotateSecret(id, bad, ADMIN));
            assertTrue(e.getMessage().startsWith("previous_secret_valid_for"), e.getMessage());
        }
        assertTrue(rows.get(id).secretMatches(r.secret().orElseThrow(), clock.instant()));
        assertTrue(service.rotateSecret(id, Duration.ofDays(30), ADMIN).isPresent(), "30 days is the maximum");
    }
}
