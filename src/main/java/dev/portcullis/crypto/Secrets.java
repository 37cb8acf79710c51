package dev.portcullis.crypto;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.UUID;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Random credentials and their storage form. Everything the server hands out as a bearer secret (client secret,
 * SSO session id, and the secret part of an authorization code or refresh token, see {@link SplitToken}) is 256
 * random bits, base64url without padding, and is stored only as {@link #hash}. These values are high-entropy, so
 * one SHA-256 is the right storage hash: a slow password hash would add nothing but latency on the token path.
 */
public final class Secrets {

    private static final SecureRandom RANDOM = new SecureRandom();
    private static final Base64.Encoder B64URL = Base64.getUrlEncoder().withoutPadding();

    private Secrets() {
    }

    /** A new 256-bit random secret, 43 characters of base64url. */
    public static String newSecret() {
        byte[] bytes = new byte[32];
        RANDOM.nextBytes(bytes);
        return B64URL.encodeToString(bytes);
    }

    /** A new random identifier (128 bits), for ids that are not secrets (client_id, user id, jti). */
    public static String newId() {
        byte[] bytes = new byte[16];
        RANDOM.nextBytes(bytes);
        return B64URL.encodeToString(bytes);
    }

    /**
     * A new time-ordered identifier, not a secret: an RFC 9562 version 7 UUID (48 bits of Unix milliseconds, then 74
     * random bits), so rows keyed by it are inserted at the end of their index instead of on a random page (jti,
     * grant ids, the id part of a {@link SplitToken}).
     */
    public static String newTimeOrderedId() {
        long ms = System.currentTimeMillis();
        long msb = (ms << 16) | 0x7000L | (RANDOM.nextInt() & 0x0FFFL);
        long lsb = (RANDOM.nextLong() & 0x3FFFFFFFFFFFFFFFL) | 0x8000000000000000L;
        return new UUID(msb, lsb).toString();
    }

    /** Storage form of a secret: base64url(SHA-256(UTF-8 bytes)), 43 characters. */
    public static String hash(String secret) {
        return B64URL.encodeToString(sha256(secret.getBytes(StandardCharsets.UTF_8)));
    }

    public static byte[] sha256(byte[] input) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(input);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is mandatory in every JRE", e);
        }
    }

    /** HMAC-SHA256 of {@code data} under {@code key}, base64url: a value only a holder of the key can compute. */
    public static String hmac(String key, String data) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
            return B64URL.encodeToString(mac.doFinal(data.getBytes(StandardCharsets.UTF_8)));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is mandatory in every JRE", e);
        }
    }

    /** Constant-time comparison of two strings (their length is not secret). Null never equals anything. */
    public static boolean constantTimeEquals(String a, String b) {
        if (a == null || b == null) {
            return false;
        }
        return MessageDigest.isEqual(a.getBytes(StandardCharsets.UTF_8), b.getBytes(StandardCharsets.UTF_8));
    }

    /** Whether a presented secret matches a stored {@link #hash}, in constant time. */
    public static boolean matchesHash(String presented, String storedHash) {
        return presented != null && constantTimeEquals(hash(presented), storedHash);
    }
}
