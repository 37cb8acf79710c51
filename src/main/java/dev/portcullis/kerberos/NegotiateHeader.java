package dev.portcullis.kerberos;

import java.util.Base64;

/**
 * What a browser's {@code Authorization} header offers the login page: nothing, a SPNEGO / Kerberos token
 * ({@code Negotiate <base64>}), an NTLM token (Windows' fallback when Kerberos is not possible, never accepted), or
 * something malformed or oversized. The token's structure is left to the JDK's GSS-API; only the NTLMSSP signature is
 * looked at here, to refuse it by name.
 */
public record NegotiateHeader(Kind kind, byte[] token) {

    /** Longer headers are refused unread: a Kerberos ticket with a large PAC stays well below this. */
    public static final int MAX_HEADER_CHARS = 48 * 1024;
    private static final byte[] NTLMSSP = {'N', 'T', 'L', 'M', 'S', 'S', 'P', 0};

    public enum Kind { ABSENT, TOKEN, NTLM, MALFORMED, OTHER_SCHEME }

    public static NegotiateHeader parse(String header) {
        if (header == null || header.isBlank()) {
            return new NegotiateHeader(Kind.ABSENT, null);
        }
        if (header.length() > MAX_HEADER_CHARS) {
            return new NegotiateHeader(Kind.MALFORMED, null);
        }
        String h = header.strip();
        int space = h.indexOf(' ');
        String scheme = space < 0 ? h : h.substring(0, space);
        if (scheme.equalsIgnoreCase("NTLM")) {
            return new NegotiateHeader(Kind.NTLM, null);
        }
        if (!scheme.equalsIgnoreCase("Negotiate")) {
            return new NegotiateHeader(Kind.OTHER_SCHEME, null);
        }
        String b64 = space < 0 ? "" : h.substring(space + 1).strip();
        if (b64.isEmpty()) {
            return new NegotiateHeader(Kind.MALFORMED, null);
        }
        byte[] token;
        try {
            token = Base64.getDecoder().decode(b64);
        } catch (IllegalArgumentException e) {
            return new NegotiateHeader(Kind.MALFORMED, null);
        }
        if (token.length == 0) {
            return new NegotiateHeader(Kind.MALFORMED, null);
        }
        if (startsWith(token, NTLMSSP)) {
            return new NegotiateHeader(Kind.NTLM, null);
        }
        return new NegotiateHeader(Kind.TOKEN, token);
    }

    private static boolean startsWith(byte[] a, byte[] prefix) {
        if (a.length < prefix.length) {
            return false;
        }
        for (int i = 0; i < prefix.length; i++) {
            if (a[i] != prefix[i]) {
                return false;
            }
        }
        return true;
    }
}
