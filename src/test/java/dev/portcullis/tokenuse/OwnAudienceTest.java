package dev.portcullis.tokenuse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.portcullis.account.User;
import dev.portcullis.account.UserRepository;
import dev.portcullis.protocol.OAuthError;
import dev.portcullis.protocol.OAuthException;
import dev.portcullis.token.AccessTokenVerifier;
import dev.portcullis.token.AccessTokenVerifier.VerifiedAccessToken;
import java.lang.reflect.Method;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Portcullis's own resource endpoints take only tokens for Portcullis's own API: userinfo and {@code /api/v1} refuse
 * a valid token issued for a registered API (its {@code aud} is that API), as its own backend would refuse theirs;
 * introspection, which answers about every token of this issuer, finds it and reports its audience. The verifier's
 * audience rule itself is {@code AccessTokenVerifierTest}'s; here each endpoint must ask for the right check.
 */
class OwnAudienceTest {

    private static final String OWN = "https://id.example.com/api";
    private static final String PAYROLL = "https://payroll.corp.example";

    /** Every scope of the endpoints, so that only the audience can decide. */
    private static final Set<String> SCOPES = Set.of("openid", "profile", "read_user", "api");

    /** Valid tokens by value: for Portcullis's API, for a registered API, for the two. */
    private static final Map<String, VerifiedAccessToken> TOKENS = Map.of(
            "own.t.1", token("j-own", List.of(OWN)),
            "payroll.t.1", token("j-payroll", List.of(PAYROLL)),
            "both.t.1", token("j-both", List.of(PAYROLL, OWN)));

    private static VerifiedAccessToken token(String jti, List<String> audience) {
        return new VerifiedAccessToken(jti, "u1", "frontend", SCOPES, Instant.now().plusSeconds(300), "g1", "u1",
                audience);
    }

    /** The verifier's two answers as it gives them: {@link #check} for Portcullis's own audience only. */
    private static final class Verifier extends AccessTokenVerifier {
        @Override
        public Optional<VerifiedAccessToken> check(String token) {
            return checkAnyAudience(token).filter(t -> t.audience().contains(OWN));
        }

        @Override
        public Optional<VerifiedAccessToken> checkAnyAudience(String token) {
            return Optional.ofNullable(TOKENS.get(token));
        }
    }

    private static OAuthException refusal(Runnable call) {
        return assertThrows(OAuthException.class, call::run);
    }

    /** Thrown by the user lookup: the token got past every check of the token itself. */
    private static final class ReachedTheUser extends RuntimeException {
        private static final long serialVersionUID = 1L;
    }

    @Test
    void userinfoRefusesATokenForAnotherApi() {
        UserInfoEndpoint userinfo = new UserInfoEndpoint();
        userinfo.verifier = new Verifier();
        userinfo.users = new UserRepository() {
            @Override
            public Optional<User> findCached(String userId) {
                throw new ReachedTheUser();
            }
        };
        assertThrows(ReachedTheUser.class, () -> userinfo.claims("own.t.1"));
        assertThrows(ReachedTheUser.class, () -> userinfo.claims("both.t.1"), "Portcullis's API among its audiences");
        OAuthException e = refusal(() -> userinfo.claims("payroll.t.1"));
        assertEquals(OAuthError.INVALID_TOKEN, e.error());
        assertEquals(401, e.status());
    }

    @Test
    void apiV1RefusesATokenForAnotherApi() throws Exception {
        DelegationFilter filter = new DelegationFilter();
        filter.verifier = new Verifier();
        Method me = MeResource.class.getMethod("me");
        assertEquals("j-own", filter.decide(me, MeResource.class, "Bearer own.t.1").orElseThrow().jti());
        assertEquals("j-both", filter.decide(me, MeResource.class, "Bearer both.t.1").orElseThrow().jti());
        OAuthException e = refusal(() -> filter.decide(me, MeResource.class, "Bearer payroll.t.1"));
        assertEquals(OAuthError.INVALID_TOKEN, e.error());
        assertEquals(401, e.status());
        Method revoke = MeResource.class.getMethod("revoke", String.class);
        assertEquals(401, refusal(() -> filter.decide(revoke, MeResource.class, "Bearer payroll.t.1")).status());
    }

    @Test
    void introspectionFindsATokenForAnotherApiWithItsAudience() {
        PresentedToken presented = new PresentedToken();
        presented.accessTokens = new Verifier();
        PresentedToken.Found found = presented.find("payroll.t.1", Optional.empty()).orElseThrow();
        assertEquals(List.of(PAYROLL), ((PresentedToken.Access) found).token().audience());
    }
}
