package dev.portcullis.token;

import dev.portcullis.audit.AuditEvent;
import dev.portcullis.audit.AuditLog;
import dev.portcullis.client.Client;
import dev.portcullis.client.ClientRepository;
import dev.portcullis.protocol.OAuthException;
import dev.portcullis.protocol.ProtocolParameters;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Optional;

/**
 * Client authentication at the token, revocation and introspection endpoints (RFC 6749 2.3). The rules depend on
 * the client's Confidential flag, never on the body format:
 * <ul>
 * <li>confidential client: must authenticate with its secret, either {@code client_secret_basic} (HTTP Basic with
 * form-url-encoded id and secret, RFC 6749 2.3.1) or {@code client_secret_post} ({@code client_secret} in the
 * body);</li>
 * <li>public client: identifies with {@code client_id} in the body and sends no secret ({@code none}); a secret
 * from a public client is {@code invalid_client};</li>
 * <li>both methods at once: {@code invalid_request}.</li>
 * </ul>
 * Failures are {@code invalid_client} (401, with {@code WWW-Authenticate: Basic} when Basic was tried) and are
 * audited. The secret check is one SHA-256 and a constant-time compare.
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

    /**
     * Authenticates the client of a request and returns it.
     *
     * @param params              the request's protocol parameters ({@code client_id}, {@code client_secret})
     * @param authorizationHeader the raw {@code Authorization} header, or null
     * @param ip                  the caller's address, for the audit log
     * @throws OAuthException invalid_client (401) or invalid_request (400)
     */
    public Client authenticate(ProtocolParameters params, String authorizationHeader, String ip) {
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

        if (usedBasic && bodySecret.isPresent()) {
            throw OAuthException.invalidRequest("Use one client authentication method: HTTP Basic or client_secret");
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
        String refusal = refusal(client, usedBasic, secret);
        if (refusal != null) {
            // a refusal is decided on the row as it is now: the cached copy may predate a change made on another
            // instance, such as a secret rotated a moment ago
            client = clients.find(clientId).orElse(null);
            refusal = refusal(client, usedBasic, secret);
        }
        if (refusal != null) {
            throw fail(clientId, ip, refusal);
        }
        return client;
    }

    /** Why {@code client} does not authenticate with these credentials, or null when it does. */
    private static String refusal(Client client, boolean usedBasic, Optional<String> secret) {
        if (client == null) {
            return "Unknown client";
        }
        if (!client.enabled()) {
            return "The client is disabled";
        }
        if (!client.confidential()) {
            return usedBasic || secret.isPresent() ? "This is a public client: it must not send a client secret" : null;
        }
        if (secret.isEmpty()) {
            return "Client authentication required: this client is confidential";
        }
        return client.secretMatches(secret.get()) ? null : "Client authentication failed";
    }

    private OAuthException fail(String clientId, String ip, String description) {
        audit.failure(AuditEvent.Type.CLIENT_AUTH_FAILURE, clientId, null, ip, description);
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
