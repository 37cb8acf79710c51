package dev.portcullis.token;

import dev.portcullis.audit.AuditEvent;
import dev.portcullis.audit.AuditLog;
import dev.portcullis.client.Client;
import dev.portcullis.client.ClientAuthMethods;
import dev.portcullis.client.ClientRepository;
import dev.portcullis.protocol.OAuthException;
import dev.portcullis.protocol.ProtocolParameters;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.util.Base64;
import java.util.Optional;

/**
 * Client authentication at the token, revocation and introspection endpoints (RFC 6749 2.3). The rules depend on
 * the client's registered {@code token_endpoint_auth_method}, never on the body format:
 * <ul>
 * <li>{@code client_secret_basic}: HTTP Basic with form-url-encoded id and secret (RFC 6749 2.3.1) only;
 * {@code client_secret_post}: {@code client_secret} in the body only; a confidential client that chose neither
 * (registered without the field) may use either;</li>
 * <li>{@code private_key_jwt}: a client assertion (RFC 7523 2.2, {@link ClientAssertionVerifier}) only, its {@code jti}
 * spent at once;</li>
 * <li>{@code none} (public client): identifies with {@code client_id} in the body and sends no credentials;</li>
 * <li>two methods at once: {@code invalid_request}.</li>
 * </ul>
 * Failures are {@code invalid_client} (401, with {@code WWW-Authenticate: Basic} when Basic was tried) and are
 * audited. The secret check is one SHA-256 and a constant-time compare, against the previous secret too during a
 * rotation's overlap.
 */
@ApplicationScoped
public class ClientAuthenticator {

    /** Credentials from an {@code Authorization: Basic} header, already form-url-decoded. */
    record BasicCredentials(String clientId, String secret) {
    }

    private static final int MAX_HEADER = 4096;

    @Inject
    ClientRepository clients;

    @Inject
    AuditLog audit;

    @Inject
    ClientAssertionVerifier assertions;

    @Inject
    ClientAssertionJtiRepository jtis;

    @Inject
    Clock clock;

    /**
     * Authenticates the client of a request and returns it.
     *
     * @param params              the request's protocol parameters ({@code client_id}, {@code client_secret})
     * @param authorizationHeader the raw {@code Authorization} header, or null
     * @param ip                  the caller's address, for the audit log
     * @param endpointPath        the endpoint's path ({@code /oauth/token}), which an assertion's aud may name
     * @throws OAuthException invalid_client (401) or invalid_request (400)
     */
    public Client authenticate(ProtocolParameters params, String authorizationHeader, String ip,
                               String endpointPath) {
        Optional<BasicCredentials> basic;
        try {
            basic = parseAuthorization(authorizationHeader);
        } catch (OAuthException e) {
            audit.failure(AuditEvent.Type.CLIENT_AUTH_FAILURE, null, null, ip, e.description());
            throw e;
        }
        Optional<String> bodyId = params.get("client_id");
        Optional<String> bodySecret = params.get("client_secret");
        boolean usedBasic = basic.isPresent();

        Optional<String> assertionType = params.get("client_assertion_type");
        Optional<String> assertion = params.get("client_assertion");
        boolean usedAssertion = assertionType.isPresent() || assertion.isPresent();
        if ((usedBasic && bodySecret.isPresent()) || (usedAssertion && (usedBasic || bodySecret.isPresent()))) {
            throw OAuthException.invalidRequest(
                    "Use one client authentication method: HTTP Basic, client_secret or client_assertion");
        }
        if (usedAssertion) {
            return authenticateByAssertion(bodyId, assertionType, assertion, ip, endpointPath);
        }
        if (usedBasic && bodyId.isPresent() && !bodyId.get().equals(basic.get().clientId())) {
            throw OAuthException.invalidRequest("client_id in the body differs from the one in the Authorization header");
        }
        String clientId = usedBasic ? basic.get().clientId() : bodyId.orElse(null);
        if (clientId == null) {
            throw fail(null, ip,
                    "Client authentication required: send client_id (and the secret of a confidential client)");
        }
        Optional<String> secret = usedBasic ? Optional.of(basic.get().secret()) : bodySecret;
        Client client = clients.findCached(clientId).orElse(null);
        Instant now = clock.instant();
        String refusal = refusal(client, usedBasic, secret, now);
        if (refusal != null) {
            // a refusal is decided on the row as it is now: the cached copy may predate a change made on another
            // instance, such as a secret rotated a moment ago
            client = clients.find(clientId).orElse(null);
            refusal = refusal(client, usedBasic, secret, now);
        }
        if (refusal != null) {
            throw fail(clientId, ip, refusal);
        }
        return client;
    }

    /** Why {@code client} does not authenticate with these credentials, or null when it does. */
    private static String refusal(Client client, boolean usedBasic, Optional<String> secret, Instant now) {
        if (client == null) {
            return "Unknown client";
        }
        if (!client.enabled()) {
            return "The client is disabled";
        }
        if (!client.confidential()) {
            return usedBasic || secret.isPresent() ? "This is a public client: it must not send a client secret" : null;
        }
        if (ClientAuthMethods.PRIVATE_KEY_JWT.equals(client.authMethod())) {
            return "This client authenticates with private_key_jwt (client_assertion)";
        }
        if (secret.isEmpty()) {
            return "Client authentication required: this client is confidential";
        }
        if (client.authMethodChosen() && usedBasic != ClientAuthMethods.CLIENT_SECRET_BASIC.equals(client.authMethod())) {
            return "This client is registered for " + client.authMethod();
        }
        return client.secretMatches(secret.get(), now) ? null : "Client authentication failed";
    }

