package dev.portcullis.mfa;

import com.webauthn4j.WebAuthnManager;
import com.webauthn4j.converter.AttestedCredentialDataConverter;
import com.webauthn4j.converter.util.ObjectConverter;
import com.webauthn4j.credential.CredentialRecordImpl;
import com.webauthn4j.data.AuthenticationData;
import com.webauthn4j.data.AuthenticationParameters;
import com.webauthn4j.data.PublicKeyCredentialParameters;
import com.webauthn4j.data.PublicKeyCredentialType;
import com.webauthn4j.data.RegistrationData;
import com.webauthn4j.data.RegistrationParameters;
import com.webauthn4j.data.attestation.authenticator.AttestedCredentialData;
import com.webauthn4j.data.attestation.authenticator.AuthenticatorData;
import com.webauthn4j.data.attestation.statement.COSEAlgorithmIdentifier;
import com.webauthn4j.data.attestation.statement.NoneAttestationStatement;
import com.webauthn4j.data.client.Origin;
import com.webauthn4j.data.client.challenge.Challenge;
import com.webauthn4j.data.client.challenge.DefaultChallenge;
import com.webauthn4j.server.ServerProperty;
import com.webauthn4j.verifier.exception.MaliciousCounterValueException;
import java.net.URI;
import java.util.Base64;
import java.util.List;
import java.util.Locale;

/**
 * The WebAuthn checks of a passkey ceremony, done by webauthn4j: parsing the browser's {@code PublicKeyCredential}
 * JSON, then origin, RP ID hash, challenge, user presence (and verification where asked), signature and sign
 * count. Pure: no database, so that {@link PasskeyService} can use up the challenge between parsing and verifying, and a
 * unit test can drive it with a software authenticator. Attestation statements are accepted without a trust path
 * (the pages ask for {@code none}): Portcullis does not restrict which authenticators users may register.
 */
public final class PasskeyVerifier {

    /** Longest {@code PublicKeyCredential} JSON looked at; a real one is well under 4 KiB. */
    public static final int MAX_JSON = 16_384;
    /** ES256, EdDSA, RS256: what the pages offer ({@code pubKeyCredParams}) and the only keys accepted. */
    static final List<PublicKeyCredentialParameters> ALGORITHMS = List.of(
            new PublicKeyCredentialParameters(PublicKeyCredentialType.PUBLIC_KEY, COSEAlgorithmIdentifier.ES256),
            new PublicKeyCredentialParameters(PublicKeyCredentialType.PUBLIC_KEY, COSEAlgorithmIdentifier.EdDSA),
            new PublicKeyCredentialParameters(PublicKeyCredentialType.PUBLIC_KEY, COSEAlgorithmIdentifier.RS256));

    private static final Base64.Encoder B64URL = Base64.getUrlEncoder().withoutPadding();

    private final WebAuthnManager manager;
    private final AttestedCredentialDataConverter credentialConverter;
    private final Origin origin;
    private final String rpId;

    /** A ceremony response that is refused; {@code reason} is for the audit trail, never for the page. */
    public static final class Rejected extends Exception {
        private static final long serialVersionUID = 1L;
        private final boolean signCountRegressed;

        Rejected(String reason, boolean signCountRegressed) {
            super(reason, null, false, false);
            this.signCountRegressed = signCountRegressed;
        }

        Rejected(String reason) {
            this(reason, false);
        }

        /** The authenticator's counter did not increase: the key may have been cloned. */
        public boolean signCountRegressed() {
            return signCountRegressed;
        }
    }

    /** A parsed registration response and the challenge it claims to answer (not yet checked). */
    public record Registration(RegistrationData data, String challenge) {
    }

    /** A parsed assertion, its credential id (base64url) and the challenge it claims to answer (not yet checked). */
    public record Assertion(AuthenticationData data, String credentialId, String challenge) {
    }

    /** A verified new credential: its id (base64url), the serialised public key and its first sign count. */
    public record NewCredential(String credentialId, String publicKey, long signCount) {
    }

    /** A verified assertion: the authenticator's new sign count and whether it verified the user (UV flag). */
    public record Verified(long signCount, boolean userVerified) {
    }

    /** The relying party of {@code issuer}: RP ID = its host, origin = its scheme, host and port. */
    public PasskeyVerifier(URI issuer) {
        ObjectConverter converter = new ObjectConverter();
        this.manager = WebAuthnManager.createNonStrictWebAuthnManager(converter);
        this.credentialConverter = new AttestedCredentialDataConverter(converter);
        this.rpId = issuer.getHost();
        this.origin = new Origin(origin(issuer));
    }

