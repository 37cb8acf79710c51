package dev.portcullis.token;

import dev.portcullis.account.SignInService;
import dev.portcullis.audit.AuditEvent;
import dev.portcullis.audit.AuditLog;
import dev.portcullis.authorize.AuthorizationCode;
import dev.portcullis.authorize.AuthorizationCodeRepository;
import dev.portcullis.config.TestSettings;
import dev.portcullis.config.TokenSettings;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/** Hand-written stand-ins for the grant handlers' collaborators: in memory, recording what they were asked. */
final class GrantFakes {

    static final Instant NOW = Instant.ofEpochSecond(1_700_000_000L);
    static final Clock CLOCK = Clock.fixed(NOW, ZoneOffset.UTC);
    static final TokenResponse ISSUED = new TokenResponse("access", 300, Optional.of("refresh"), "openid",
            NOW.getEpochSecond(), Optional.empty());

    private GrantFakes() {
    }

    /** Answers each lookup of a value with the next of its queued codes (the last one repeats). */
    static final class Codes extends AuthorizationCodeRepository {
        final Map<String, Deque<AuthorizationCode>> byValue = new HashMap<>();
        int lookups;

        Codes with(String value, AuthorizationCode... answers) {
            byValue.put(value, new ArrayDeque<>(List.of(answers)));
            return this;
        }

        @Override
        public Optional<AuthorizationCode> find(String code) {
            lookups++;
            Deque<AuthorizationCode> answers = byValue.get(code);
            if (answers == null) {
                return Optional.empty();
            }
            return Optional.of(answers.size() > 1 ? answers.poll() : answers.peek());
        }
    }

    static final class Grants extends TokenGrantRepository {
        final Map<String, RefreshTokenStatus> refreshTokens = new HashMap<>();
        final List<String> revoked = new ArrayList<>();

        @Override
        public Optional<RefreshTokenStatus> findRefreshToken(String value) {
            return Optional.ofNullable(refreshTokens.get(value));
        }

        @Override
        public boolean revokeGrant(String grantId) {
            revoked.add(grantId);
            return true;
        }
    }

    /** Issues {@link #ISSUED}, or loses the race when told to; records what it issued for. */
    static final class Issuer extends TokenIssuer {
        boolean loseRace;
        final List<Object> issuedFor = new ArrayList<>();
        String rotatedScope;
        dev.portcullis.api.AccessTokenAudience audience;

        @Override
        public Issued redeem(AuthorizationCode code, dev.portcullis.api.AccessTokenAudience audience,
                             boolean idTokenClaims, String ip, String dpopJkt, String refreshJkt) {
            if (loseRace) {
                throw new LostRace();
            }
            issuedFor.add(code);
            this.audience = audience;
            return new Issued(null, ISSUED);
        }

        @Override
        public Issued rotate(RefreshToken token, TokenGrant grant, String scope,
                             dev.portcullis.api.AccessTokenAudience audience, boolean idTokenClaims, String ip,
                             String dpopJkt) {
            if (loseRace) {
                throw new LostRace();
            }
            issuedFor.add(token);
            rotatedScope = scope;
            this.audience = audience;
            return new Issued(grant, ISSUED);
        }
    }

    /** The APIs of a request: {@link #registered}, and Portcullis's own at {@link #OWN_API}; ES256 by default. */
    static final class Apis extends dev.portcullis.api.ResourceIndicatorService {
        static final String OWN_API = "https://issuer.example/api";
        final List<dev.portcullis.api.RegisteredApi> registered = new ArrayList<>();

        @Override
        public dev.portcullis.api.ApiDirectory directory() {
            return new dev.portcullis.api.ApiDirectory(OWN_API, registered);
        }

        @Override
        public String ownIdentifier() {
            return OWN_API;
        }

        @Override
        public String defaultSigningAlg() {
            return "ES256";
        }
    }

    /** The refresh-token lifetimes of the default configuration. */
    static final class Config {
        static final Duration TTL = Duration.ofDays(30);
        static final Duration MAX_LIFETIME = Duration.ofDays(90);

        static TokenSettings tokens() {
            return TestSettings.tokens(Map.of("portcullis.refresh-token.ttl", String.valueOf(TTL.toSeconds()),
                    "portcullis.refresh-token.max-lifetime", String.valueOf(MAX_LIFETIME.toSeconds())));
        }
    }

    static final class Audit extends AuditLog {
        final List<AuditEvent.Type> failures = new ArrayList<>();
        final List<String> details = new ArrayList<>();

        @Override
        public void failure(AuditEvent.Type type, String clientId, String subject, String ip, String detail) {
            failures.add(type);
            details.add(detail);
        }
    }

    /** Users whose directory entry is gone or disabled: {@link SignInService#stillAllowed} is false for them. */
    static final class SignIns extends SignInService {
        Set<String> refused = Set.of();

        @Override
        public boolean stillAllowed(String userId) {
            return !refused.contains(userId);
        }
    }
}
