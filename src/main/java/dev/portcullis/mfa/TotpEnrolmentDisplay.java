package dev.portcullis.mfa;

import java.net.URI;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * How a new authenticator seed is shown while it is set up, the same on the sign-in's enrolment step and the account
 * page: a QR code of the Key URI for scanning, and the seed in groups of four for typing.
 *
 * @param qrCode   the QR code as a PNG {@code data:} URI
 * @param manualKey the Base32 seed without padding, in groups of four
 */
public record TotpEnrolmentDisplay(String qrCode, String manualKey) {

    /** Nothing to show: no seed is being set up. */
    public static final TotpEnrolmentDisplay NONE = new TotpEnrolmentDisplay("", "");

    /** The display of {@code base32Secret} for {@code username}, labelled with the issuer's host. */
    public static TotpEnrolmentDisplay of(URI issuer, String username, String base32Secret) {
        if (base32Secret == null) {
            return NONE;
        }
        return new TotpEnrolmentDisplay(
                Totp.qrCodeDataUri(Totp.keyUri(issuerLabel(issuer), username, base32Secret)), grouped(base32Secret));
    }

    /**
     * A page's display of the seed being set up: {@link #NONE} while {@code pendingSecret} finds none; the first seed
     * it finds is shown for {@code username} under the issuer's host, and kept for the rest of the request. Nothing
     * is read before the page asks, so the suppliers may name what is injected later.
     */
    public static Supplier<TotpEnrolmentDisplay> pending(Supplier<Optional<String>> pendingSecret,
                                                         Supplier<URI> issuer, Supplier<String> username) {
        TotpEnrolmentDisplay[] shown = new TotpEnrolmentDisplay[1];
        return () -> {
            if (shown[0] == null) {
                Optional<String> secret = pendingSecret.get();
                if (secret.isEmpty()) {
                    return NONE;
                }
                shown[0] = of(issuer.get(), username.get(), secret.get());
            }
            return shown[0];
        };
    }

    /** The authenticator app's label of this Portcullis: its name and the issuer's host. */
    static String issuerLabel(URI issuer) {
        return "Portcullis (" + issuer.getHost() + ")";
    }

    /** A Base32 seed in groups of four, for typing. */
    static String grouped(String base32) {
        return base32.replace("=", "").replaceAll("(.{4})(?!$)", "$1 ");
    }
}