    /** The issuer's web origin as a browser writes it into client data: scheme, host, and port unless default. */
    static String origin(URI issuer) {
        String scheme = issuer.getScheme().toLowerCase(Locale.ROOT);
        int port = issuer.getPort();
        boolean defaultPort = port == -1 || port == 443 && scheme.equals("https") || port == 80 && scheme.equals("http");
        return scheme + "://" + issuer.getHost() + (defaultPort ? "" : ":" + port);
    }

    public String rpId() {
        return rpId;
    }

    public Registration parseRegistration(String json) throws Rejected {
        checkSize(json);
        try {
            RegistrationData data = manager.parseRegistrationResponseJSON(json);
            return new Registration(data, challengeOf(data.getCollectedClientData() == null ? null
                    : data.getCollectedClientData().getChallenge()));
        } catch (RuntimeException e) {
            throw new Rejected("malformed registration response: " + e.getClass().getSimpleName());
        }
    }

    public Assertion parseAssertion(String json) throws Rejected {
        checkSize(json);
        try {
            AuthenticationData data = manager.parseAuthenticationResponseJSON(json);
            if (data.getCredentialId() == null || data.getCredentialId().length == 0) {
                throw new Rejected("assertion without a credential id");
            }
            return new Assertion(data, B64URL.encodeToString(data.getCredentialId()),
                    challengeOf(data.getCollectedClientData() == null ? null
                            : data.getCollectedClientData().getChallenge()));
        } catch (RuntimeException e) {
            throw new Rejected("malformed assertion: " + e.getClass().getSimpleName());
        }
    }

    /**
     * Verifies a registration against the challenge it was given (already used up by the caller). User verification
     * is preferred, not required, so a security key without a PIN can still be a second factor.
     */
    public NewCredential verifyRegistration(Registration r) throws Rejected {
        try {
            RegistrationData data = manager.verify(r.data(), new RegistrationParameters(
                    server(r.challenge()), ALGORITHMS, false, true));
            AttestedCredentialData attested = data.getAttestationObject().getAuthenticatorData()
                    .getAttestedCredentialData();
            return new NewCredential(B64URL.encodeToString(attested.getCredentialId()),
                    Base64.getEncoder().encodeToString(credentialConverter.convert(attested)),
                    data.getAttestationObject().getAuthenticatorData().getSignCount());
        } catch (RuntimeException e) {
            throw new Rejected("registration refused: " + e.getClass().getSimpleName());
        }
    }

    /**
     * Verifies an assertion with the stored public key and sign count. A counter that does not increase (when
     * either is non-zero) is refused with {@link Rejected#signCountRegressed()}.
     */
    public Verified verifyAssertion(Assertion a, String publicKey, long storedSignCount,
                                    boolean userVerificationRequired) throws Rejected {
        try {
            AttestedCredentialData attested = credentialConverter.convert(Base64.getDecoder().decode(publicKey));
            CredentialRecordImpl record = new CredentialRecordImpl(new NoneAttestationStatement(), null, null, null,
                    storedSignCount, attested, null, null, null, null);
            AuthenticationData data = manager.verify(a.data(), new AuthenticationParameters(server(a.challenge()),
                    record, List.of(attested.getCredentialId()), userVerificationRequired, true));
            AuthenticatorData<?> auth = data.getAuthenticatorData();
            return new Verified(auth.getSignCount(), auth.isFlagUV());
        } catch (MaliciousCounterValueException e) {
            throw new Rejected("sign count did not increase (stored " + storedSignCount + "): cloned authenticator?",
                    true);
        } catch (RuntimeException e) {
            throw new Rejected("assertion refused: " + e.getClass().getSimpleName());
        }
    }

    private ServerProperty server(String challenge) {
        Challenge c = new DefaultChallenge(Base64.getUrlDecoder().decode(challenge));
        return ServerProperty.builder().origin(origin).rpId(rpId).challenge(c).build();
    }

    private static String challengeOf(Challenge c) throws Rejected {
        if (c == null || c.getValue() == null || c.getValue().length < 16 || c.getValue().length > 64) {
            throw new Rejected("no usable challenge in the client data");
        }
        return B64URL.encodeToString(c.getValue());
    }

    private static void checkSize(String json) throws Rejected {
        if (json == null || json.isEmpty() || json.length() > MAX_JSON) {
            throw new Rejected("no response, or one over " + MAX_JSON + " characters");
        }
    }
}
