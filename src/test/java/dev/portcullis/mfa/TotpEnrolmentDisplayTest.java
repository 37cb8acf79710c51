package dev.portcullis.mfa;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.google.zxing.BinaryBitmap;
import com.google.zxing.DecodeHintType;
import com.google.zxing.RGBLuminanceSource;
import com.google.zxing.common.HybridBinarizer;
import com.google.zxing.qrcode.QRCodeReader;
import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.net.URI;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.Map;
import javax.imageio.ImageIO;
import org.bouncycastle.util.encoders.Base32;
import org.junit.jupiter.api.Test;

class TotpEnrolmentDisplayTest {

    @Test
    void theQrCodeCarriesTheKeyUriAndTheKeyIsGroupedInFours() throws Exception {
        SecureRandom random = new SecureRandom();
        for (int i = 0; i < 200; i++) {
            byte[] seed = new byte[20];
            random.nextBytes(seed);
            String secret = Base32.toBase32String(seed);
            String username = "user-" + Long.toHexString(random.nextLong());
            TotpEnrolmentDisplay d = TotpEnrolmentDisplay.of(URI.create("https://sso.corp.example"), username, secret);
            assertEquals(Totp.keyUri("Portcullis (sso.corp.example)", username, secret), decoded(d.qrCode()));
            assertEquals(secret, d.manualKey().replace(" ", ""));
            assertEquals(secret.length() / 4 - 1, d.manualKey().chars().filter(c -> c == ' ').count());
        }
        assertEquals(TotpEnrolmentDisplay.NONE, TotpEnrolmentDisplay.of(URI.create("https://x"), "u", null));
    }

    /** Reads the PNG as the page shows it: unrotated, with its quiet zone. */
    private static String decoded(String dataUri) throws Exception {
        BufferedImage img = ImageIO.read(new ByteArrayInputStream(
                Base64.getDecoder().decode(dataUri.substring("data:image/png;base64,".length()))));
        int[] pixels = img.getRGB(0, 0, img.getWidth(), img.getHeight(), null, 0, img.getWidth());
        return new QRCodeReader().decode(new BinaryBitmap(new HybridBinarizer(
                new RGBLuminanceSource(img.getWidth(), img.getHeight(), pixels))),
                Map.of(DecodeHintType.PURE_BARCODE, Boolean.TRUE)).getText();
    }
}
