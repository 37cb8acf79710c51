package dev.portcullis.kerberos;

import dev.portcullis.crypto.Secrets;
import java.util.Arrays;
import java.util.Base64;
import java.util.Optional;
import org.ietf.jgss.GSSException;
import org.ietf.jgss.Oid;

/**
 * The replay key of a Kerberos token: the SHA-256 of its authenticator's ciphertext, the part of a ticket's AP-REQ that
 * the client encrypts afresh for every request (with a random confounder) and that nobody without the session key can
 * make again. The JDK's own replay cache keys on the same bytes. A hash of the whole token would not do: the SPNEGO
 * wrapping around the AP-REQ (its list of mechanisms, or none at all) can be re-encoded without the key.
 *
 * <p>The token is a GSS-API initial context token (RFC 2743 3.1): SPNEGO's (RFC 4178, the AP-REQ in the
 * {@code mechToken} of a {@code NegTokenInit}) or Kerberos' own (RFC 4121 4.1, under the standard or Microsoft's
 * Kerberos OID). Only definite DER lengths are read; anything else has no key.
 */
final class KerberosAuthenticator {

    private static final Oid MICROSOFT_KERBEROS = SpnegoAcceptor.oid("1.2.840.48018.1.2.2");
    private static final int GSS_TOKEN = 0x60;
    private static final int OID = 0x06;
    private static final int SEQUENCE = 0x30;
    private static final int OCTET_STRING = 0x04;
    private static final int AP_REQ = 0x6e;

    private KerberosAuthenticator() {
    }

    /** The replay key (base64url of SHA-256 of the authenticator's ciphertext), or empty when there is no AP-REQ. */
    static Optional<String> replayKey(byte[] token) {
        return cipher(token).map(c -> Base64.getUrlEncoder().withoutPadding().encodeToString(Secrets.sha256(c)));
    }

    static Optional<byte[]> cipher(byte[] token) {
        try {
            return Optional.ofNullable(gssToken(token, true));
        } catch (Malformed | GSSException e) {
            return Optional.empty();
        }
    }

    /** The authenticator's ciphertext of a GSS-API token; SPNEGO is unwrapped once. */
    private static byte[] gssToken(byte[] b, boolean spnegoAllowed) throws Malformed, GSSException {
        Tlv token = Tlv.read(b, 0, b.length, GSS_TOKEN);
        if (token.end != b.length) {
            throw new Malformed();
        }
        Tlv mech = Tlv.read(b, token.value, token.end, OID);
        Oid oid = new Oid(Arrays.copyOfRange(b, mech.start, mech.end));
        if (spnegoAllowed && oid.equals(SpnegoAcceptor.SPNEGO)) {
            Tlv init = Tlv.read(b, Tlv.read(b, mech.end, token.end, 0xa0).value, token.end, SEQUENCE);
            Tlv mechToken = Tlv.field(b, init, 0xa2);
            Tlv octets = Tlv.read(b, mechToken.value, mechToken.end, OCTET_STRING);
            return gssToken(Arrays.copyOfRange(b, octets.value, octets.end), false);
        }
        if (!oid.equals(SpnegoAcceptor.KERBEROS) && !oid.equals(MICROSOFT_KERBEROS)) {
            throw new Malformed();
        }
        // TOK_ID 01 00: an AP-REQ follows
        if (mech.end + 2 > token.end || b[mech.end] != 0x01 || b[mech.end + 1] != 0x00) {
            throw new Malformed();
        }
        Tlv apReq = Tlv.read(b, mech.end + 2, token.end, AP_REQ);
        Tlv fields = Tlv.read(b, apReq.value, apReq.end, SEQUENCE);
        Tlv authenticator = Tlv.field(b, fields, 0xa4);
        Tlv encrypted = Tlv.read(b, authenticator.value, authenticator.end, SEQUENCE);
        Tlv cipher = Tlv.field(b, encrypted, 0xa2);
        Tlv octets = Tlv.read(b, cipher.value, cipher.end, OCTET_STRING);
        if (octets.end == octets.value) {
            throw new Malformed();
        }
        return Arrays.copyOfRange(b, octets.value, octets.end);
    }

    /** One DER element within {@code b}: where it starts, where its value starts, where it ends. */
    private record Tlv(int start, int value, int end) {

        /** The element at {@code at}, which must have tag {@code tag} and end by {@code limit}. */
        static Tlv read(byte[] b, int at, int limit, int tag) throws Malformed {
            if (at + 2 > limit || (b[at] & 0xff) != tag) {
                throw new Malformed();
            }
            int first = b[at + 1] & 0xff;
            int p = at + 2;
            long length;
            if (first < 0x80) {
                length = first;
            } else {
                int bytes = first & 0x7f;
                if (bytes == 0 || bytes > 4 || p + bytes > limit) {
                    throw new Malformed(); // indefinite or absurd length
                }
                length = 0;
                for (int i = 0; i < bytes; i++) {
                    length = length << 8 | (b[p++] & 0xff);
                }
            }
            if (length > limit - p) {
                throw new Malformed();
            }
            return new Tlv(at, p, p + (int) length);
        }

        /** The explicitly tagged field {@code [n]} (tag {@code tag}) of a SEQUENCE, which must be there. */
        static Tlv field(byte[] b, Tlv sequence, int tag) throws Malformed {
            int p = sequence.value;
            while (p < sequence.end) {
                int t = b[p] & 0xff;
                Tlv f = read(b, p, sequence.end, t);
                if (t == tag) {
                    return f;
                }
                p = f.end;
            }
            throw new Malformed();
        }
    }

    /** Not the shape of a GSS-API token holding an AP-REQ. */
    private static final class Malformed extends Exception {
        Malformed() {
            super(null, null, false, false);
        }
    }
}
