package dev.portcullis.crypto;

import dev.portcullis.config.ConfigurationException;
import dev.portcullis.config.IssuerSettings;
import dev.portcullis.config.KeySettings;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.logging.Logger;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * Encryption of secrets stored in the database (private signing keys, authenticator-app seeds) under
 * key-encryption keys (KEKs) that live in configuration, never in the database. AES-256-GCM with a random 96-bit
 * nonce per value; the caller's associated data (e.g. the key id of a signing key) binds a value to its row, so a
 * ciphertext copied to another row does not decrypt.
 *
 * <p>Stored form: {@code aes256gcm:<kek id>:<base64url(nonce || ciphertext || tag)>}. The KEK id (a truncated
 * SHA-256 of the KEK, which does not reveal it) names the key that sealed the value, so values sealed under a
 * previous KEK are found and re-sealed under the current one after a rotation.
 */
public final class EncryptionKeys {

    public static final String CURRENT_KEY = "portcullis.keys.encryption-key";
    public static final String PREVIOUS_KEYS = "portcullis.keys.previous-encryption-keys";
    /** File in the data directory holding a generated KEK, used only with a loopback issuer and no configured KEK. */
    public static final String GENERATED_KEY_FILE = "key-encryption-key";

    private static final Logger LOG = Logger.getLogger(EncryptionKeys.class.getName());
    private static final String PREFIX = "aes256gcm:";
    private static final int NONCE_BYTES = 12;
    private static final int TAG_BITS = 128;
    private static final SecureRandom RANDOM = new SecureRandom();
    private static final Base64.Encoder B64URL = Base64.getUrlEncoder().withoutPadding();

    private final String currentId;
    private final SecretKeySpec current;
    private final Map<String, SecretKeySpec> byId = new LinkedHashMap<>();

    /** The current KEK (seals and opens) and previous ones (open only); each exactly 32 bytes. */
    public EncryptionKeys(byte[] currentKey, List<byte[]> previousKeys) {
        current = aesKey(currentKey);
        currentId = keyId(currentKey);
        byId.put(currentId, current);
        for (byte[] k : previousKeys) {
            byId.putIfAbsent(keyId(k), aesKey(k));
        }
    }

    /**
     * The KEKs of this server: {@value #CURRENT_KEY} and {@value #PREVIOUS_KEYS}. Unset, a loopback issuer (a
     * developer's machine, the README's commands) uses a key generated once into the data directory; any other
     * issuer is refused, since a key next to the database would protect nothing and instances would not share it.
     */
    public static EncryptionKeys fromSettings(KeySettings settings, IssuerSettings issuer) {
        byte[] currentKey = settings.encryptionKey().orElseGet(() -> {
            if (!issuer.isLoopback()) {
                throw new ConfigurationException(CURRENT_KEY, "is required when the issuer (" + issuer.issuerString()
                        + ") is not loopback: base64 of 32 random bytes, e.g. from openssl rand -base64 32");
            }
            Path file = settings.dataDir().resolve(GENERATED_KEY_FILE);
            LOG.warning(() -> CURRENT_KEY + " is not set: private keys are encrypted under a key generated in "
                    + file + " (acceptable with a loopback issuer only)");
            return loadOrCreate(file);
        });
        return new EncryptionKeys(currentKey, settings.previousEncryptionKeys());
    }

    /** A new KEK as configuration takes it: base64 of 32 random bytes. */
    public static String newKey() {
        byte[] k = new byte[32];
        RANDOM.nextBytes(k);
        return Base64.getEncoder().encodeToString(k);
    }

    /** Encrypts {@code plaintext} under the current KEK, bound to {@code associatedData}. */
    public String seal(String plaintext, String associatedData) {
        byte[] nonce = new byte[NONCE_BYTES];
        RANDOM.nextBytes(nonce);
        try {
            Cipher c = Cipher.getInstance("AES/GCM/NoPadding");
            c.init(Cipher.ENCRYPT_MODE, current, new GCMParameterSpec(TAG_BITS, nonce));
            c.updateAAD(associatedData.getBytes(StandardCharsets.UTF_8));
            byte[] ct = c.doFinal(plaintext.getBytes(StandardCharsets.UTF_8));
            byte[] out = ByteBuffer.allocate(nonce.length + ct.length).put(nonce).put(ct).array();
            return PREFIX + currentId + ":" + B64URL.encodeToString(out);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES-GCM is mandatory in every JRE", e);
        }
    }

