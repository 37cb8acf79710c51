package dev.portcullis.token;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.JWSVerifier;
import com.nimbusds.jose.crypto.factories.DefaultJWSVerifierFactory;
import com.nimbusds.jose.jwk.JWK;
import com.nimbusds.jose.jwk.JWKMatcher;
import com.nimbusds.jose.jwk.JWKSelector;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.KeyConverter;
import com.nimbusds.jwt.SignedJWT;
import dev.portcullis.authorize.ClientSignatureCheck;
import dev.portcullis.client.Client;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.security.Key;
import java.security.PublicKey;
import java.util.List;

/**
 * Verifies a JWS with a client's registered keys, for client assertions ({@link ClientAssertionVerifier}) and request
 * objects ({@link ClientSignatureCheck}): the keys that match the header ({@code kid}, {@code alg}); a header whose
 * key is not among the kept keys of a {@code jwks_uri} may refetch them once ({@link ClientJwksSource}'s bounds).
 */
@ApplicationScoped
public class ClientSignatures implements ClientSignatureCheck {

    /** How a verification ended. */
    enum Outcome { VERIFIED, NO_MATCHING_KEY, NOT_VERIFIED }

    private static final DefaultJWSVerifierFactory VERIFIERS = new DefaultJWSVerifierFactory();

    @Inject
    ClientJwksSource keySets;

    @Override
    public void verify(Client client, SignedJWT jwt) throws NotSignedByClient {
        if (client.jwks() == null && client.jwksUri() == null) {
            throw new NotSignedByClient("the client has no registered keys (jwks or jwks_uri)", null);
        }
        try {
            switch (verify(keySets, client, jwt)) {
                case VERIFIED:
                    return;
                case NO_MATCHING_KEY:
                    throw new NotSignedByClient("no registered key of the client matches its header (kid, alg)", null);
                default:
                    throw new NotSignedByClient("the signature does not verify with the client's keys", null);
            }
        } catch (ClientJwksSource.Unavailable e) {
            throw new NotSignedByClient("the client's key set could not be used", e.getMessage());
        }
    }

    static Outcome verify(ClientJwksSource keySets, Client client, SignedJWT jwt) throws ClientJwksSource.Unavailable {
        List<JWK> candidates = candidates(keySets.keysOf(client, false), jwt.getHeader());
        if (candidates.isEmpty() && client.jwksUri() != null) {
            candidates = candidates(keySets.keysOf(client, true), jwt.getHeader());
        }
        if (candidates.isEmpty()) {
            return Outcome.NO_MATCHING_KEY;
        }
        for (JWK key : candidates) {
            if (verifies(jwt, key)) {
                return Outcome.VERIFIED;
            }
        }
        return Outcome.NOT_VERIFIED;
    }

    private static List<JWK> candidates(JWKSet keys, JWSHeader header) {
        return new JWKSelector(JWKMatcher.forJWSHeader(header)).select(keys);
    }

    private static boolean verifies(SignedJWT jwt, JWK key) {
        try {
            for (Key k : KeyConverter.toJavaKeys(List.of(key))) {
                if (k instanceof PublicKey) {
                    JWSVerifier verifier = VERIFIERS.createJWSVerifier(jwt.getHeader(), k);
                    if (jwt.verify(verifier)) {
                        return true;
                    }
                }
            }
            return false;
        } catch (JOSEException | RuntimeException e) {
            return false;
        }
    }
}
