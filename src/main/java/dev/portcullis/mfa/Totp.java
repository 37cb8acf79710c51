package dev.portcullis.mfa;

import com.google.zxing.BarcodeFormat;
import com.google.zxing.EncodeHintType;
import com.google.zxing.WriterException;
import com.google.zxing.common.BitMatrix;
import com.google.zxing.qrcode.QRCodeWriter;
import com.google.zxing.qrcode.decoder.ErrorCorrectionLevel;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URLEncoder;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.time.Instant;
import java.util.Base64;
import java.util.Map;
import java.util.OptionalLong;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import javax.imageio.ImageIO;
import org.bouncycastle.util.encoders.Base32;

/**
 * Time-based one-time passwords (RFC 6238 on RFC 4226's HOTP): 30-second steps, six digits, HMAC-SHA1 for the
 * authenticator apps (the only algorithm they all support); SHA-256/512 for the RFC's own test vectors. Also the
 * {@code otpauth://} URI and its QR code that the apps scan.
 */
public final class Totp {

    public static final int STEP_SECONDS = 30;
    public static final int DIGITS = 6;
    /** 160 bits, RFC 4226's recommended key length for HMAC-SHA1. */
    static final int SECRET_BYTES = 20;

    private static final SecureRandom RANDOM = new SecureRandom();
    private static final int[] POWERS = {1, 10, 100, 1_000, 10_000, 100_000, 1_000_000, 10_000_000, 100_000_000};

    private Totp() {
    }

    /** A new shared secret in the Base32 form authenticator apps take. */
    public static String newSecret() {
        byte[] key = new byte[SECRET_BYTES];
        RANDOM.nextBytes(key);
        return Base32.toBase32String(key);
    }

    /** The RFC 6238 time-step of an instant (T0 = 0). */
    public static long step(Instant at) {
        return Math.floorDiv(at.getEpochSecond(), STEP_SECONDS);
    }

    /** RFC 4226 5.3 dynamic truncation of HMAC-{@code alg}(key, step), {@code digits} digits with leading zeros. */
    static String code(byte[] key, long step, String hmacAlg, int digits) {
        try {
            Mac mac = Mac.getInstance(hmacAlg);
            mac.init(new SecretKeySpec(key, "RAW"));
            byte[] h = mac.doFinal(ByteBuffer.allocate(8).putLong(step).array());
            int offset = h[h.length - 1] & 0x0f;
            int binary = (h[offset] & 0x7f) << 24 | (h[offset + 1] & 0xff) << 16 | (h[offset + 2] & 0xff) << 8
                    | (h[offset + 3] & 0xff);
            String s = Integer.toString(binary % POWERS[digits]);
            return "0".repeat(digits - s.length()) + s;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(hmacAlg + " is not available", e);
        }
    }

    /**
     * The time-step in {@code now}'s step ±1 whose code is {@code presented} (compared in constant time), or empty.
     * The caller must still claim the step once ({@code last_step}) so the code cannot be used again.
     */
    public static OptionalLong matchingStep(String base32Secret, String presented, Instant now) {
        if (presented == null || !presented.matches("[0-9]{" + DIGITS + "}")) {
            return OptionalLong.empty();
        }
        byte[] key = Base32.decode(base32Secret);
        long current = step(now);
        long found = -1;
        for (long s = current - 1; s <= current + 1; s++) {
            if (java.security.MessageDigest.isEqual(code(key, s, "HmacSHA1", DIGITS).getBytes(StandardCharsets.US_ASCII),
                    presented.getBytes(StandardCharsets.US_ASCII)) && found < 0) {
                found = s;
            }
        }
        return found < 0 ? OptionalLong.empty() : OptionalLong.of(found);
    }

    /** The Key URI Format of Google Authenticator, understood by every authenticator app. */
    public static String keyUri(String issuerLabel, String account, String base32Secret) {
        String label = enc(issuerLabel) + ":" + enc(account);
        return "otpauth://totp/" + label + "?secret=" + base32Secret.replace("=", "") + "&issuer=" + enc(issuerLabel)
                + "&algorithm=SHA1&digits=" + DIGITS + "&period=" + STEP_SECONDS;
    }

    /** A QR code of {@code text} as a PNG {@code data:} URI, rendered here so the secret never leaves the page. */
    public static String qrCodeDataUri(String text) {
        try {
            BitMatrix m = new QRCodeWriter().encode(text, BarcodeFormat.QR_CODE, 0, 0,
                    Map.of(EncodeHintType.ERROR_CORRECTION, ErrorCorrectionLevel.M, EncodeHintType.MARGIN, 4));
            int scale = 6;
            BufferedImage img = new BufferedImage(m.getWidth() * scale, m.getHeight() * scale,
                    BufferedImage.TYPE_BYTE_BINARY);
            for (int y = 0; y < img.getHeight(); y++) {
                for (int x = 0; x < img.getWidth(); x++) {
                    img.setRGB(x, y, m.get(x / scale, y / scale) ? 0x000000 : 0xffffff);
                }
            }
            ByteArrayOutputStream png = new ByteArrayOutputStream();
            ImageIO.write(img, "png", png);
            return "data:image/png;base64," + Base64.getEncoder().encodeToString(png.toByteArray());
        } catch (WriterException e) {
            throw new IllegalArgumentException("Cannot encode a QR code of " + text.length() + " characters", e);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String enc(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8).replace("+", "%20");
    }
}
