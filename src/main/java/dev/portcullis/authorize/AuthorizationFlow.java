package dev.portcullis.authorize;

import dev.portcullis.audit.AuditEvent;
import dev.portcullis.audit.AuditLog;
import dev.portcullis.client.Scopes;
import dev.portcullis.config.IssuerSettings;
import dev.portcullis.config.SecondFactorSettings;
import dev.portcullis.consent.ConsentRepository;
import dev.portcullis.metrics.Metrics;
import dev.portcullis.protocol.OAuthError;
import dev.portcullis.protocol.OAuthException;
import dev.portcullis.session.AuthMethods;
import dev.portcullis.session.SsoSession;
import dev.portcullis.session.SsoSessionRepository;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * What happens next with a validated authorization request: the sign-in page, the consent page, or the redirect to
 * the client with a code or an error. Shared by the endpoint and the two pages, so the rules are in one place:
 * <ol>
 *   <li>no live session, {@code prompt=login} or {@code max_age} elapsed: sign in ({@code login_required} with
 *       {@code prompt=none});</li>
 *   <li>the session has one factor and the request needs two ({@link #needsSecondFactor}): the second-factor page
 *       (a step-up; {@code login_required} with {@code prompt=none});</li>
 *   <li>client not {@code skip_consent} and the scopes not yet granted, or {@code prompt=consent}: consent
 *       ({@code consent_required} with {@code prompt=none});</li>
 *   <li>otherwise issue a code.</li>
 * </ol>
 * The consent page applies rule 1 again, because a browser can open it with any request: a request that demands a
 * fresh sign-in is answered only with a session whose sign-in was made for exactly that request, a few minutes ago,
 * and that sign-in serves one consent answer only (OIDC Core 3.1.2.1).
 */
@ApplicationScoped
public class AuthorizationFlow {

    public static final String LOGIN_PAGE = "/login.xhtml";
    public static final String CONSENT_PAGE = "/consent.xhtml";
    public static final String SECOND_FACTOR_PAGE = "/factor.xhtml";

    /** How long after signing in for a request that demanded it the user may answer its consent page. */
    static final Duration SIGN_IN_TO_CONSENT = Duration.ofMinutes(10);

    @Inject
    IssuerSettings issuer;

    @Inject
    Metrics metrics;

    @Inject
    SecondFactorSettings secondFactorSettings;

    @Inject
    ConsentRepository consents;

    @Inject
    AuthorizationCodeRepository codes;

    @Inject
    AuditLog audit;

    @Inject
    SsoSessionRepository sessions;

    @Inject
    Clock clock;

    /**
     * Where the browser goes next: a page of ours (with the pending request in its query), or the client with an
     * authorization response, which is a redirect unless it is a {@link ResponseMode#FORM_POST} page.
     */
    public record Next(String page, AuthorizationResponse toClient) {

        static Next page(String location) {
            return new Next(location, null);
        }

        static Next client(AuthorizationResponse response) {
            return new Next(null, response);
        }

        /** The form post page's answer instead of a redirect. */
        public boolean formPost() {
            return toClient != null && toClient.mode() == ResponseMode.FORM_POST;
        }

        /** Where to redirect; not for a {@link #formPost()}. */
        public String location() {
            return toClient == null ? page : toClient.location();
        }
    }

    /** The endpoint's decision for a fresh request with the browser's session, if any. */
    public Next atEndpoint(AuthorizationRequest r, Optional<SsoSession> session, String ip) {
        if (session.isEmpty() || demandsSignIn(r, session.get())) {
            return signIn(r);
        }
        return afterSignIn(r, session.get(), true, ip);
    }

    /**
     * Whether the consent page may be shown for this request with this session: rule 1 holds, or the session's
     * sign-in was made for this very request (see the class comment). Reads only; {@link #afterConsent} uses it up.
     */
    public boolean consentMayFollow(AuthorizationRequest r, SsoSession session) {
        return signInHolds(r, session) && !needsSecondFactor(r, session);
    }

    /**
     * Whether the session's sign-in is good enough for this request apart from a second factor: rule 1 holds, or
     * the sign-in was made for this very request a few minutes ago. The second-factor page asks this first.
     */
    public boolean signInHolds(AuthorizationRequest r, SsoSession session) {
        return !demandsSignIn(r, session) || session.signedInFor(r.fingerprint(), signInNotBefore());
    }

    /**
     * Whether this request needs a second factor the session has not given: one is owed anyway
     * ({@link #secondFactorOwed}), or the request asks for {@link AuthMethods#ACR_MFA} in {@code acr_values} and the
     * user has a factor to give.
     */
    public boolean needsSecondFactor(AuthorizationRequest r, SsoSession session) {
        return secondFactorOwed(session, r.client().requireMfa())
                || !session.isMultiFactor() && session.factorEnrolled() && AuthMethods.asksForMultiFactor(r.acrValues());
    }

    /**
     * Whether the session's sign-in is unfinished for a client: it has one factor and the client requires two, or
     * the global policy does ({@code portcullis.mfa.required}: everyone, or enrolled for a user who has a factor).
     * A user without a factor then enrols one before going on.
     */
    public boolean secondFactorOwed(SsoSession session, boolean clientRequiresMfa) {
        SecondFactorSettings.MfaRequired policy = secondFactorSettings.mfaRequired();
        return !session.isMultiFactor() && (clientRequiresMfa || policy == SecondFactorSettings.MfaRequired.EVERYONE
                || policy == SecondFactorSettings.MfaRequired.ENROLLED && session.factorEnrolled());
    }

    /**
     * After the user is known (just signed in, or by session at the endpoint). {@code promptConsentPending} is false
     * once the consent page has been answered, so prompt=consent asks only once.
     */
    public Next afterSignIn(AuthorizationRequest r, SsoSession session, boolean promptConsentPending, String ip) {
        if (needsSecondFactor(r, session)) {
            return secondFactor(r);
        }
        // claims asked for one by one beyond the scopes are not remembered with a consent: asked each time
        boolean ask = !r.client().skipConsent()
                && (r.promptConsent() && promptConsentPending
                    || !consents.covers(session.userId(), r.client().clientId(), r.scopes())
                    || !Scopes.claimsBeyond(r.claims().names(), r.scopes()).isEmpty());
        if (ask) {
            if (r.promptNone()) {
                return error(r, new OAuthException(OAuthError.CONSENT_REQUIRED, "The user has not approved this client"));
            }
            return page(CONSENT_PAGE, r);
        }
        return issueCode(r, session, ip);
    }

    /** The user answered the consent page. */
    public Next afterConsent(AuthorizationRequest r, SsoSession session, boolean allow, String ip) {
        if (demandsSignIn(r, session) && !sessions.useSignIn(session, r.fingerprint(), signInNotBefore())) {
            return signIn(r);
        }
        if (needsSecondFactor(r, session)) {
            return secondFactor(r);
        }
        if (!allow) {
            audit.failure(AuditEvent.Type.CONSENT_DENIED, r.client().clientId(), session.userId(), ip, r.scope());
            return error(r, new OAuthException(OAuthError.ACCESS_DENIED, "The user denied the request"));
        }
        consents.grant(session.userId(), r.client().clientId(), r.scopes());
        audit.success(AuditEvent.Type.CONSENT_GRANTED, r.client().clientId(), session.userId(), ip, r.scope());
        return issueCode(r, session, ip);
    }

    /** A validation error after step 1, sent to the client. */
    public Next rejected(RejectedAuthorizationRequest e) {
        metrics.authorizationRefused(e.error().error().code());
        return Next.client(e.response(issuer.issuerString()));
    }

    private Next issueCode(AuthorizationRequest r, SsoSession session, String ip) {
        for (String subject : r.claims().subjects()) {
            if (!subject.equals(session.userId())) {
                // OIDC Core 5.5.1: never a positive answer for a user other than the one the request names
                return error(r, new OAuthException(OAuthError.ACCESS_DENIED,
                        "The signed-in user is not the one the claims parameter names"));
            }
        }
        sessions.noteClient(session, r.client().clientId());
        String code = codes.issue(AuthorizationCode.CodeRequest.builder()
                .clientId(r.client().clientId())
                .userId(session.userId())
                .redirectUri(r.redirectUri())
                .redirectUriGiven(r.redirectUriGiven())
                .scope(r.scope())
                .nonce(r.nonce())
                .codeChallenge(r.codeChallenge())
                .codeChallengeMethod(r.codeChallengeMethod())
                .authTime(session.authTime())
                .sessionHash(session.sessionHash())
                .sid(session.sid())
                .amr(session.amr())
                .resources(r.resources())
                .claims(r.claims().toJson())
                .build(), ip);
        return Next.client(ClientRedirect.success(r.redirectUri(), r.responseMode(), code, r.state(),
                issuer.issuerString()));
    }

    private Next error(AuthorizationRequest r, OAuthException e) {
        metrics.authorizationRefused(e.error().code());
        return Next.client(ClientRedirect.error(r.redirectUri(), r.responseMode(), e.error().code(), e.description(),
                r.state(), issuer.issuerString()));
    }

    private Next page(String path, AuthorizationRequest r) {
        return Next.page(issuer.endpoint(path) + "?" + r.query());
    }

    private Next signIn(AuthorizationRequest r) {
        if (r.promptNone()) {
            return error(r, new OAuthException(OAuthError.LOGIN_REQUIRED, "The user is not signed in"));
        }
        return page(LOGIN_PAGE, r);
    }

    private Next secondFactor(AuthorizationRequest r) {
        if (r.promptNone()) {
            return error(r, new OAuthException(OAuthError.LOGIN_REQUIRED, "A second factor is needed"));
        }
        return page(SECOND_FACTOR_PAGE, r);
    }

    private boolean demandsSignIn(AuthorizationRequest r, SsoSession s) {
        return r.promptLogin() || maxAgeElapsed(r, s);
    }

    private Instant signInNotBefore() {
        return clock.instant().minus(SIGN_IN_TO_CONSENT);
    }

    private boolean maxAgeElapsed(AuthorizationRequest r, SsoSession s) {
        return r.maxAge() != null
                && clock.instant().getEpochSecond() - s.authTime().getEpochSecond() >= r.maxAge();
    }
}
