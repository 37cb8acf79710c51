package dev.portcullis.signin;

import dev.portcullis.account.SignInService;
import dev.portcullis.authorize.AuthorizationRequest;
import dev.portcullis.config.SecondFactorSettings;
import dev.portcullis.config.SessionSettings;
import dev.portcullis.kerberos.KerberosSignInService;
import dev.portcullis.kerberos.NegotiateHeader;
import dev.portcullis.mfa.PasskeyService;
import dev.portcullis.mfa.SecondFactorService;
import dev.portcullis.session.AuthMethods;
import dev.portcullis.session.BrowserCookies;
import dev.portcullis.session.SsoSessionRepository;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.inject.Named;
import java.util.Base64;
import java.util.Optional;
import java.util.Set;

/**
 * Backing bean of {@code /login.xhtml}. Wrong credentials, an unknown user, a slow-down and a lock all show the form
 * again with HTTP 200, the username kept and the password never echoed; "busy, try again" (too many password checks
 * at once) and "directory unavailable" show it with HTTP 503; a directory account that is disabled, locked or whose
 * password expired gets a message saying so. A successful sign-in starts an SSO session
 * (cookie {@code portcullis_session}) that remembers the password as its first factor, rotates the CSRF cookie and
 * continues the authorization with a 303 (to the second-factor page when one is needed). Where the operator allows
 * it ({@code portcullis.mfa.passwordless}), a discoverable passkey with user verification signs in alone.
 *
 * <p>With Windows integrated sign-in ({@code portcullis.kerberos.*}), the GET of the page without a Negotiate header
 * answers 401 with {@code WWW-Authenticate: Negotiate} and the form as its body; the browser's Kerberos token then
 * signs in with no form ({@code amr} {@code wia}), a replayed one gets a fresh challenge, and a refused token shows the
 * form without a new challenge. It is not offered for {@code prompt=login}, nor when a live session fell short of
 * {@code max_age}: the user is to type their credentials.
 */
@Named("loginBean")
@RequestScoped
public class LoginBean extends AuthorizationPage {

    @Inject
    SecondFactorService factors;

    @Inject
    PasskeyService passkeys;

    @Inject
    SessionSettings sessionSettings;

    @Inject
    SecondFactorSettings secondFactorSettings;

    @Inject
    KerberosSignInService kerberos;

    private PasskeyService.Ceremony ceremony;

    private String username;
    private String password;

    @Override
    protected String formId() {
        return "login";
    }

    @Override
    protected void onLoad(AuthorizationRequest r) {
        if (r.loginHint() != null && r.loginHint().length() <= 100) {
            username = r.loginHint();
        }
        if (kerberos.offeredTo(ip()) && !r.promptLogin() && !(r.maxAge() != null && hasLiveSession())) {
            negotiate(r);
        }
    }

    /** The Negotiate exchange of a GET: a challenge, or a sign-in with the browser's token. */
    private void negotiate(AuthorizationRequest r) {
        NegotiateHeader header = NegotiateHeader.parse(servletRequest().getHeader("Authorization"));
        if (header.kind() == NegotiateHeader.Kind.ABSENT || header.kind() == NegotiateHeader.Kind.OTHER_SCHEME) {
            challenge();
            return;
        }
        KerberosSignInService.Result result = kerberos.signIn(header, r.client().clientId(), ip());
        switch (result.outcome()) {
            // a used token: a browser answers a fresh challenge with a new one, a replayed header gets nothing else
            case REPLAYED -> challenge();
            case SIGNED_IN -> {
                result.responseToken().ifPresent(t -> servletResponse().setHeader("WWW-Authenticate",
                        "Negotiate " + Base64.getEncoder().encodeToString(t)));
                String userId = result.user().orElseThrow().userId();
                startSession(r, userId, AuthMethods.of(AuthMethods.WIA),
                        factors.hasTotp(userId) || passkeys.has(userId));
            }
            case USER_REFUSED -> message("login.kerberos-refused");
            case DISABLED -> message("login.disabled");
            case LOCKED -> message("login.directory-locked");
            case UNAVAILABLE -> {
                message("login.unavailable");
                servletResponse().setStatus(503);
                servletResponse().setHeader("Retry-After", "30");
            }
            default -> {
                // TICKET_REFUSED: the form, with no new challenge (the browser has nothing better to offer)
            }
        }
    }

    /** 401 with {@code WWW-Authenticate: Negotiate}; the form is its body, which a browser without a ticket shows. */
    private void challenge() {
        servletResponse().setStatus(401);
        servletResponse().setHeader("WWW-Authenticate", "Negotiate");
    }

