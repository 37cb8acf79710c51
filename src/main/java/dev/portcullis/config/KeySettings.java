package dev.portcullis.config;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Optional;

/**
 * The keys' settings. {@code encryptionKey}: the key-encryption key of private key material at rest (32 bytes;
 * empty = not configured, and then a loopback issuer gets one generated into {@code dataDir});
 * {@code previousEncryptionKeys}: earlier ones, still accepted for decryption until everything is re-encrypted.
 * {@code activationDelay}: how long a rotated-in signing key is published in the JWKS before it signs; it must exceed
 * the JWKS max-age plus {@code refreshInterval} (how often each instance re-reads the signing_keys table), so every
 * relying party and every instance knows the key before a token uses it. {@code jcaProvider}: the name of an
 * installed JCA provider for JOSE signing; empty = the default choice.
 */
public record KeySettings(Optional<byte[]> encryptionKey, List<byte[]> previousEncryptionKeys,
                          Duration activationDelay, Duration refreshInterval, Optional<String> jcaProvider,
                          Path dataDir) {

    public KeySettings {
        encryptionKey = encryptionKey.map(byte[]::clone);
        previousEncryptionKeys = previousEncryptionKeys.stream().map(byte[]::clone).toList();
    }

    static KeySettings load(PortcullisConfig.Source c) {
        Duration activationDelay = PortcullisConfig.seconds(c, "portcullis.keys.activation-delay", 900, 0, 604_800);
        Duration refreshInterval = PortcullisConfig.seconds(c, "portcullis.keys.refresh-interval", 60, 1, 3600);
        Optional<String> jcaProvider = c.getOptionalValue("portcullis.jose.jca-provider").map(String::trim)
                .filter(s -> !s.isEmpty());
        Path dataDir = PortcullisConfig.dataDir(c);
        Optional<byte[]> encryptionKey = c.getOptionalValue("portcullis.keys.encryption-key").map(String::trim)
                .filter(s -> !s.isEmpty()).map(v -> key32("portcullis.keys.encryption-key", v));
        List<byte[]> previous = new ArrayList<>();
        for (String v : c.getOptionalValue("portcullis.keys.previous-encryption-keys").orElse("").split(",")) {
            if (!v.isBlank()) {
                previous.add(key32("portcullis.keys.previous-encryption-keys", v.trim()));
            }
        }
        return new KeySettings(encryptionKey, previous, activationDelay, refreshInterval, jcaProvider, dataDir);
    }

    /** The key-encryption key (32 bytes), a copy; empty = not configured. */
    @Override
    public Optional<byte[]> encryptionKey() {
        return encryptionKey.map(byte[]::clone);
    }

    /** Earlier key-encryption keys, copies. */
    @Override
    public List<byte[]> previousEncryptionKeys() {
        return previousEncryptionKeys.stream().map(byte[]::clone).toList();
    }

    /** Never prints a key. */
    @Override
    public String toString() {
        return "KeySettings[encryptionKey=" + (encryptionKey.isPresent() ? "(set)" : "(unset)")
                + ", previousEncryptionKeys=" + previousEncryptionKeys.size() + ", activationDelay=" + activationDelay
                + ", refreshInterval=" + refreshInterval + ", jcaProvider=" + jcaProvider + ", dataDir=" + dataDir
                + "]";
    }

    /** A 32-byte key given as base64 (or base64url); the message never quotes the value, which is a secret. */
    private static byte[] key32(String key, String value) {
        byte[] k;
        try {
            k = value.indexOf('-') >= 0 || value.indexOf('_') >= 0 ? Base64.getUrlDecoder().decode(value)
                    : Base64.getDecoder().decode(value);
        } catch (IllegalArgumentException e) {
            throw new ConfigurationException(key, "must be base64 of 32 random bytes (openssl rand -base64 32); "
                    + "the value given is not base64");
        }
        PortcullisConfig.require(k.length == 32, key, "must be base64 of 32 random bytes (openssl rand -base64 32), "
                + "got " + k.length + " bytes");
        return k;
    }
}
