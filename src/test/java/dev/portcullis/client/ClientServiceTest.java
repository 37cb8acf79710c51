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
import dev.portcullis.config.ClientSettings;
import dev.portcullis.testing.FiredEvents;
import dev.portcullis.testing.MutableClock;
import dev.portcullis.testing.RecordingAudit;
import jakarta.enterprise.event.Event;
import jakarta.enterprise.event.NotificationOptions;
import jakarta.enterprise.util.TypeLiteral;
import java.lang.annotation.Annotation;
import java.time.Duration;
import java.time.Instant;
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
        service.clock = clock;
        service.audit = audit;
        service.accessEnded = new FiredEvents<>();
    }

    private ClientService.Registration.Builder backend() {
        return ClientService.Registration.builder().name("Backend")
                .redirectUris(List.of("https://backend.example.com/cb")).scopes("openid");
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
