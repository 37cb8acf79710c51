package dev.portcullis.kerberos;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import org.junit.jupiter.api.Test;

class NegotiateHeaderTest {

    private static NegotiateHeader.Kind kind(String header) {
        return NegotiateHeader.parse(header).kind();
    }

    @Test
    void parseWhenNegotiateTokenThenItsBytes() {
        byte[] token = {0x60, 0x10, 1, 2, 3};
        NegotiateHeader h = NegotiateHeader.parse("Negotiate " + Base64.getEncoder().encodeToString(token));
        assertEquals(NegotiateHeader.Kind.TOKEN, h.kind());
        assertArrayEquals(token, h.token());
        assertEquals(NegotiateHeader.Kind.TOKEN, kind("negotiate  YGE= "));
    }

    @Test
    void parseWhenNoHeaderOrAnotherSchemeThenNoToken() {
        assertEquals(NegotiateHeader.Kind.ABSENT, kind(null));
        assertEquals(NegotiateHeader.Kind.ABSENT, kind("  "));
        assertEquals(NegotiateHeader.Kind.OTHER_SCHEME, kind("Basic Y2Fyb2w6cHc="));
        assertEquals(NegotiateHeader.Kind.OTHER_SCHEME, kind("Bearer abc"));
    }

    @Test
    void parseWhenNtlmThenRecognisedAsNtlm() {
        // what Windows sends when it cannot get a Kerberos ticket: NTLMSSP, in the Negotiate scheme or its own
        String type1 = Base64.getEncoder().encodeToString("NTLMSSP\0\1\0\0\0\7\202\10\242".getBytes(
                StandardCharsets.ISO_8859_1));
        assertEquals("TlRMTVNTUAAB", type1.substring(0, 12));
        assertEquals(NegotiateHeader.Kind.NTLM, kind("Negotiate " + type1));
        assertEquals(NegotiateHeader.Kind.NTLM, kind("NTLM " + type1));
    }

    @Test
    void parseWhenMalformedOrOversizedThenMalformed() {
        assertEquals(NegotiateHeader.Kind.MALFORMED, kind("Negotiate"));
        assertEquals(NegotiateHeader.Kind.MALFORMED, kind("Negotiate    "));
        assertEquals(NegotiateHeader.Kind.MALFORMED, kind("Negotiate ***not base64***"));
        assertEquals(NegotiateHeader.Kind.MALFORMED, kind("Negotiate " + "A".repeat(NegotiateHeader.MAX_HEADER_CHARS)));
    }
}