    /**
     * Decrypts a {@link #seal sealed} value with whichever configured KEK sealed it.
     *
     * @throws GeneralSecurityException when no configured KEK sealed it, the value was altered, or it was sealed
     *     with other associated data; the message never quotes the value
     */
    public String open(String sealed, String associatedData) throws GeneralSecurityException {
        if (!isSealed(sealed)) {
            throw new GeneralSecurityException("not a sealed value");
        }
        int sep = sealed.indexOf(':', PREFIX.length());
        if (sep < 0) {
            throw new GeneralSecurityException("malformed sealed value");
        }
        SecretKeySpec key = byId.get(sealed.substring(PREFIX.length(), sep));
        if (key == null) {
            throw new GeneralSecurityException("sealed under key-encryption key " + kekIdOf(sealed)
                    + ", which is neither " + CURRENT_KEY + " nor one of " + PREVIOUS_KEYS);
        }
        byte[] in;
        try {
            in = Base64.getUrlDecoder().decode(sealed.substring(sep + 1));
        } catch (IllegalArgumentException e) {
            throw new GeneralSecurityException("malformed sealed value");
        }
        if (in.length < NONCE_BYTES + TAG_BITS / 8) {
            throw new GeneralSecurityException("malformed sealed value");
        }
        Cipher c = Cipher.getInstance("AES/GCM/NoPadding");
        c.init(Cipher.DECRYPT_MODE, key, new GCMParameterSpec(TAG_BITS, in, 0, NONCE_BYTES));
        c.updateAAD(associatedData.getBytes(StandardCharsets.UTF_8));
        return new String(c.doFinal(in, NONCE_BYTES, in.length - NONCE_BYTES), StandardCharsets.UTF_8);
    }

    /**
     * HMAC-SHA256 (base64url) of {@code data} under the current KEK, separated by {@code purpose}: a tag every
     * instance of this server computes alike and nobody without the key can forge.
     */
    public String tag(String purpose, String data) {
        return Secrets.hmac(purpose + ":" + B64URL.encodeToString(current.getEncoded()), data);
    }

    /** Whether a stored value is sealed at all (values written before encryption existed are not). */
    public static boolean isSealed(String stored) {
        return stored != null && stored.startsWith(PREFIX);
    }

    /** Whether a stored value is sealed under the current KEK (else it should be re-sealed). */
    public boolean isSealedUnderCurrentKey(String stored) {
        return isSealed(stored) && currentId.equals(kekIdOf(stored));
    }

    /** The beginning of every value sealed under the current KEK, to find the others with a SQL {@code LIKE}. */
    public String currentKeyPrefix() {
        return PREFIX + currentId + ":";
    }

    /** Reads the generated KEK in {@code file}, creating it (owner-only) first if it does not exist. */
    static byte[] loadOrCreate(Path file) {
        try {
            if (!Files.exists(file)) {
                Files.createDirectories(file.toAbsolutePath().getParent());
                Path tmp = Files.createTempFile(file.toAbsolutePath().getParent(), ".kek", ".tmp");
                try {
                    restrictToOwner(tmp);
                    Files.writeString(tmp, newKey() + "\n", StandardCharsets.US_ASCII);
                    // a hard link never replaces: of two instances starting at once on one data directory, one wins
                    Files.createLink(file, tmp);
                } catch (FileAlreadyExistsException e) {
                    // the other instance's key is the one to use
                } finally {
                    Files.deleteIfExists(tmp);
                }
            }
            byte[] key = Base64.getDecoder().decode(Files.readString(file, StandardCharsets.US_ASCII).trim());
            if (key.length != 32) {
                throw new IllegalArgumentException("not 32 bytes");
            }
            return key;
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read or create the key-encryption key file " + file, e);
        } catch (IllegalArgumentException e) {
            throw new IllegalStateException("The key-encryption key file " + file + " is not base64 of 32 bytes");
        }
    }

    private static String kekIdOf(String sealed) {
        int sep = sealed.indexOf(':', PREFIX.length());
        return sep < 0 ? "" : sealed.substring(PREFIX.length(), sep);
    }

    private static String keyId(byte[] key) {
        byte[] label = "portcullis-kek-id:".getBytes(StandardCharsets.US_ASCII);
        byte[] input = ByteBuffer.allocate(label.length + key.length).put(label).put(key).array();
        return B64URL.encodeToString(Arrays.copyOf(Secrets.sha256(input), 9));
    }

    private static SecretKeySpec aesKey(byte[] key) {
        if (key.length != 32) {
            throw new IllegalArgumentException("a key-encryption key is 32 bytes, got " + key.length);
        }
        return new SecretKeySpec(key, "AES");
    }

    /** Makes a file that holds a secret readable and writable by its owner only. */
    public static void restrictToOwner(Path file) throws IOException {
        try {
            Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
        } catch (UnsupportedOperationException e) {
            // not a POSIX file system (Windows): the data directory's own permissions apply
        }
    }
}
