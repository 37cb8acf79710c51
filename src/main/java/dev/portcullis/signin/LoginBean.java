package dev.portcullis.signin;

import dev.portcullis.account.SignInService;
import dev.portcullis.authorize.AuthorizationRequest;
import dev.portcullis.mfa.SecondFactors;
import dev.portcullis.session.AuthMethods;
import dev.portcullis.session.BrowserCookies;
import dev.portcullis.session.SsoSessions;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.inject.Named;
import java.util.Optional;

/**
 * Backing bean of {@code /login.xhtml}. Wrong credentials, an unknown user, a slow-down and a lock all show the form
 * again with HTTP 200, the username kept and the password never echoed; "busy, try again" (too many password checks
 * at once) and "directory unavailable" show it with HTTP 503; a directory account that is disabled, locked or whose
 * password expired gets a message saying so. A successful sign-in starts an SSO session
 * (cookie {@code portcullis_session}) that remembers the password as its first factor, rotates the CSRF cookie and
 * continues the authorization with a 303 (to the second-factor page when one is needed).
 */
@Named("loginBean")
@RequestScoped
public class LoginBean extends AuthorizationPage {

    @Inject
    SignInService signIn;

    @Inject
    SecondFactors factors;

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
                Optional<String> old = BrowserCookies.read(servletRequest(), BrowserCookies.SESSION,
                        config.issuerIsHttps());
                old.ifPresent(sessions::end);
                String userId = result.user().orElseThrow().userId();
                SsoSessions.Started started = sessions.start(userId, r.fingerprint(), r.client().clientId(), ip(),
                        AuthMethods.PWD, factors.hasTotp(userId));
                BrowserCookies.set(servletResponse(), BrowserCookies.SESSION, started.cookieValue(),
                        config.sessionMaxTtl(), config.issuerIsHttps());
                BrowserCookies.rotateCsrf(servletResponse(), config.issuerIsHttps());
                redirect(flow.afterSignIn(r, started.session(), true, ip()).location(), 303);
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
