package dev.portcullis.authorize;

import com.nimbusds.jwt.SignedJWT;
import dev.portcullis.client.Client;

/**
 * Whether a JWS was signed by one of a client's registered keys ({@code jwks} or {@code jwks_uri}). Implemented where
 * the key sets are kept ({@code token.ClientSignatures}, the same keys and fetch rules as {@code private_key_jwt}), so
 * that a request object is verified exactly as a client assertion is.
 */
public interface ClientSignatureCheck {

    /**
     * Not signed by the client: the message says why in words the client may read; {@link #detail} may add what
     * happened at a key set URL, for the log only.
     */
    final class NotSignedByClient extends Exception {
        private static final long serialVersionUID = 1L;

        private final String detail;

        public NotSignedByClient(String why, String detail) {
            super(why, null, false, false);
            this.detail = detail;
        }

        public String detail() {
            return detail;
        }
    }

    /** @throws NotSignedByClient when no registered key of {@code client} matching the header verifies {@code jwt} */
    void verify(Client client, SignedJWT jwt) throws NotSignedByClient;
}
