package dev.portcullis.client;

import com.nimbusds.jose.jwk.Curve;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jose.jwk.JWK;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import dev.portcullis.admin.Refusal;
import java.net.URI;
import java.net.URISyntaxException;
import java.text.ParseException;
import java.util.HashSet;
import java.util.Locale;
import java.util.Set;

/**
 * The keys a {@code private_key_jwt} client may register, inline ({@code jwks}) or at a URL ({@code jwks_uri}): a
 * JWK set of at most {@value #MAX_KEYS} public RSA (2048 bits or more) or P-256 EC keys, the kinds RS256, PS256 and
 * ES256 verify with. Private key material and symmetric keys are refused: a set that carries them was pasted by
 * mistake, and its private half must not be stored. A key set fetched from a {@code jwks_uri} meets the same rules.
 */
public final class ClientJwksRules {

    public static final int MAX_KEYS = 10;
    public static final int MAX_JWKS_CHARS = 16_000;

    private ClientJwksRules() {
    }

    /** Why a JWK set is not one a client may use, as an exception whose message names the problem. */
    public static final class Unusable extends Exception {
        private static final long serialVersionUID = 1L;

        Unusable(String why) {
            super(why, null, false, false);
        }
    }

    /** The public keys of {@code json}, checked; the set as stored and shown is {@code toString()} of the result. */
    public static JWKSet parse(String json) throws Unusable {
        if (json == null || json.length() > MAX_JWKS_CHARS) {
            throw new Unusable("must be a JWK set of at most " + MAX_JWKS_CHARS + " characters");
        }
        JWKSet set;
        try {
            set = JWKSet.parse(json);
        } catch (ParseException | RuntimeException e) {
            throw new Unusable("is not a JWK set (RFC 7517 5)");
        }
        if (set.getKeys().isEmpty() || set.getKeys().size() > MAX_KEYS) {
            throw new Unusable("must hold 1 to " + MAX_KEYS + " keys");
        }
        Set<String> kids = new HashSet<>();
        for (JWK key : set.getKeys()) {
            if (!(key instanceof RSAKey) && !(key instanceof ECKey)) {
                throw new Unusable("holds a " + key.getKeyType() + " key; only public RSA and EC (P-256) keys are "
                        + "accepted, never symmetric ones");
            }
            if (key.isPrivate()) {
                throw new Unusable("holds private key material; register the public keys only");
            }
            if (key instanceof RSAKey rsa) {
                if (rsa.size() < 2048) {
                    throw new Unusable("holds an RSA key shorter than 2048 bits");
                }
            } else if (!Curve.P_256.equals(((ECKey) key).getCurve())) {
                throw new Unusable("holds an EC key not on P-256 (ES256 is the EC algorithm accepted)");
            }
            if (key.getKeyID() != null && !kids.add(key.getKeyID())) {
                throw new Unusable("holds two keys with the kid " + (key.getKeyID().length() <= 40
                        ? key.getKeyID() : "(long)"));
            }
        }
        return set;
    }

    /** A registration's {@code jwks}, checked; returns the stored form. */
    static String checkJwks(String json) {
        try {
            return parse(json).toString(true);
        } catch (Unusable e) {
            throw Refusal.invalid("jwks", e.getMessage());
        }
    }

    /**
     * A registration's {@code jwks_uri}: an absolute https URL without user info or fragment; plain http only on a
     * loopback host, as for redirect URIs ({@link RedirectUriPolicy}), so that a test can serve one.
     */
    static String checkJwksUri(String uri) {
        if (uri == null || uri.isEmpty() || uri.length() > RedirectUriPolicy.MAX_LENGTH
                || uri.chars().anyMatch(c -> c <= 0x20 || c == 0x7f)) {
            throw Refusal.invalid("jwks_uri", "must be a URL of 1 to " + RedirectUriPolicy.MAX_LENGTH
                    + " characters without spaces");
        }
        URI u;
        try {
            u = new URI(uri);
        } catch (URISyntaxException e) {
            throw Refusal.invalid("jwks_uri", "is not a valid URI");
        }
        String scheme = u.getScheme() == null ? "" : u.getScheme().toLowerCase(Locale.ROOT);
        if (!u.isAbsolute() || u.getHost() == null || u.getRawUserInfo() != null || u.getRawFragment() != null) {
            throw Refusal.invalid("jwks_uri", "must be an absolute URL with a host, no user info, no fragment");
        }
        if (!scheme.equals("https") && !(scheme.equals("http") && RedirectUriPolicy.isLoopbackHost(u.getHost()))) {
            throw Refusal.invalid("jwks_uri", "must use https (http only for 127.0.0.1, [::1] and localhost)");
        }
        return uri;
    }
}
