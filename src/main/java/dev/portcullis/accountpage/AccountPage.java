package dev.portcullis.accountpage;

import dev.portcullis.account.PasswordChanged;
import dev.portcullis.admin.AccessAdministration;
import dev.portcullis.audit.Actor;
import dev.portcullis.account.SignInService;
import dev.portcullis.account.User;
import dev.portcullis.account.UserService;
import dev.portcullis.audit.AuditEvent;
import dev.portcullis.audit.AuditLog;
import dev.portcullis.client.Scopes;
import dev.portcullis.config.PortcullisConfig;
import dev.portcullis.protocol.OAuthException;
import dev.portcullis.resource.UserAuthorizations;
import dev.portcullis.session.BrowserCookies;
import dev.portcullis.session.SsoSession;
import dev.portcullis.session.SsoSessions;
import dev.portcullis.signin.OwnPage;
import dev.portcullis.signin.SignedInUser;
import dev.portcullis.token.TokenGrant;
import dev.portcullis.token.TokenGrants;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.inject.Named;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.net.MalformedURLException;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * Backing bean of {@code /account/index.xhtml}, a stateless Faces view behind {@code OwnPagesGate}: the signed-in
 * user's profile, their live sessions (end one, or all others), the applications they authorized (withdraw one: its
 * tokens stop working at once) and the password change. Every action checks the form's CSRF token first and answers with a redirect to the page (post/redirect/get)
 * carrying a message key, so a reload never repeats it.
 */
@Named("accountPage")
@RequestScoped
public class AccountPage {

    /** Outcome messages the page may show after a redirect (the query parameter {@code done}). */
    private static final List<String> OUTCOMES = List.of("account.revoked", "account.passwordChanged",
            "account.sessionEnded", "account.othersEnded");

    /** More sessions than anyone keeps by hand; the list shows the first ones. */
    private static final int MAX_SESSIONS = 100;

    private static final DateTimeFormatter WHEN = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm 'UTC'")
            .withZone(ZoneOffset.UTC);

    @Inject
    SignedInUser signedIn;

    @Inject
    UserAuthorizations authorizations;

    @Inject
    TokenGrants grants;

    @Inject
    UserService users;

    @Inject
    SignInService signIn;

    @Inject
    SsoSessions sessions;

    @Inject
    AccessAdministration access;

    @Inject
    AuditLog audit;

    @Inject
    PortcullisConfig config;

    @Inject
    HttpServletRequest request;

    private String currentPassword;
    private String newPassword;
    private String repeatPassword;
    private String errorKey;
    private List<Application> applications;
    private List<Session> sessionList;

    /** One live SSO session of the user; {@code current} is this browser's. */
    public record Session(String id, String started, String lastUsed, String ip, String clients, boolean current) {
    }

    /** One authorized application as the page lists it. */
    public record Application(String clientId, String name, List<String> scopes, String granted, String lastSignIn) {
    }

    public List<Session> getSessions() {
        if (sessionList == null) {
            String mine = signedIn.getSession().sessionId();
            sessionList = access.sessions(signedIn.getUser().username(), null, MAX_SESSIONS).orElse(List.of())
                    .stream().map(v -> {
                        SsoSession s = v.session();
                        return new Session(s.sessionId(), WHEN.format(s.createdAt()), WHEN.format(s.lastSeenAt()),
                                s.ip() == null ? "—" : s.ip(), s.clients().stream()
                                        .map(c -> v.clientNames().getOrDefault(c, c)).collect(Collectors.joining(", ")),
                                s.sessionId().equals(mine));
                    }).collect(Collectors.toList());
        }
        return sessionList;
    }

    /** Ends the session named by the row's hidden field {@code session}, if it is one of this user's. */
    public String endSession() {
        String id = signedIn.parameter("session", 64);
        if (!signedIn.csrfValid()) {
            return refused();
        }
        if (id != null && getSessions().stream().anyMatch(s -> s.id().equals(id))) {
            end(id);
        }
        return done("account.sessionEnded");
    }

    /** Ends every session of the user but this browser's. */
    public String endOtherSessions() {
        if (!signedIn.csrfValid()) {
            return refused();
        }
        getSessions().stream().filter(s -> !s.current()).forEach(s -> end(s.id()));
        return done("account.othersEnded");
    }

    /** Audited with the user as the actor: they ended their own session. */
    private void end(String sessionId) {
        access.endSession(sessionId, Actor.administrator(signedIn.getUserId(), ip()));
    }

    public List<Application> getApplications() {
        if (applications == null) {
            Map<String, Instant> lastSignIn = new HashMap<>();
            for (TokenGrant g : grants.liveGrantsOf(signedIn.getUserId())) {
                lastSignIn.merge(g.clientId(), g.authTime(), (a, b) -> a.isAfter(b) ? a : b);
            }
            applications = authorizations.list(signedIn.getUserId()).stream()
                    .map(a -> new Application(a.clientId(), a.clientName(), Scopes.parse(a.scope()).stream()
                            .map(s -> signedIn.getMsg().get("scope." + s)).collect(Collectors.toList()),
                            WHEN.format(a.grantedAt()), Optional.ofNullable(lastSignIn.get(a.clientId()))
                                    .map(WHEN::format).orElse("—")))
                    .collect(Collectors.toList());
        }
        return applications;
    }

