package dev.portcullis.token;

import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import dev.portcullis.client.Client;
import dev.portcullis.config.ClientAssertionSettings;
import dev.portcullis.config.IssuerSettings;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.text.ParseException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.List;

/**
 * Checks a {@code private_key_jwt} client assertion (RFC 7523 3, OIDC Core 9) without using it up: a JWS signed with
 * RS256, PS256 or ES256 by one of the client's keys; {@code iss} and {@code sub} the client id; {@code aud} the
 * issuer identifier and nothing else, as one string or a one-element array (draft-ietf-oauth-rfc7523bis: an
 * endpoint URL, or an audience among others, is what the 2025 audience-injection attacks make a client sign for the
 * wrong server), or, with {@code portcullis.client-assertion.accept-endpoint-audience}, the URL of the endpoint it is
 * sent to instead; {@code exp} present, not past and at most
 * {@link #MAX_LIFETIME} ahead; {@code iat} and {@code nbf}, when present, not in the future; {@code jti} present.
 * Clocks may differ by {@link #SKEW}. {@link ClientAuthenticator} then spends the {@code jti}.
 */
@ApplicationScoped
public class ClientAssertionVerifier {

    public static final String ASSERTION_TYPE = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer";
    public static final List<JWSAlgorithm> ALGORITHMS = List.of(JWSAlgorithm.RS256, JWSAlgorithm.PS256,
            JWSAlgorithm.ES256);
    /** How far ahead {@code exp} may lie: an assertion is made for one request, not kept. */
    public static final Duration MAX_LIFETIME = Duration.ofMinutes(5);
    /** The clock difference tolerated between the client and this server. */
    public static final Duration SKEW = Duration.ofSeconds(30);
    static final int MAX_JTI = 256;

    /** What the caller learns of a key set that could not be had: nothing of the URL, the status or the time-out. */
    public static final String KEYS_UNUSABLE = "client_assertion: the client's key set could not be used";

    /**
     * An assertion that does not authenticate its client; the message says why (in the answer), {@link #detail} the
     * same or, for a key set that could not be had, what happened at its URL (audited only).
     */
    public static final class Refused extends Exception {
        private static final long serialVersionUID = 1L;

        private final String detail;

        Refused(String why) {
            this(why, why);
        }

        Refused(String why, String detail) {
            super(why, null, false, false);
            this.detail = detail;
        }

        /** For the audit trail. */
        public String detail() {
            return detail;
        }
    }

    /** What a checked assertion leaves to spend. */
    public record Checked(String jti, Instant expiresAt) {
    }

    @Inject
    ClientJwksSource keySets;

    @Inject
    IssuerSettings issuer;

    @Inject
    ClientAssertionSettings settings;

    @Inject
    Clock clock;

    /** The issuer named in an assertion, read without any check: which client it claims to be. */
    public static String claimedIssuer(String assertion) throws Refused {
        try {
            return SignedJWT.parse(assertion).getJWTClaimsSet().getIssuer();
        } catch (ParseException | RuntimeException e) {
            throw new Refused("client_assertion is not a signed JWT");
        }
    }

    /**
     * Checks {@code assertion} as {@code client}'s at the endpoint {@code endpointPath} (e.g. {@code /oauth/token}).
     *
     * @throws Refused when it does not authenticate the client
     */
    public Checked check(Client client, String assertion, String endpointPath) throws Refused {
        SignedJWT jwt;
        JWTClaimsSet claims;
        try {
            jwt = SignedJWT.parse(assertion);
            claims = jwt.getJWTClaimsSet();
        } catch (ParseException | RuntimeException e) {
            throw new Refused("client_assertion is not a signed JWT");
        }
        JWSHeader header = jwt.getHeader();
        if (!ALGORITHMS.contains(header.getAlgorithm())) {
            throw new Refused("client_assertion must be signed with RS256, PS256 or ES256");
        }
        if (header.getCriticalParams() != null && !header.getCriticalParams().isEmpty()) {
            throw new Refused("client_assertion has critical header parameters this server does not understand");
        }
        checkClaims(client.clientId(), claims, endpointPath);
        verifySignature(client, jwt);
        return new Checked(claims.getJWTID(), claims.getExpirationTime().toInstant());
    }

    private void checkClaims(String clientId, JWTClaimsSet claims, String endpointPath) throws Refused {
        if (!clientId.equals(claims.getIssuer()) || !clientId.equals(claims.getSubject())) {
            throw new Refused("client_assertion: iss and sub must both be the client id");
        }
        List<String> aud = claims.getAudience();
        String endpoint = issuer.endpoint(endpointPath);
        boolean accepted = aud != null && aud.size() == 1 && (aud.get(0).equals(issuer.issuerString())
                || settings.acceptEndpointAudience() && aud.get(0).equals(endpoint));
        if (!accepted) {
            throw new Refused("client_assertion: aud must be the issuer identifier " + issuer.issuerString()
                    + (settings.acceptEndpointAudience() ? " or " + endpoint : "") + ", and nothing else");
        }
        Instant now = clock.instant();
        Date exp = claims.getExpirationTime();
        if (exp == null) {
            throw new Refused("client_assertion: exp is required");
        }
        if (!exp.toInstant().isAfter(now.minus(SKEW))) {
            throw new Refused("client_assertion has expired");
        }
        if (exp.toInstant().isAfter(now.plus(MAX_LIFETIME).plus(SKEW))) {
            throw new Refused("client_assertion: exp may lie at most " + MAX_LIFETIME.toSeconds() + " s ahead");
        }
        if (inFuture(claims.getIssueTime(), now) || inFuture(claims.getNotBeforeTime(), now)) {
            throw new Refused("client_assertion: iat or nbf lies in the future");
        }
        String jti = claims.getJWTID();
        if (jti == null || jti.isEmpty() || jti.length() > MAX_JTI) {
            throw new Refused("client_assertion: jti is required (at most " + MAX_JTI + " characters)");
        }
    }

    private static boolean inFuture(Date t, Instant now) {
        return t != null && t.toInstant().isAfter(now.plus(SKEW));
    }

    /** Against the keys that match the header ({@link ClientSignatures}). */
    private void verifySignature(Client client, SignedJWT jwt) throws Refused {
        ClientSignatures.Outcome outcome;
        try {
            outcome = ClientSignatures.verify(keySets, client, jwt);
        } catch (ClientJwksSource.Unavailable e) {
            throw new Refused(KEYS_UNUSABLE, KEYS_UNUSABLE + ": " + e.getMessage());
        }
        if (outcome == ClientSignatures.Outcome.NO_MATCHING_KEY) {
            throw new Refused("client_assertion: no registered key of the client matches its header (kid, alg)");
        }
        if (outcome != ClientSignatures.Outcome.VERIFIED) {
            throw new Refused("client_assertion: the signature does not verify with the client's keys");
        }
    }
}
