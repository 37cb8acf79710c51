package dev.portcullis.testing;

import com.webauthn4j.converter.AttestationObjectConverter;
import com.webauthn4j.converter.AuthenticatorDataConverter;
import com.webauthn4j.converter.util.ObjectConverter;
import com.webauthn4j.data.attestation.AttestationObject;
import com.webauthn4j.data.attestation.authenticator.AAGUID;
import com.webauthn4j.data.attestation.authenticator.AttestedCredentialData;
import com.webauthn4j.data.attestation.authenticator.AuthenticatorData;
import com.webauthn4j.data.attestation.authenticator.EC2COSEKey;
import com.webauthn4j.data.attestation.statement.COSEAlgorithmIdentifier;
import com.webauthn4j.data.attestation.statement.NoneAttestationStatement;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.security.Signature;
import java.security.interfaces.ECPublicKey;
import java.security.spec.ECGenParameterSpec;
import java.util.Base64;

/**
 * A P-256 WebAuthn authenticator in software (attestation {@code none}, user id {@code user-1}) answering create()
 * and get() with the JSON a browser's {@code PublicKeyCredential} turns into: for unit tests of the verification and
 * for hostile-input tests that need a well-formed ceremony.
 */
public final class SoftAuthenticator {
    private final ObjectConverter converter = new ObjectConverter();
    private final KeyPair keys;
    private final byte[] credentialId = new byte[16];
    private final byte[] rpIdHash;

    public SoftAuthenticator(String rpId) throws Exception {
        KeyPairGenerator g = KeyPairGenerator.getInstance("EC");
        g.initialize(new ECGenParameterSpec("secp256r1"));
        keys = g.generateKeyPair();
        new SecureRandom().nextBytes(credentialId);
        rpIdHash = MessageDigest.getInstance("SHA-256").digest(rpId.getBytes(StandardCharsets.UTF_8));
    }

    public String credentialId() {
        return b64(credentialId);
    }

    public String create(String challenge, String origin) {
        AttestedCredentialData attested = new AttestedCredentialData(AAGUID.ZERO, credentialId,
                EC2COSEKey.create((ECPublicKey) keys.getPublic(), COSEAlgorithmIdentifier.ES256));
        byte flags = (byte) (AuthenticatorData.BIT_UP | AuthenticatorData.BIT_UV | AuthenticatorData.BIT_AT);
        byte[] attestation = new AttestationObjectConverter(converter).convertToBytes(new AttestationObject(
                new AuthenticatorData<>(rpIdHash, flags, 0, attested), new NoneAttestationStatement()));
        return "{\"id\":\"" + credentialId() + "\",\"rawId\":\"" + credentialId() + "\",\"type\":\"public-key\","
                + "\"authenticatorAttachment\":\"platform\",\"response\":{\"clientDataJSON\":\""
                + b64(clientData("webauthn.create", challenge, origin)) + "\",\"attestationObject\":\""
                + b64(attestation) + "\",\"transports\":[\"internal\"]},\"clientExtensionResults\":{}}";
    }

    public String get(String challenge, String origin, long signCount, boolean userVerified) throws Exception {
        return get(challenge, origin, signCount, userVerified, "user-1");
    }

    /** An assertion whose user handle is {@code userHandle} (a discoverable credential's owner, e.g. a user id). */
    public String get(String challenge, String origin, long signCount, boolean userVerified, String userHandle)
            throws Exception {
        byte flags = (byte) (AuthenticatorData.BIT_UP | (userVerified ? AuthenticatorData.BIT_UV : 0));
        byte[] authData = new AuthenticatorDataConverter(converter).convert(
                new AuthenticatorData<>(rpIdHash, flags, signCount));
        byte[] clientData = clientData("webauthn.get", challenge, origin);
        Signature s = Signature.getInstance("SHA256withECDSA");
        s.initSign(keys.getPrivate());
        s.update(ByteBuffer.allocate(authData.length + 32).put(authData)
                .put(MessageDigest.getInstance("SHA-256").digest(clientData)).array());
        return "{\"id\":\"" + credentialId() + "\",\"rawId\":\"" + credentialId() + "\",\"type\":\"public-key\","
                + "\"response\":{\"clientDataJSON\":\"" + b64(clientData) + "\",\"authenticatorData\":\""
                + b64(authData) + "\",\"signature\":\"" + b64(s.sign()) + "\",\"userHandle\":\""
                + b64(userHandle.getBytes(StandardCharsets.UTF_8)) + "\"},\"clientExtensionResults\":{}}";
    }

    private static byte[] clientData(String type, String challenge, String origin) {
        return ("{\"type\":\"" + type + "\",\"challenge\":\"" + challenge + "\",\"origin\":\"" + origin
                + "\",\"crossOrigin\":false}").getBytes(StandardCharsets.UTF_8);
    }

    private static String b64(byte[] b) {
        return Base64.getUrlEncoder().withoutPadding().encodeToString(b);
    }
}
