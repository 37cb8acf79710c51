package dev.portcullis.mfa;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.OptionalLong;
import org.bouncycastle.util.encoders.Base32;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

class TotpTest {

    /** RFC 6238 appendix B: the seeds are the ASCII digits "1234567890" repeated to the hash's length. */
    private static byte[] seed(int length) {
        return "1234567890".repeat(7).substring(0, length).getBytes(StandardCharsets.US_ASCII);
    }

    @ParameterizedTest(name = "{1} at {0}")
    @CsvSource({
        "59, HmacSHA1, 94287082", "59, HmacSHA256, 46119246", "59, HmacSHA512, 90693936",
        "1111111109, HmacSHA1, 07081804", "1111111109, HmacSHA256, 68084774", "1111111109, HmacSHA512, 25091201",
        "1111111111, HmacSHA1, 14050471", "1111111111, HmacSHA256, 67062674", "1111111111, HmacSHA512, 99943326",
        "1234567890, HmacSHA1, 89005924", "1234567890, HmacSHA256, 91819424", "1234567890, HmacSHA512, 93441116",
        "2000000000, HmacSHA1, 69279037", "2000000000, HmacSHA256, 90698825", "2000000000, HmacSHA512, 38618901",
        "20000000000, HmacSHA1, 65353130", "20000000000, HmacSHA256, 77737706", "20000000000, HmacSHA512, 47863826"
    })
    void rfc6238AppendixBVectors(long time, String alg, String expected) {
        int keyLength = switch (alg) {
            case "HmacSHA1" -> 20;
            case "HmacSHA256" -> 32;
            default -> 64;
        };
        assertEquals(expected, Totp.code(seed(keyLength), Totp.step(Instant.ofEpochSecond(time)), alg, 8));
    }

    @Test
    void acceptsTheStepBeforeAndAfterButNoFurther() {
        String secret = Base32.toBase32String(seed(20));
        Instant now = Instant.ofEpochSecond(1111111109);
        long step = Totp.step(now);
        for (long delta = -1; delta <= 1; delta++) {
            String code = Totp.code(seed(20), step + delta, "HmacSHA1", 6);
            assertEquals(OptionalLong.of(step + delta), Totp.matchingStep(secret, code, now));
        }
        assertTrue(Totp.matchingStep(secret, Totp.code(seed(20), step + 2, "HmacSHA1", 6), now).isEmpty());
        assertTrue(Totp.matchingStep(secret, Totp.code(seed(20), step - 2, "HmacSHA1", 6), now).isEmpty());
        assertTrue(Totp.matchingStep(secret, "12345", now).isEmpty());
        assertTrue(Totp.matchingStep(secret, null, now).isEmpty());
    }

    @Test
    void keyUriNamesIssuerAccountAndSecret() {
        assertEquals("otpauth://totp/Portcullis%20Test:alice%40example.com?secret=ABC&issuer=Portcullis%20Test"
                + "&algorithm=SHA1&digits=6&period=30", Totp.keyUri("Portcullis Test", "alice@example.com", "ABC"));
        assertTrue(Totp.qrCodeDataUri("otpauth://totp/x?secret=ABC").startsWith("data:image/png;base64,iVBOR"));
    }
}
