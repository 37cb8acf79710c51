package dev.portcullis.crypto;

import java.util.Optional;

/**
 * A bearer credential in two parts, {@code <id>.<secret>}: the database finds the row by the id, a time-ordered
 * RFC 9562 UUIDv7 that is not secret, and checks the 256-bit secret against the stored hash in constant time.
 * Used for authorization codes and refresh tokens. Why not key the row by the hash of the whole value: a hash is
 * random, so every insert and every redemption touched a random page of a large index; time-ordered ids keep those
 * writes at the index's hot end (docs/decisions.md).
 *
 * <p>Values issued before V3 have no separator; their rows carry the hash of the whole value as id and no secret
 * hash, so {@link #parse} looks them up by that hash and they keep working until they expire.
 */
public record SplitToken(String id, Optional<String> secret) {

    private static final char SEPARATOR = '.';

    /** A new credential: a fresh time-ordered id and 256 random bits. */
    public static SplitToken issue() {
        return new SplitToken(Secrets.newTimeOrderedId(), Optional.of(Secrets.newSecret()));
    }

    /**
     * The row key and secret of a presented value. A value without a separator is a credential issued before V3:
     * its key is the hash of the whole value and it has no separate secret.
     */
    public static SplitToken parse(String presented) {
        int dot = presented.indexOf(SEPARATOR);
        if (dot < 0) {
            return new SplitToken(Secrets.hash(presented), Optional.empty());
        }
        return new SplitToken(presented.substring(0, dot), Optional.of(presented.substring(dot + 1)));
    }

    /** What the client receives (only for an issued token). */
    public String value() {
        return id + SEPARATOR + secret.orElseThrow();
    }

    /** What the database stores to check the secret later (only for an issued token). */
    public String secretHash() {
        return Secrets.hash(secret.orElseThrow());
    }

    /**
     * Whether this presented credential is the one of a row found by {@link #id}: its secret matches the row's
     * secret hash in constant time, or, for a row written before V3 (no secret hash), the value was presented in
     * the earlier form, whose hash is the id itself.
     */
    public boolean matches(String storedSecretHash) {
        if (storedSecretHash == null) {
            return secret.isEmpty();
        }
        return secret.isPresent() && Secrets.matchesHash(secret.get(), storedSecretHash);
    }
}
