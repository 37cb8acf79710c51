package dev.portcullis.token;

import dev.portcullis.protocol.ClaimsRequest;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;

/**
 * A token family (a row of token_grants, owned by {@link TokenGrantRepository}): created when an authorization code is
 * redeemed; every access and refresh token issued from that code (and from its refresh chain) belongs to it.
 * Revoking the grant kills all of them at once. A client-credentials grant has one access token and no user.
 * {@code userId} is the OIDC sub (null for client credentials, whose {@code authTime} is when it was issued);
 * {@code scope} is what the user granted (refresh may narrow within it, never widen); {@code revokedAt} is null while
 * the grant is live; {@code amr} the methods of the sign-in it came from (ID tokens of its refreshes carry them too);
 * {@code resources} the RFC 8707 resources it was authorized for (API identifiers; empty: those its scope reaches),
 * within which a refresh may narrow a token's audience; {@code sid} the SSO session it was signed in by (its ID
 * tokens' {@code sid}; null for client credentials and sessions started before V18); {@code claims} the
 * authorization request's {@code claims} parameter in its stored form (null without one), which its ID tokens and
 * userinfo answers follow; {@code dpopJkt} the thumbprint of the DPoP key its refresh tokens are bound to (a public
 * client's grant redeemed with a DPoP proof, RFC 9449 5), null when they are not bound.
 */
public record TokenGrant(String grantId, String clientId, String userId, String scope, Instant authTime,
                         Instant createdAt, Instant revokedAt, Set<String> amr, List<String> resources,
                         String sid, String claims, String dpopJkt) {

    public TokenGrant {
        resources = resources == null ? List.of() : List.copyOf(resources);
    }

    /** A grant whose refresh tokens are not bound to a DPoP key. */
    public TokenGrant(String grantId, String clientId, String userId, String scope, Instant authTime,
                      Instant createdAt, Instant revokedAt, Set<String> amr, List<String> resources,
                      String sid, String claims) {
        this(grantId, clientId, userId, scope, authTime, createdAt, revokedAt, amr, resources, sid, claims, null);
    }

    /** A grant of a request without the {@code claims} parameter. */
    public TokenGrant(String grantId, String clientId, String userId, String scope, Instant authTime,
                      Instant createdAt, Instant revokedAt, Set<String> amr, List<String> resources, String sid) {
        this(grantId, clientId, userId, scope, authTime, createdAt, revokedAt, amr, resources, sid, null);
    }

    /** The {@code claims} parameter of the authorization request, {@link ClaimsRequest#NONE} without one. */
    public ClaimsRequest claimsRequest() {
        return ClaimsRequest.stored(claims);
    }

    /** A grant authorized without resources. */
    public TokenGrant(String grantId, String clientId, String userId, String scope, Instant authTime,
                      Instant createdAt, Instant revokedAt, Set<String> amr) {
        this(grantId, clientId, userId, scope, authTime, createdAt, revokedAt, amr, List.of(), null);
    }

    /** A grant of a session without a {@code sid} (started before V18), or without a session. */
    public TokenGrant(String grantId, String clientId, String userId, String scope, Instant authTime,
                      Instant createdAt, Instant revokedAt, Set<String> amr, List<String> resources) {
        this(grantId, clientId, userId, scope, authTime, createdAt, revokedAt, amr, resources, null);
    }

    /** A new, live grant of a request without the {@code claims} parameter. */
    TokenGrant(String grantId, String clientId, String userId, String scope, Instant authTime, Instant now,
               Set<String> amr, List<String> resources, String sid) {
        this(grantId, clientId, userId, scope, authTime, now, amr, resources, sid, null, null);
    }

    /** A new, live grant. */
    TokenGrant(String grantId, String clientId, String userId, String scope, Instant authTime, Instant now,
               Set<String> amr, List<String> resources, String sid, String claims, String dpopJkt) {
        this(grantId, clientId, userId, scope, Instant.ofEpochSecond(authTime.getEpochSecond()),
                Instant.ofEpochSecond(now.getEpochSecond()), null, amr, resources, sid, claims, dpopJkt);
    }

    /** When the family ends, however often it is refreshed ({@code portcullis.refresh-token.max-lifetime}). */
    public Instant endsAt(Duration maxLifetime) {
        return createdAt.plus(maxLifetime);
    }

    /** Expiry of a new refresh token of this family: {@code ttl} from now, but never past the family's end. */
    Instant refreshTokenExpiry(Instant now, Duration ttl, Duration maxLifetime) {
        Instant full = now.plus(ttl);
        Instant end = endsAt(maxLifetime);
        return full.isAfter(end) ? end : full;
    }

    public boolean isRevoked() {
        return revokedAt != null;
    }
}
