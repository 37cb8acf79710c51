package dev.portcullis.dpop;

import dev.portcullis.config.IssuerSettings;
import dev.portcullis.config.KeySettings;
import dev.portcullis.crypto.EncryptionKeys;
import dev.portcullis.crypto.Secrets;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Instant;

/**
 * DPoP server nonces (RFC 9449 8, 9) that every instance issues and checks alike, with no state: a nonce is a time
 * slot of {@link #SLOT_SECONDS} and the HMAC of that slot under a key derived from the key-encryption key
 * ({@link EncryptionKeys#tag}). A nonce is accepted in its own slot and the next one, so it lives 1–2 minutes; the
 * proof's {@code jti}, not the nonce, makes a proof single-use.
 */
@ApplicationScoped
public class DpopNonces {

    static final long SLOT_SECONDS = 60;
    private static final String PURPOSE = "dpop-nonce";

    @Inject
    KeySettings keySettings;

    @Inject
    IssuerSettings issuer;

    private volatile EncryptionKeys keys;

    /** For unit tests: nonces under {@code keys}. */
    static DpopNonces with(EncryptionKeys keys) {
        DpopNonces n = new DpopNonces();
        n.keys = keys;
        return n;
    }

    /** The nonce of the slot {@code now} falls in. */
    public String current(Instant now) {
        return of(slot(now));
    }

    /** Whether {@code nonce} is one of ours, of the current slot or the one before. */
    public boolean isValid(String nonce, Instant now) {
        if (nonce == null || nonce.length() > 100) {
            return false;
        }
        long slot = slot(now);
        return Secrets.constantTimeEquals(nonce, of(slot)) || Secrets.constantTimeEquals(nonce, of(slot - 1));
    }

    private String of(long slot) {
        String s = Long.toString(slot);
        return s + "." + keys().tag(PURPOSE, s);
    }

    private static long slot(Instant now) {
        return Math.floorDiv(now.getEpochSecond(), SLOT_SECONDS);
    }

    private EncryptionKeys keys() {
        EncryptionKeys k = keys;
        if (k == null) {
            k = EncryptionKeys.fromSettings(keySettings, issuer); // a race only builds equal instances twice
            keys = k;
        }
        return k;
    }
}
