package dev.portcullis.client;

import dev.portcullis.crypto.Secrets;
import java.time.Instant;
import java.util.List;

/** Client entities for plain unit tests (the constructor is package-private). */
public final class TestClients {

    private TestClients() {
    }

    public static Client confidential(String scopes, String... redirectUris) {
        return new Client("conf-1", "Confidential App", true, List.of(redirectUris), List.of(), scopes, false,
                Instant.EPOCH);
    }

    public static Client publicClient(String scopes, String... redirectUris) {
        return new Client("pub-1", "Public App", false, List.of(redirectUris), List.of(), scopes, false,
                Instant.EPOCH);
    }

    /** A confidential client whose secret is {@code secret}. */
    public static Client confidentialWithSecret(String secret, String scopes, String... redirectUris) {
        Client c = confidential(scopes, redirectUris);
        c.replaceSecretHash(Secrets.hash(secret), Instant.EPOCH);
        return c;
    }

    /** A confidential client that may use only {@code grantTypes}. */
    public static Client confidentialWithGrantTypes(String scopes, List<String> grantTypes, String... redirectUris) {
        Client c = confidential(scopes, redirectUris);
        c.changeGrantTypes(GrantTypes.check(grantTypes, true), Instant.EPOCH);
        return c;
    }

    /** A public client an administrator has disabled. */
    public static Client disabledPublicClient(String scopes, String... redirectUris) {
        Client c = publicClient(scopes, redirectUris);
        c.changeEnabled(false, Instant.EPOCH);
        return c;
    }

    /** A private_key_jwt client with the inline key set {@code jwks} (checked as at registration). */
    public static Client privateKeyJwt(String clientId, String jwks) {
        Client c = new Client(clientId, "Backend", true, List.of("https://backend.example.com/cb"), List.of(), "openid",
                false, Instant.EPOCH);
        c.changeAuthentication(ClientAuthMethods.PRIVATE_KEY_JWT, ClientJwksRules.checkJwks(jwks), null, Instant.EPOCH);
        return c;
    }

    /** A private_key_jwt client whose keys are at {@code jwksUri}. */
    public static Client privateKeyJwtAt(String clientId, String jwksUri) {
        Client c = new Client(clientId, "Backend", true, List.of("https://backend.example.com/cb"), List.of(), "openid",
                false, Instant.EPOCH);
        c.changeAuthentication(ClientAuthMethods.PRIVATE_KEY_JWT, null, ClientJwksRules.checkJwksUri(jwksUri),
                Instant.EPOCH);
        return c;
    }

    /** A confidential client registered for {@code method} (a secret method) with {@code secret}. */
    public static Client withSecretMethod(String method, String secret) {
        Client c = confidentialWithSecret(secret, "openid", "https://app.example.com/cb");
        c.changeAuthentication(method, null, null, Instant.EPOCH);
        return c;
    }

    /** A confidential client whose secret {@code previous} was rotated out to {@code current}, kept until {@code until}. */
    public static Client rotated(String previous, String current, Instant until) {
        Client c = confidentialWithSecret(previous, "openid", "https://app.example.com/cb");
        c.replaceSecretHash(Secrets.hash(current), until, Instant.EPOCH);
        return c;
    }

    /** The event a disabling of {@code clientId} fires (its constructor is package-private). */
    public static ClientAccessEnded accessEnded(String clientId) {
        return new ClientAccessEnded(clientId);
    }
}