    private boolean hasLiveSession() {
        return BrowserCookies.read(servletRequest(), BrowserCookies.SESSION, issuer.isHttps())
                .flatMap(sessions::findLive).isPresent();
    }

    /** The form's action. */
    public String signIn() {
        AuthorizationRequest r = resolve(303);
        String typed = password;
        password = null;
        if (r == null || !csrfValid()) {
            return null;
        }
        SignInService.Result result = signIn.signIn(username, typed, r.client().clientId(), ip());
        switch (result.outcome()) {
            case SIGNED_IN -> {
                String userId = result.user().orElseThrow().userId();
                startSession(r, userId, AuthMethods.of(AuthMethods.PWD),
                        factors.hasTotp(userId) || passkeys.has(userId));
            }
            case WAIT -> message("login.wait");
            case LOCKED -> message("login.locked");
            case BUSY -> {
                // 503: the sign-in was not checked at all, and may be retried right away elsewhere or in a moment
                message("login.busy");
                servletResponse().setStatus(503);
                servletResponse().setHeader("Retry-After", "5");
            }
            case UNAVAILABLE -> {
                // 503: the directory did not answer; nothing was checked or written
                message("login.unavailable");
                servletResponse().setStatus(503);
                servletResponse().setHeader("Retry-After", "30");
            }
            case ACCOUNT_DISABLED -> message("login.disabled");
            case ACCOUNT_LOCKED -> message("login.directory-locked");
            case PASSWORD_EXPIRED -> message("login.password-expired");
            default -> message("login.invalid");
        }
        return null;
    }

    /**
     * The passkey form's action (passwordless): the browser's assertion (field {@code passkey}) answering the
     * challenge given to this browser's CSRF cookie. The session's methods are the passkey ({@code hwk}) and the
     * authenticator's user verification ({@code user}). A refused one answers 400; off unless the operator allows it.
     */
    public String passkeySignIn() {
        AuthorizationRequest r = resolve(303);
        if (r == null || !csrfValid()) {
            return null;
        }
        if (!secondFactorSettings.passwordless()) {
            passkeyNotAccepted(SecondFactorService.Outcome.INVALID);
            return null;
        }
        PasskeyService.SignIn result = passkeys.signInPasswordless(servletRequest().getParameter("passkey"),
                passwordlessBinding(), r.client().clientId(), ip());
        if (result.outcome() == SecondFactorService.Outcome.ACCEPTED) {
            startSession(r, result.user().orElseThrow().userId(), AuthMethods.of(AuthMethods.HWK, AuthMethods.USER),
                    true);
        } else {
            passkeyNotAccepted(result.outcome());
        }
        return null;
    }

    /**
     * Starts a session with {@code amr} in place of the browser's earlier one (whose sid and clients it keeps when it
     * is the same user's), rotates the CSRF cookie and goes on.
     */
    private void startSession(AuthorizationRequest r, String userId, Set<String> amr, boolean factorEnrolled) {
        Optional<String> earlier = BrowserCookies.read(servletRequest(), BrowserCookies.SESSION, issuer.isHttps());
        SsoSessionRepository.Started started = sessions.start(earlier, userId, r.fingerprint(), r.client().clientId(), ip(),
                amr, factorEnrolled);
        BrowserCookies.set(servletResponse(), BrowserCookies.SESSION, started.cookieValue(), sessionSettings.maxTtl(),
                issuer.isHttps());
        BrowserCookies.rotateCsrf(servletResponse(), issuer.isHttps());
        send(flow.afterSignIn(r, started.session(), true, ip()), 303);
    }

    /** Whether the page offers "sign in with a passkey" ({@code portcullis.mfa.passwordless}). */
    public boolean isPasswordless() {
        return secondFactorSettings.passwordless();
    }

    /**
     * The passwordless ceremony of this page view: a challenge bound to this browser's CSRF cookie (there is no
     * session yet) and sealed rather than stored, so that viewing the page writes nothing; no credential list (the
     * authenticator offers its discoverable passkeys), user verification required.
     */
    public PasskeyService.Ceremony getPasskeyCeremony() {
        if (ceremony == null) {
            ceremony = passkeys.begin(PasskeyService.Purpose.PASSWORDLESS, passwordlessBinding(), null);
        }
        return ceremony;
    }

    private String passwordlessBinding() {
        return "csrf:" + getCsrf();
    }

    public String getUsername() {
        return username;
    }

    public void setUsername(String username) {
        this.username = username;
    }

    /** Always empty: the password is never written back into the page. */
    public String getPassword() {
        return null;
    }

    public void setPassword(String password) {
        this.password = password;
    }
}
