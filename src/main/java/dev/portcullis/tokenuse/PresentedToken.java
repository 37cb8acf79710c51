package dev.portcullis.tokenuse;

import dev.portcullis.dpop.DpopProofVerifier;
import dev.portcullis.dpop.DpopRefusal;
import dev.portcullis.token.AccessTokenVerifier.VerifiedAccessToken;
import dev.portcullis.token.AccessTokenVerifier;
import dev.portcullis.token.RefreshToken;
import dev.portcullis.token.TokenGrant;
import dev.portcullis.token.TokenGrantRepository;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.List;
import java.util.Optional;

/**
 * Finds what a token string presented to revocation or introspection is: one of our valid access tokens, or one of
 * our refresh tokens with its grant. {@code token_type_hint} only decides which kind is tried first (RFC 7009 2.1,
 * RFC 7662 2.1: the server must extend its search when the hint is wrong); an unknown hint is ignored.
 */
@ApplicationScoped
public class PresentedToken {

    @Inject
    AccessTokenVerifier accessTokens;

    @Inject
    TokenGrantRepository grants;

    @Inject
    DpopProofVerifier dpop;

    /** What was found. */
    public sealed interface Found permits Access, Refresh {
        /** The client the token was issued to. */
        String clientId();
    }

    /** A currently valid access token for any of this issuer's audiences (signature, issuer, expiry, not revoked). */
    public record Access(VerifiedAccessToken token) implements Found {
        @Override
        public String clientId() {
            return token.clientId();
        }
    }

    /** A refresh token of ours, whatever its state, and its grant. */
    public record Refresh(RefreshToken token, TokenGrant grant) implements Found {
        @Override
        public String clientId() {
            return grant.clientId();
        }

        /** Usable now: not yet rotated, not expired, grant not revoked, family within its absolute lifetime. */
        public boolean isActive(java.time.Instant now, java.time.Duration familyMaxLifetime) {
            return !token.isUsed() && !token.isExpired(now) && !grant.isRevoked()
                    && now.isBefore(grant.endsAt(familyMaxLifetime));
        }
    }

    /**
     * RFC 9449: a DPoP-bound token (an access token with {@code cnf.jkt}, a refresh token of a grant bound to a key)
     * is used only with a proof by its key for {@code POST} at {@code url} (with {@code ath} for an access token);
     * refused: {@code invalid_dpop_proof}, JSON 400, as at the token endpoint. An unbound token needs none.
     */
    public void proofFitsBinding(Found found, String value, List<String> proofs, String url) {
        String jkt = found instanceof Access a ? a.token().dpopJkt() : ((Refresh) found).grant().dpopJkt();
        if (jkt == null) {
            return;
        }
        try {
            dpop.verify(proofs, "POST", url, found instanceof Access ? value : null, jkt);
        } catch (DpopRefusal e) {
            throw e.atTokenEndpoint();
        }
    }

    public Optional<Found> find(String value, Optional<String> hint) {
        if (hint.filter("refresh_token"::equals).isPresent()) {
            return refresh(value).or(() -> access(value));
        }
        return access(value).or(() -> refresh(value));
    }

    private Optional<Found> access(String value) {
        // a JWT has two dots; a refresh token has none (cheap pre-check saves a parse)
        return value.indexOf('.') < 0 ? Optional.empty() : accessTokens.checkAnyAudience(value).map(Access::new);
    }

    private Optional<Found> refresh(String value) {
        return grants.findRefreshToken(value).map(f -> new Refresh(f.token(), f.grant()));
    }
}
