package dev.portcullis.dpop;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.JWSVerifier;
import com.nimbusds.jose.crypto.ECDSAVerifier;
import com.nimbusds.jose.crypto.RSASSAVerifier;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jose.jwk.JWK;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import dev.portcullis.config.DpopSettings;
import dev.portcullis.crypto.Secrets;
import dev.portcullis.protocol.OAuthError;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.text.ParseException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Date;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Checks a DPoP proof (RFC 9449 4.3) and answers the thumbprint (RFC 7638, SHA-256) of the key that signed it:
 * one {@code DPoP} header; a JWS typed {@code dpop+jwt}, signed with an asymmetric algorithm of {@link #ALGS} by
 * the public key in its {@code jwk} header; {@code htm} the request's method; {@code htu} the endpoint's URL, compared
 * without query and fragment after normalising scheme, host and default port; {@code iat} no older than
 * {@code portcullis.dpop.proof-max-age} and no more than {@link #FUTURE_SKEW} ahead; {@code ath} the hash of the
 * access token it is presented with; the key the token is bound to; the server nonce when
 * {@code portcullis.dpop.nonce-required} is on ({@link DpopNonces}); last, its {@code jti} not used before, which
 * one INSERT decides across every instance ({@link DpopProofJtiRepository}), so a proof refused for anything else
 * does not spend it.
 */
@ApplicationScoped
public class DpopProofVerifier {

    /** The request header that carries the proof. */
    public static final String HEADER = "DPoP";

    /** The proof signature algorithms accepted (and published as {@code dpop_signing_alg_values_supported}). */
    public static final List<String> ALGS = List.of("ES256", "ES384", "ES512", "PS256", "PS384", "PS512", "RS256",
            "RS384", "RS512");

    private static final Set<JWSAlgorithm> ACCEPTED = Set.copyOf(ALGS.stream().map(JWSAlgorithm::parse).toList());
    static final JOSEObjectType DPOP_JWT = new JOSEObjectType("dpop+jwt");
    /** How far a proof's iat may be ahead of this server's clock. */
    static final Duration FUTURE_SKEW = Duration.ofSeconds(5);
    private static final int MAX_PROOF_LENGTH = 8192;
    private static final int MIN_RSA_BITS = 2048;

    @Inject
    DpopSettings settings;

    @Inject
    DpopNonces nonces;

    @Inject
    DpopProofJtiRepository jtis;

    @Inject
    Clock clock;

    /** For unit tests. */
    static DpopProofVerifier of(DpopSettings settings, DpopNonces nonces, DpopProofJtiRepository jtis, Clock clock) {
        DpopProofVerifier v = new DpopProofVerifier();
        v.settings = settings;
        v.nonces = nonces;
        v.jtis = jtis;
        v.clock = clock;
        return v;
    }

    /** Whether the request carries a {@code DPoP} header at all (the token path's only cost without DPoP). */
    public static boolean present(List<String> headerValues) {
        return headerValues != null && !headerValues.isEmpty();
    }

    /**
     * The thumbprint of the key of the request's one proof for {@code method} at {@code url}; {@code accessToken}
     * (null at the token endpoint) must be the one its {@code ath} hashes, and {@code boundJkt} (null when the
     * request may use any key) the thumbprint of its key.
     *
     * @throws DpopRefusal for a missing or refused proof
     */
    public String verify(List<String> headerValues, String method, String url, String accessToken, String boundJkt) {
        if (!present(headerValues)) {
            throw DpopRefusal.invalid("A DPoP proof is required: send it in the DPoP header");
        }
        if (headerValues.size() != 1 || headerValues.get(0).indexOf(',') >= 0) {
            throw DpopRefusal.invalid("Send exactly one DPoP proof");
        }
        String proof = headerValues.get(0).trim();
        if (proof.isEmpty() || proof.length() > MAX_PROOF_LENGTH) {
            throw DpopRefusal.invalid("Malformed DPoP proof");
        }
        SignedJWT jwt;
        JWTClaimsSet claims;
        try {
            jwt = SignedJWT.parse(proof);
            claims = jwt.getJWTClaimsSet();
        } catch (ParseException e) {
            throw DpopRefusal.invalid("Malformed DPoP proof");
        }
        JWK jwk = signatureIsValid(jwt);
        String jkt = thumbprint(jwk);
        String jti = stringClaim(claims, "jti");
        if (jti == null || jti.isEmpty() || jti.length() > 256) {
            throw DpopRefusal.invalid("The DPoP proof needs a jti");
        }
        if (!method.equals(stringClaim(claims, "htm"))) {
            throw DpopRefusal.invalid("The DPoP proof's htm is not the request's method");
        }
        String htu = stringClaim(claims, "htu");
        if (htu == null || !normalized(url).equals(normalized(htu))) {
            throw DpopRefusal.invalid("The DPoP proof's htu is not this endpoint's URL");
        }
        Instant now = clock.instant();
        Date iatDate = claims.getIssueTime();
        if (iatDate == null) {
            throw DpopRefusal.invalid("The DPoP proof needs an iat");
        }
        Instant iat = iatDate.toInstant();
        if (iat.isBefore(now.minus(settings.proofMaxAge())) || iat.isAfter(now.plus(FUTURE_SKEW))) {
            throw DpopRefusal.invalid("The DPoP proof's iat is outside the accepted window");
        }
        if (accessToken != null) {
            String ath = stringClaim(claims, "ath");
            if (ath == null || !Secrets.constantTimeEquals(ath, accessTokenHash(accessToken))) {
                throw DpopRefusal.invalid("The DPoP proof's ath is not the hash of the access token");
            }
        }
        if (boundJkt != null && !Secrets.constantTimeEquals(boundJkt, jkt)) {
            throw DpopRefusal.invalid("The DPoP proof is signed with another key than the token is bound to");
        }
        if (settings.nonceRequired() && !nonces.isValid(stringClaim(claims, "nonce"), now)) {
            throw new DpopRefusal(OAuthError.USE_DPOP_NONCE, "Use the server nonce of the DPoP-Nonce header",
                    nonces.current(now));
        }
        if (!jtis.use(jkt, jti, iat.plus(settings.proofMaxAge()).plus(FUTURE_SKEW))) {
            throw DpopRefusal.invalid("The DPoP proof was used before");
        }
        return jkt;
    }

    /** The nonce to hand out with a successful answer when nonces are required, else null. */
    public String nonceToSend() {
        return settings.nonceRequired() ? nonces.current(clock.instant()) : null;
    }

    /**
     * The header, algorithm and signature: a {@code dpop+jwt} signed with one of {@link #ALGS} by the public EC or RSA
     * (2048 bits or more) key of its {@code jwk} header. Answers that key.
     */
    private static JWK signatureIsValid(SignedJWT jwt) {
        JWSHeader header = jwt.getHeader();
        if (!DPOP_JWT.equals(header.getType())) {
            throw DpopRefusal.invalid("The DPoP proof's typ must be dpop+jwt");
        }
        if (!ACCEPTED.contains(header.getAlgorithm())) {
            throw DpopRefusal.invalid("The DPoP proof's alg must be one of " + String.join(" ", ALGS));
        }
        JWK jwk = header.getJWK();
        if (jwk == null || jwk.isPrivate()) {
            throw DpopRefusal.invalid("The DPoP proof's jwk header must hold a public key");
        }
        try {
            JWSVerifier verifier;
            if (jwk instanceof ECKey ec && JWSAlgorithm.Family.EC.contains(header.getAlgorithm())) {
                verifier = new ECDSAVerifier(ec);
            } else if (jwk instanceof RSAKey rsa && JWSAlgorithm.Family.RSA.contains(header.getAlgorithm())
                    && rsa.size() >= MIN_RSA_BITS) {
                verifier = new RSASSAVerifier(rsa);
            } else {
                throw DpopRefusal.invalid("The DPoP proof's key does not fit its alg");
            }
            if (!jwt.verify(verifier)) {
                throw DpopRefusal.invalid("The DPoP proof's signature is invalid");
            }
        } catch (JOSEException | IllegalArgumentException e) {
            throw DpopRefusal.invalid("The DPoP proof's signature is invalid");
        }
        return jwk;
    }

    /** RFC 7638 SHA-256 thumbprint of the proof key, base64url: the {@code cnf.jkt} of a bound token. */
    static String thumbprint(JWK jwk) {
        try {
            return jwk.computeThumbprint().toString();
        } catch (JOSEException e) {
            throw DpopRefusal.invalid("The DPoP proof's key has no thumbprint");
        }
    }

    /** RFC 9449 4.2 {@code ath}: base64url(SHA-256(ASCII(token))). */
    public static String accessTokenHash(String accessToken) {
        try {
            byte[] hash = MessageDigest.getInstance("SHA-256").digest(accessToken.getBytes(StandardCharsets.US_ASCII));
            return Base64.getUrlEncoder().withoutPadding().encodeToString(hash);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is mandatory in every JRE", e);
        }
    }

    private static String stringClaim(JWTClaimsSet claims, String name) {
        Object value = claims.getClaim(name);
        return value instanceof String s ? s : null;
    }

    /**
     * RFC 9449 4.3 step 9 with RFC 3986 6.2.2 and 6.2.3: scheme and host in lower case, no default port, an empty path
     * as {@code /}, without query and fragment. Anything that is not an absolute http(s) URL normalises to "" and
     * matches nothing.
     */
    static String normalized(String url) {
        try {
            URI u = new URI(url);
            String scheme = u.getScheme() == null ? "" : u.getScheme().toLowerCase(Locale.ROOT);
            if (!scheme.equals("https") && !scheme.equals("http") || u.getHost() == null || u.getRawUserInfo() != null) {
                return "";
            }
            int port = u.getPort();
            boolean defaultPort = port == -1 || scheme.equals("https") && port == 443 || scheme.equals("http")
                    && port == 80;
            String path = u.getRawPath() == null || u.getRawPath().isEmpty() ? "/" : u.getRawPath();
            return scheme + "://" + u.getHost().toLowerCase(Locale.ROOT) + (defaultPort ? "" : ":" + port) + path;
        } catch (URISyntaxException e) {
            return "";
        }
    }

    /** The {@code WWW-Authenticate} challenge of a resource endpoint (RFC 9449 7.1). */
    public static String challenge(String error, String description) {
        StringBuilder b = new StringBuilder("DPoP realm=\"portcullis\"");
        if (error != null) {
            b.append(", error=\"").append(error).append('"');
        }
        if (description != null) {
            b.append(", error_description=\"").append(description.replace("\"", "'").replace("\\", "")).append('"');
        }
        return b.append(", algs=\"").append(String.join(" ", ALGS)).append('"').toString();
    }
}
