package dev.portcullis.signin;

import dev.portcullis.account.User;
import dev.portcullis.account.UserLookupService;
import dev.portcullis.authorize.AuthorizationFlow;
import dev.portcullis.authorize.AuthorizationRequest;
import dev.portcullis.mfa.FactorChangeService;
import dev.portcullis.mfa.PasskeyService;
import dev.portcullis.mfa.SecondFactorService;
import dev.portcullis.mfa.TotpEnrolmentDisplay;
import dev.portcullis.session.AuthMethods;
import dev.portcullis.session.BrowserCookies;
import dev.portcullis.session.SsoSession;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.inject.Named;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * Backing bean of {@code /factor.xhtml}, the second step of a sign-in (or a step-up): a user with an authenticator
 * types its one-time code or a recovery code, a user with a passkey uses it; a user who must have a second factor
 * and has none enrols one here (an authenticator app: QR code, first code, recovery codes shown once; or a passkey).
 * It works on the browser's SSO session, which already holds the password step, and adds the factor to it before the
 * authorization goes on. Setting up a first factor here satisfies the requirement to have one but is not itself a
 * second factor ({@link FactorChangeService}): the page then asks for the new factor, as for any user who has one. A
 * session whose password is older than {@link FactorChangeService#STEP_UP} is asked for it again before the set-up.
 */
@Named("factorBean")
@RequestScoped
public class SecondFactorBean extends AuthorizationPage {

    @Inject
    SecondFactorService factors;

    @Inject
    UserLookupService users;

    @Inject
    PasskeyService passkeys;

    @Inject
    FactorChangeService changes;

    private String code;
    private String password;
    private SsoSession session;
    private User user;
    private boolean looked;
    // no seed while the set-up waits for the password: the step-up comes before anything is shown
    private final Supplier<TotpEnrolmentDisplay> enrolment = TotpEnrolmentDisplay.pending(
            () -> isEnrolling() && !isPasswordNeeded() ? factors.pendingTotp(user.userId(), session.sessionHash())
                    : Optional.empty(), () -> issuer.issuer(), () -> user.username());
    private List<String> recoveryCodes;
    private Boolean hasTotp;
    private Boolean hasPasskey;
    private PasskeyService.Ceremony ceremony;

    @Override
    protected String formId() {
        return "factor";
    }

    @Override
    protected void onLoad(AuthorizationRequest r) {
        if (!signedIn(r)) {
            redirect(issuer.endpoint("/oauth/authorize") + "?" + r.query(), 302);
        } else if (!flow.needsSecondFactor(r, session)) {
            redirect(issuer.endpoint("/oauth/authorize") + "?" + r.query(), 302);
        }
    }

    /** The verify form's action: a one-time code or a recovery code. */
    public String verify() {
        AuthorizationRequest r = posted();
        if (r == null) {
            return null;
        }
        switch (factors.verify(user, takeCode(), r.client().clientId(), ip())) {
            case ACCEPTED -> proceed(r, sessions.addMethods(session, AuthMethods.OTP));
            case WAIT -> message("login.wait");
            case LOCKED -> message("factor.locked");
            default -> message("factor.invalid");
        }
        return null;
    }

    /**
     * The passkey form's action: the browser's assertion (field {@code passkey}, from /js/passkeys.js) answering this
     * session's challenge. Counted in the throttle like a code; a refused one answers 400.
     */
    public String usePasskey() {
        AuthorizationRequest r = posted();
        if (r == null) {
            return null;
        }
        SecondFactorService.Outcome outcome = passkeys.verifySecondFactor(user, servletRequest().getParameter("passkey"),
                session.sessionHash(), r.client().clientId(), ip());
        if (outcome == SecondFactorService.Outcome.ACCEPTED) {
            proceed(r, sessions.addMethods(session, AuthMethods.HWK));
        } else if (outcome == SecondFactorService.Outcome.LOCKED) {
            message("factor.locked"); // the same lock as the codes', named the same way
        } else {
            passkeyNotAccepted(outcome);
        }
        return null;
    }

    /**
     * Enrolment with a passkey instead of an app, for a user who has no factor at all and must have one for this
     * request (never beside one: whoever knows only the password must not add a factor of their own to pass this
     * step). The page then asks for the new passkey.
     */
    public String registerPasskey() {
        AuthorizationRequest r = posted();
        if (r == null) {
            return null;
        }
        if (!isEnrolling() || !changes.registerPasskey(user, session, null, servletRequest().getParameter("passkey"),
                FactorChangeService.Where.SIGN_IN, ip())) {
            passkeyNotAccepted(SecondFactorService.Outcome.INVALID);
            return null;
        }
        proceed(r, liveSession().orElse(session));
        return null;
    }

    /**
     * The enrolment form's action: the first code from the app confirms it; the recovery codes are shown once. The
     * session's methods stay as they were: the set-up is not a second factor.
     */
    public String confirm() {
        AuthorizationRequest r = posted();
        if (r == null) {
            return null;
        }
        if (!isEnrolling()) {
            message("factor.invalid");
            return null;
        }
        Optional<List<String>> codes = changes.confirmTotp(user, session, takeCode(), FactorChangeService.Where.SIGN_IN,
                ip());
        if (codes.isEmpty()) {
            message("factor.invalid");
            return null;
        }
        recoveryCodes = codes.get();
        return null;
    }

    /**
     * The password again, before a set-up at sign-in in a session that gave it too long ago: checked and throttled
     * as at sign-in ({@link FactorChangeService#stepUpWithPassword}); then the page again, now with the set-up.
     */
    public String stepUpWithPassword() {
        String p = password;
        password = null;
        AuthorizationRequest r = posted();
        if (r == null) {
            return null;
        }
        if (!isPasswordNeeded()) {
            message("factor.invalid");
            return null;
        }
        switch (changes.stepUpWithPassword(user, session, p, r.client().clientId(), ip())) {
            case SIGNED_IN -> redirect(issuer.endpoint(AuthorizationFlow.SECOND_FACTOR_PAGE) + "?" + r.query(), 303);
            case WAIT, BUSY, UNAVAILABLE -> message("login.wait");
            case LOCKED -> message("login.locked");
            default -> message("security.passwordWrong");
        }
        return null;
    }

    /** After the recovery codes were shown: on with the authorization. */
    public String proceed() {
        AuthorizationRequest r = posted();
        if (r != null) {
            proceed(r, session);
        }
        return null;
    }

    /** On with the authorization: a session that still owes a factor comes back here (a new factor is asked for). */
    private void proceed(AuthorizationRequest r, SsoSession s) {
        if (s.isMultiFactor()) {
            BrowserCookies.rotateCsrf(servletResponse(), issuer.isHttps());
        }
        send(flow.afterSignIn(r, s, true, ip()), 303);
    }

    /** The request of a valid POST from a signed-in browser, or null (the page then shows why or has redirected). */
    private AuthorizationRequest posted() {
        AuthorizationRequest r = resolve(303);
        if (r == null || !csrfValid()) {
            code = null;
            return null;
        }
        if (!signedIn(r)) {
            redirect(issuer.endpoint("/oauth/authorize") + "?" + r.query(), 303);
            return null;
        }
        return r;
    }

    /**
     * Whether a live session's sign-in holds for this request (prompt=login and max_age already honoured); looked up
     * once per request, because the page's rendered parts ask too.
     */
    private boolean signedIn(AuthorizationRequest r) {
        if (!looked) {
            looked = true;
            session = liveSession().filter(s -> flow.signInHolds(r, s)).orElse(null);
            user = session == null ? null : users.findById(session.userId()).orElse(null);
        }
        return user != null;
    }

    private String takeCode() {
        String c = code;
        code = null;
        return c;
    }

    /**
     * Whether the page enrols an authenticator: the signed-in user has none yet and this request needs a second
     * factor. Decided from the database on GET and POST alike, so the stateless view decodes the form it rendered.
     */
    public boolean isEnrolling() {
        AuthorizationRequest r = getRequest();
        return recoveryCodes == null && r != null && signedIn(r) && !isHasTotp() && !isHasPasskey()
                && flow.needsSecondFactor(r, session);
    }

    /** Whether the set-up waits for the password: this session gave it longer than the step-up's window ago. */
    public boolean isPasswordNeeded() {
        return isEnrolling() && changes.enrolmentStepUpNeeded(session) == FactorChangeService.StepUp.PASSWORD;
    }

    public boolean isHasTotp() {
        if (hasTotp == null) {
            AuthorizationRequest r = getRequest();
            hasTotp = r != null && signedIn(r) && factors.hasTotp(user.userId());
        }
        return hasTotp;
    }

    public boolean isHasPasskey() {
        if (hasPasskey == null) {
            AuthorizationRequest r = getRequest();
            hasPasskey = r != null && signedIn(r) && passkeys.has(user.userId());
        }
        return hasPasskey;
    }

    /**
     * The passkey ceremony of this page view, bound to the browser's session: an assertion by one of the user's
     * passkeys, or (enrolling) the registration of a first one.
     */
    public PasskeyService.Ceremony getPasskeyCeremony() {
        if (ceremony == null && user != null) {
            ceremony = passkeys.begin(isEnrolling() ? PasskeyService.Purpose.REGISTER : PasskeyService.Purpose.FACTOR,
                    session.sessionHash(), user.userId());
        }
        return ceremony;
    }

    /** The WebAuthn user handle of a registration: the user id (the OIDC sub, random), base64url. */
    public String getUserHandle() {
        return user == null ? "" : Base64.getUrlEncoder().withoutPadding()
                .encodeToString(user.userId().getBytes(StandardCharsets.UTF_8));
    }

    public String getUsername() {
        return user == null ? "" : user.username();
    }

    /** The enrolment's QR code (a PNG data URI); the seed itself is never stored in clear or shown after this. */
    public String getQrCode() {
        return enrolment.get().qrCode();
    }

    /** The same seed for typing into an app that cannot scan, in groups of four. */
    public String getManualKey() {
        return enrolment.get().manualKey();
    }

    public List<String> getRecoveryCodes() {
        return recoveryCodes;
    }

    /** The recovery codes are on the page, or their page's button was pressed (so the stateless view decodes it). */
    public boolean isShowingRecoveryCodes() {
        return recoveryCodes != null || servletRequest().getParameter(formId() + ":proceed") != null;
    }

    /** The name an authenticator app lists the entry under: this server's host. */
    /** Always empty: a code is never written back into the page. */
    public String getCode() {
        return null;
    }

    public void setCode(String code) {
        this.code = code;
    }

    /** Always empty: a password is never written back into the page. */
    public String getPassword() {
        return null;
    }

    public void setPassword(String password) {
        this.password = password;
    }
}