    /**
     * private_key_jwt: the assertion names its client ({@code iss}); a {@code client_id} sent as well must be the same.
     * The checks run on the cached client and, when they refuse, once more on the row as it is now (keys or method
     * changed on another instance); only then is the {@code jti} spent.
     */
    private Client authenticateByAssertion(Optional<String> bodyId, Optional<String> type, Optional<String> assertion,
                                           String ip, String endpointPath) {
        if (!type.filter(ClientAssertionVerifier.ASSERTION_TYPE::equals).isPresent() || assertion.isEmpty()) {
            throw fail(bodyId.orElse(null), ip, "client_assertion_type must be " + ClientAssertionVerifier.ASSERTION_TYPE
                    + ", with client_assertion");
        }
        String clientId;
        try {
            clientId = ClientAssertionVerifier.claimedIssuer(assertion.get());
        } catch (ClientAssertionVerifier.Refused e) {
            throw fail(bodyId.orElse(null), ip, e.getMessage(), e.detail());
        }
        if (clientId == null || clientId.isEmpty() || clientId.length() > 64) {
            throw fail(bodyId.orElse(null), ip, "client_assertion: iss must be the client id");
        }
        if (bodyId.isPresent() && !bodyId.get().equals(clientId)) {
            throw fail(bodyId.get(), ip, "client_id differs from the client_assertion's iss");
        }
        Client client = clients.findCached(clientId).orElse(null);
        ClientAssertionVerifier.Checked checked;
        try {
            checked = checkAssertion(client, assertion.get(), endpointPath);
        } catch (ClientAssertionVerifier.Refused first) {
            client = clients.find(clientId).orElse(null);
            try {
                checked = checkAssertion(client, assertion.get(), endpointPath);
            } catch (ClientAssertionVerifier.Refused again) {
                // the first reason: a second look at a key set URL within the minute only says it was just tried
                throw fail(clientId, ip, first.getMessage(), first.detail());
            }
        }
        if (!jtis.use(clientId, checked.jti(), checked.expiresAt())) {
            throw fail(clientId, ip, "client_assertion was used before (its jti)");
        }
        return client;
    }

    private ClientAssertionVerifier.Checked checkAssertion(Client client, String assertion, String endpointPath)
            throws ClientAssertionVerifier.Refused {
        if (client == null) {
            throw new ClientAssertionVerifier.Refused("Unknown client");
        }
        if (!client.enabled()) {
            throw new ClientAssertionVerifier.Refused("The client is disabled");
        }
        if (!ClientAuthMethods.PRIVATE_KEY_JWT.equals(client.authMethod())) {
            throw new ClientAssertionVerifier.Refused("This client is registered for " + client.authMethod()
                    + ", not private_key_jwt");
        }
        return assertions.check(client, assertion, endpointPath);
    }

    private OAuthException fail(String clientId, String ip, String description) {
        return fail(clientId, ip, description, description);
    }

    /** invalid_client with {@code description}; the audit trail gets {@code detail}, which may say more. */
    private OAuthException fail(String clientId, String ip, String description, String detail) {
        audit.failure(AuditEvent.Type.CLIENT_AUTH_FAILURE, clientId, null, ip, detail);
        return OAuthException.invalidClient(description);
    }

    /**
     * The client credentials of an {@code Authorization} header: empty when there is none; invalid_client (with a
     * Basic challenge) when it is not well-formed Basic. Per RFC 6749 2.3.1 both parts are form-url-encoded before
     * base64, so they are decoded here ({@code +} is a space, {@code %3A} a colon).
     */
    static Optional<BasicCredentials> parseAuthorization(String header) {
        if (header == null || header.isBlank()) {
            return Optional.empty();
        }
        if (header.length() > MAX_HEADER || !header.regionMatches(true, 0, "Basic ", 0, 6)) {
            throw OAuthException.invalidClient("Unsupported Authorization scheme; use HTTP Basic or client_secret");
        }
        String decoded;
        try {
            decoded = new String(Base64.getDecoder().decode(header.substring(6).trim()), StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            throw malformedBasic();
        }
        int colon = decoded.indexOf(':');
        if (colon <= 0) {
            throw malformedBasic();
        }
        String id = formDecode(decoded.substring(0, colon));
        String secret = formDecode(decoded.substring(colon + 1));
        if (id.isEmpty() || secret.isEmpty() || hasControl(id) || hasControl(secret)) {
            throw malformedBasic();
        }
        return Optional.of(new BasicCredentials(id, secret));
    }

    private static String formDecode(String s) {
        try {
            return URLDecoder.decode(s, StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            throw malformedBasic();
        }
    }

    private static boolean hasControl(String s) {
        return s.chars().anyMatch(c -> c < 0x20 || c == 0x7f || c == 0xFFFD);
    }

    private static OAuthException malformedBasic() {
        return OAuthException.invalidClient("Malformed HTTP Basic credentials");
    }
}
