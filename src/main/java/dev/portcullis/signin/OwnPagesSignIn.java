package dev.portcullis.signin;

import dev.portcullis.authorize.AuthorizationCode;
import dev.portcullis.authorize.AuthorizationCodeRepository;
import dev.portcullis.config.IssuerSettings;
import dev.portcullis.crypto.Secrets;
import dev.portcullis.protocol.Pkce;
import dev.portcullis.session.BrowserCookies;
import dev.portcullis.session.SsoSession;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.transaction.Transactional;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.Base64;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The relying-party half of {@link OwnPage}s: sends a browser without an SSO session to the authorization endpoint
 * as the page's built-in public client (state and PKCE verifier in a short-lived cookie, so any instance can take
 * the callback), and redeems the code at the callback, once, directly on {@link AuthorizationCodeRepository}. No tokens are
 * minted: the code proves that this browser's current SSO session completed a sign-in for this page; from then on
 * the page knows its user from the SSO session ({@link SignedInUser}).
 */
@ApplicationScoped
public class OwnPagesSignIn {

    /** Long enough to type a password and a second factor; the code itself lives much shorter. */
    static final Duration SIGN_IN_TIME = Duration.ofMinutes(15);

    private static final Pattern RETURN_PATH = Pattern.compile("[\\x21-\\x7E]{1,2000}");
    private static final Base64.Encoder B64 = Base64.getUrlEncoder().withoutPadding();

    @Inject
    IssuerSettings issuer;

    @Inject
    AuthorizationCodeRepository codes;

    @Inject
    Clock clock;

    /**
     * The authorization request that signs the browser in to {@code page}; afterwards the callback sends it to
     * {@code returnPath} (a path inside the page, else the page's home).
     */
    public String start(OwnPage page, String returnPath, HttpServletResponse res) {
        String state = Secrets.newSecret();
        String verifier = Secrets.newSecret();
        String back = returnPath != null && returnPath.startsWith(page.root()) && RETURN_PATH.matcher(returnPath)
                .matches() ? returnPath : page.home();
        BrowserCookies.set(res, cookieName(page), state + "." + verifier + "."
                + B64.encodeToString(back.getBytes(StandardCharsets.UTF_8)), SIGN_IN_TIME, issuer.isHttps());
        return issuer.endpoint("/oauth/authorize") + "?response_type=code&scope=openid&client_id=" + page.clientId()
                + "&redirect_uri=" + URLEncoder.encode(issuer.endpoint(page.callback()), StandardCharsets.UTF_8)
                + "&state=" + state + "&code_challenge=" + Pkce.s256Challenge(verifier)
                + "&code_challenge_method=" + Pkce.S256;
    }

    /**
     * The callback: the state matches this browser's cookie, and the code was issued to the page's client for this
     * very SSO session with the cookie's PKCE challenge; then it is redeemed (one conditional UPDATE) and the path to
     * continue to is returned. Empty for anything else (an error from the endpoint, a replay, another browser's
     * code); the sign-in cookie is used up either way.
     */
    @Transactional
    public Optional<String> finish(OwnPage page, HttpServletRequest req, HttpServletResponse res,
                                   Optional<SsoSession> session, String ip) {
        Optional<String> cookie = BrowserCookies.read(req, cookieName(page), issuer.isHttps());
        BrowserCookies.clear(res, cookieName(page), issuer.isHttps());
        String[] parts = cookie.map(c -> c.split("\\.", -1)).orElse(new String[0]);
        String[] state = req.getParameterValues("state");
        String[] code = req.getParameterValues("code");
        if (parts.length != 3 || session.isEmpty() || state == null || state.length != 1 || code == null
                || code.length != 1 || !Secrets.constantTimeEquals(parts[0], state[0])) {
            return Optional.empty();
        }
        AuthorizationCode c = codes.find(code[0]).orElse(null);
        SsoSession s = session.get();
        if (c == null || !c.clientId().equals(page.clientId()) || !c.userId().equals(s.userId())
                || !c.sessionHash().map(s.sessionHash()::equals).orElse(false)
                || !c.redirectUri().equals(issuer.endpoint(page.callback())) || c.isExpired(clock.instant())
                || !Pkce.matches(parts[1], c.codeChallenge().orElse(null), c.codeChallengeMethod().orElse(null))
                || !codes.redeemForOwnPage(c, ip, "signed in to " + page.root())) {
            return Optional.empty();
        }
        String back;
        try {
            back = new String(Base64.getUrlDecoder().decode(parts[2]), StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            back = page.home();
        }
        return Optional.of(back.startsWith(page.root()) && RETURN_PATH.matcher(back).matches() ? back : page.home());
    }

    private static String cookieName(OwnPage page) {
        return page == OwnPage.ACCOUNT ? "portcullis_account_signin" : "portcullis_console_signin";
    }
}
