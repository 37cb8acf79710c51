package dev.portcullis.protocol;

import dev.portcullis.crypto.Secrets;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Base64;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Every RFC 7636 PKCE rule of this server, S256 only: what an authorization request may carry (failures are
 * invalid_request, sent back to the client) and what the token request must prove (a malformed verifier is
 * invalid_request; a missing, wrong or unexpected one is invalid_grant). Public clients must use PKCE
 * (RFC 9700 2.1.1); confidential clients may.
 */
public final class Pkce {

    public static final String S256 = "S256";

    /** 43 to 128 unreserved characters (RFC 7636 4.1). */
    private static final Pattern VERIFIER = Pattern.compile("[A-Za-z0-9\\-._~]{43,128}");
    /** RFC 7636 4.2: S256 challenge = BASE64URL(SHA256(verifier)) without padding = exactly 43 characters. */
    private static final Pattern S256_CHALLENGE = Pattern.compile("[A-Za-z0-9_-]{43}");

    private Pkce() {
    }

    // ---- Authorization request (RFC 7636 4.3) ----

    /** A public client must send a code_challenge (RFC 9700 2.1.1). */
    public static void publicClientSendsChallenge(boolean confidentialClient, Optional<String> challenge) {
        if (!confidentialClient && challenge.isEmpty()) {
            throw OAuthException.invalidRequest("code_challenge is required for public clients (PKCE)");
        }
    }

    /** code_challenge_method is S256 whenever PKCE is used (plain and an absent method are refused). */
    public static void challengeMethodIsS256(Optional<String> challenge, Optional<String> method) {
        if (challenge.isEmpty() && method.isEmpty()) {
            return;
        }
        if (challenge.isEmpty()) {
            throw OAuthException.invalidRequest("code_challenge_method was sent without code_challenge");
        }
        if (method.isEmpty() || !method.get().equals(S256)) {
            throw OAuthException.invalidRequest("code_challenge_method must be S256");
        }
    }

    /** code_challenge is 43 characters of base64url. */
    public static void challengeIsWellFormed(Optional<String> challenge) {
        if (challenge.isPresent() && !S256_CHALLENGE.matcher(challenge.get()).matches()) {
            throw OAuthException.invalidRequest("code_challenge must be 43 characters of base64url");
        }
    }

    // ---- Token request (RFC 7636 4.5, 4.6) ----

    /** code_verifier, when sent, has the syntax of RFC 7636 4.1. */
    public static void verifierIsWellFormed(Optional<String> verifier) {
        if (verifier.isPresent() && !isWellFormedVerifier(verifier.get())) {
            throw OAuthException.invalidRequest("code_verifier must be 43 to 128 characters of A-Z a-z 0-9 - . _ ~");
        }
    }

    /**
     * The code's challenge is answered: with a challenge, the verifier is required and must match it; without one,
     * a verifier is refused (a downgrade attempt) and so is a public client.
     */
    public static void verifierAnswersChallenge(Optional<String> challenge, Optional<String> method,
                                                Optional<String> verifier, boolean confidentialClient) {
        if (challenge.isPresent()) {
            if (verifier.isEmpty()) {
                throw OAuthException.invalidGrant("code_verifier is required: the authorization request carried a "
                        + "code_challenge");
            }
            if (!matches(verifier.get(), challenge.get(), method.orElse(S256))) {
                throw OAuthException.invalidGrant("code_verifier does not match the code_challenge");
            }
            return;
        }
        if (verifier.isPresent()) {
            throw OAuthException.invalidGrant("code_verifier sent, but the authorization request had no "
                    + "code_challenge");
        }
        if (!confidentialClient) {
            throw OAuthException.invalidGrant("Public clients must use PKCE");
        }
    }

    // ---- Primitives ----

    /** Whether {@code verifier} has the syntax RFC 7636 demands. */
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
