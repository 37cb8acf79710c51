package dev.portcullis.token;

import dev.portcullis.crypto.Secrets;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Base64;
import java.util.regex.Pattern;

/** RFC 7636 PKCE, S256 only (plain is refused at the authorization endpoint and never verified here). */
public final class Pkce {

    public static final String S256 = "S256";

    /** 43 to 128 unreserved characters (RFC 7636 4.1). */
    private static final Pattern VERIFIER = Pattern.compile("[A-Za-z0-9\\-._~]{43,128}");

    private Pkce() {
    }

    /** Whether {@code verifier} has the syntax RFC 7636 demands; a malformed verifier is invalid_request. */
    public static boolean isWellFormedVerifier(String verifier) {
        return verifier != null && VERIFIER.matcher(verifier).matches();
    }

    /** BASE64URL(SHA256(ASCII(verifier))) without padding. */
    public static String s256Challenge(String verifier) {
        byte[] digest = Secrets.sha256(verifier.getBytes(StandardCharsets.US_ASCII));
        return Base64.getUrlEncoder().withoutPadding().encodeToString(digest);
    }

    /** Whether {@code verifier} matches the stored S256 {@code challenge}, compared in constant time. */
    public static boolean matches(String verifier, String challenge, String method) {
        if (!S256.equals(method) || !isWellFormedVerifier(verifier) || challenge == null) {
            return false;
        }
        return MessageDigest.isEqual(s256Challenge(verifier).getBytes(StandardCharsets.US_ASCII),
                challenge.getBytes(StandardCharsets.US_ASCII));
    }
}