    /** Withdraws the application named by the row's hidden field {@code client}. */
    public String revokeApplication() {
        String clientId = signedIn.parameter("client", 64);
        if (!signedIn.csrfValid()) {
            return refused();
        }
        if (clientId != null && authorizations.revoke(signedIn.getUserId(), clientId)) {
            audit.success(AuditEvent.Type.GRANT_REVOKED, clientId, signedIn.getUserId(), ip(), "on the account page");
        }
        return done("account.revoked");
    }

    /**
     * Changes the password of a local account. The current password is checked as a sign-in (throttled and audited
     * like one). The change ends every SSO session and token family of the user ({@link PasswordChanged}); this
     * browser then gets a new session at once, because it has just proved the current password: staying signed in
     * here is what the user expects, and everything the old password opened elsewhere is gone.
     */
    public String changePassword() {
        String current = currentPassword;
        String fresh = newPassword;
        String repeat = repeatPassword;
        currentPassword = null;
        newPassword = null;
        repeatPassword = null;
        if (!signedIn.csrfValid()) {
            return refused();
        }
        if (!isLocal()) {
            return failed("account.password.notLocal");
        }
        if (fresh == null || !fresh.equals(repeat)) {
            return failed("account.password.mismatch");
        }
        if (fresh.length() < UserService.MIN_PASSWORD || fresh.length() > UserService.MAX_PASSWORD) {
            return failed("account.password.length");
        }
        User user = signedIn.getUser();
        SignInService.Result check = signIn.signIn(user.username(), current, OwnPage.ACCOUNT.clientId(), ip());
        if (check.outcome() != SignInService.Outcome.SIGNED_IN) {
            return failed(check.outcome() == SignInService.Outcome.INVALID ? "account.password.wrong" : "login.wait");
        }
        Optional<PasswordChanged> changed;
        try {
            changed = users.changePassword(user.username(), fresh);
        } catch (OAuthException e) {
            return failed("account.password.length");
        }
        audit.success(AuditEvent.Type.USER_PASSWORD_CHANGED, OwnPage.ACCOUNT.clientId(), user.userId(), ip(),
                "by the user on the account page" + changed.map(c -> "; " + c.consequences()).orElse(""));
        HttpServletResponse res = signedIn.response();
        // the new session keeps the factors of the one it replaces: the user proved their password just now
        SsoSession before = signedIn.getSession();
        SsoSessions.Started started = sessions.start(user.userId(), null, OwnPage.ACCOUNT.clientId(), ip(),
                before.amr(), before.factorEnrolled());
        BrowserCookies.set(res, BrowserCookies.SESSION, started.cookieValue(), config.sessionMaxTtl(),
                config.issuerIsHttps());
        BrowserCookies.rotateCsrf(res, config.issuerIsHttps());
        return done("account.passwordChanged");
    }

    /** Whether the password is Portcullis's to change: a directory user's password is kept by the directory. */
    public boolean isLocal() {
        return !signedIn.getUser().fromDirectory();
    }

    /** The second-factor page, once the factor enrolment is deployed ({@code /account/security.xhtml}). */
    public boolean isSecurityPageAvailable() {
        try {
            return request.getServletContext().getResource("/account/security.xhtml") != null;
        } catch (MalformedURLException e) {
            return false;
        }
    }

    /** The message key of the action just done, from the redirect's query; only known keys. */
    public String getDoneKey() {
        String done = request.getParameter("done");
        return done != null && OUTCOMES.contains(done) ? done : null;
    }

    public String getErrorKey() {
        return errorKey;
    }

    public String getLogoutUri() {
        return config.endpoint("/oauth/logout");
    }

    public String getAfterLogoutUri() {
        return config.endpoint(OwnPage.ACCOUNT.root());
    }

    public String getClientId() {
        return OwnPage.ACCOUNT.clientId();
    }

    private String done(String key) {
        signedIn.redirect(OwnPage.ACCOUNT.home() + "?done=" + key);
        return null;
    }

    private String failed(String key) {
        errorKey = key;
        signedIn.status(400);
        return null;
    }

    private String refused() {
        errorKey = "page.csrf";
        signedIn.status(403);
        return null;
    }

    private String ip() {
        return signedIn.ip();
    }

    public String getCurrentPassword() {
        return null;
    }

    public void setCurrentPassword(String currentPassword) {
        this.currentPassword = currentPassword;
    }

    public String getNewPassword() {
        return null;
    }

    public void setNewPassword(String newPassword) {
        this.newPassword = newPassword;
    }

    public String getRepeatPassword() {
        return null;
    }

    public void setRepeatPassword(String repeatPassword) {
        this.repeatPassword = repeatPassword;
    }
}
