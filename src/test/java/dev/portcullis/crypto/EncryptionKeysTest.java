package dev.portcullis.crypto;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.portcullis.config.ConfigurationException;
import dev.portcullis.config.IssuerSettings;
import dev.portcullis.config.KeySettings;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class EncryptionKeysTest {

    private static final byte[] KEY_A = Base64.getDecoder().decode(EncryptionKeys.newKey());
    private static final byte[] KEY_B = Base64.getDecoder().decode(EncryptionKeys.newKey());

    @Test
    void sealedValuesOpenWithTheSameKeyAndAssociatedData() throws Exception {
        EncryptionKeys keys = new EncryptionKeys(KEY_A, List.of());
        String sealed = keys.seal("{\"d\":\"secret\"}", "rs256-1");
        assertTrue(EncryptionKeys.isSealed(sealed) && keys.isSealedUnderCurrentKey(sealed));
        assertFalse(sealed.contains("secret"));
        assertEquals("{\"d\":\"secret\"}", keys.open(sealed, "rs256-1"));
        assertNotEquals(sealed, keys.seal("{\"d\":\"secret\"}", "rs256-1"), "a fresh nonce per value");
        assertFalse(EncryptionKeys.isSealed("{\"kty\":\"RSA\"}"), "a clear JWK is not sealed");
    }

    @Test
    void aWrongKeyOrOtherAssociatedDataDoesNotOpen() {
        String sealed = new EncryptionKeys(KEY_A, List.of()).seal("value", "rs256-1");
        GeneralSecurityException e = assertThrows(GeneralSecurityException.class,
                () -> new EncryptionKeys(KEY_B, List.of()).open(sealed, "rs256-1"));
        assertTrue(e.getMessage().contains(EncryptionKeys.PREVIOUS_KEYS), e.getMessage());
        assertThrows(GeneralSecurityException.class,
                () -> new EncryptionKeys(KEY_A, List.of()).open(sealed, "rs256-2"), "bound to its row");
    }

    @Test
    void aTamperedCiphertextDoesNotOpen() {
        EncryptionKeys keys = new EncryptionKeys(KEY_A, List.of());
        String sealed = keys.seal("value", "kid");
        int last = sealed.lastIndexOf(':') + 1;
        char[] chars = sealed.toCharArray();
        for (int i = last; i < chars.length; i++) {
            char[] tampered = chars.clone();
            tampered[i] = tampered[i] == 'A' ? 'B' : 'A';
            assertThrows(GeneralSecurityException.class, () -> keys.open(new String(tampered), "kid"), "byte " + i);
        }
        assertThrows(GeneralSecurityException.class, () -> keys.open(sealed.substring(0, last + 10), "kid"));
        assertThrows(GeneralSecurityException.class, () -> keys.open(sealed.substring(0, last) + "%%%", "kid"));
        assertThrows(GeneralSecurityException.class, () -> keys.open("aes256gcm:nokekid", "kid"));
    }

    @Test
    void afterRotationOldValuesOpenWithThePreviousKeyAndNewOnesUseTheCurrent() throws Exception {
        String underA = new EncryptionKeys(KEY_A, List.of()).seal("value", "kid");
        EncryptionKeys rotated = new EncryptionKeys(KEY_B, List.of(KEY_A));
        assertEquals("value", rotated.open(underA, "kid"));
        assertFalse(rotated.isSealedUnderCurrentKey(underA), "to be re-sealed");
        String underB = rotated.seal("value", "kid");
        assertTrue(rotated.isSealedUnderCurrentKey(underB));
        assertEquals("value", new EncryptionKeys(KEY_B, List.of()).open(underB, "kid"), "A is no longer needed");
        assertThrows(GeneralSecurityException.class, () -> new EncryptionKeys(KEY_A, List.of()).open(underB, "kid"));
    }

    @Test
    void keysMustBe32Bytes() {
        assertThrows(IllegalArgumentException.class, () -> new EncryptionKeys(new byte[16], List.of()));
        assertThrows(IllegalArgumentException.class, () -> new EncryptionKeys(KEY_A, List.of(new byte[31])));
    }

    /** The KEKs from settings as a deployment would have them: an issuer, a data directory, maybe a KEK. */
    private static EncryptionKeys fromSettings(String issuer, Path dataDir, byte[] kek) {
        return EncryptionKeys.fromSettings(new KeySettings(Optional.ofNullable(kek), List.of(), Duration.ofSeconds(900),
                Duration.ofSeconds(60), Optional.empty(), dataDir), new IssuerSettings(URI.create(issuer)));
    }

    @Test
    void withoutAConfiguredKeyOnlyALoopbackIssuerGetsAGeneratedOne(@TempDir Path dir) throws Exception {
        ConfigurationException e = assertThrows(ConfigurationException.class,
                () -> fromSettings("https://id.example.com", dir, null));
        assertTrue(e.getMessage().contains("PORTCULLIS_KEYS_ENCRYPTION_KEY"), e.getMessage());
        try (var listing = Files.list(dir)) {
            assertEquals(0, listing.count(), "nothing generated for a real issuer");
        }

        String sealed = fromSettings("http://localhost:8080", dir, null).seal("v", "kid");
        assertTrue(Files.exists(dir.resolve(EncryptionKeys.GENERATED_KEY_FILE)));
        assertEquals("v", fromSettings("http://localhost:8080", dir, null).open(sealed, "kid"),
                "the generated key is reused at the next start");

        String configured = fromSettings("https://id.example.com", dir, KEY_A).seal("v", "kid");
        assertEquals("v", new EncryptionKeys(KEY_A, List.of()).open(configured, "kid"), "a configured key wins");
    }

    @Test
    void theGeneratedDevelopmentKeyIsCreatedOnceOwnerOnlyAndReused(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("data").resolve(EncryptionKeys.GENERATED_KEY_FILE);
        byte[] first = EncryptionKeys.loadOrCreate(file);
        assertEquals(32, first.length);
        assertArrayEquals(first, EncryptionKeys.loadOrCreate(file), "the same key at the next start");
        assertEquals(PosixFilePermissions.fromString("rw-------"), Files.getPosixFilePermissions(file));
        try (var listing = Files.list(file.getParent())) {
            assertEquals(List.of(file), listing.toList(), "no temporary file left behind");
        }
    }
}
