package dev.portcullis.accountpage;

import dev.portcullis.access.AccessService;
import dev.portcullis.access.AuthorizedApplicationService;
import dev.portcullis.account.SignInService;
import dev.portcullis.account.User;
import dev.portcullis.admin.Refusal;
import dev.portcullis.audit.Actor;
import dev.portcullis.client.Scopes;
import dev.portcullis.config.IssuerSettings;
import dev.portcullis.config.SessionSettings;
import dev.portcullis.session.BrowserCookies;
import dev.portcullis.session.SsoSession;
import dev.portcullis.session.SsoSessionRepository;
import dev.portcullis.signin.OwnPage;
import dev.portcullis.signin.SignedInUser;
import dev.portcullis.token.TokenGrant;
import dev.portcullis.token.TokenGrantRepository;
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

    /** Where the user's own changes are made, as the details of their audit events name it. */
    private static final String WHERE = "on the account page";

    /** The message of each refused password change. */
    private static final Map<Refusal.PasswordProblem, String> PASSWORD_MESSAGES = Map.of(
            Refusal.PasswordProblem.LENGTH, "account.password.length",
            Refusal.PasswordProblem.DIRECTORY_USER, "account.password.notLocal",
            Refusal.PasswordProblem.MISMATCH, "account.password.mismatch",
            Refusal.PasswordProblem.CURRENT_WRONG, "account.password.wrong",
            Refusal.PasswordProblem.CURRENT_NOT_CHECKED, "login.wait");

    /** The sessions the page lists: those the service ends on the user's behalf. */
    private static final int MAX_SESSIONS = AccessService.MAX_OWN_SESSIONS;

    private static final DateTimeFormatter WHEN = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm 'UTC'")
            .withZone(ZoneOffset.UTC);

    @Inject
    SignedInUser signedIn;

    @Inject
    AuthorizedApplicationService authorizations;

    @Inject
    TokenGrantRepository grants;

    @Inject
    SignInService signIn;

    @Inject
    SsoSessionRepository sessions;

    @Inject
    AccessService access;

    @Inject
    IssuerSettings issuer;

    @Inject
    SessionSettings sessionSettings;

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
        Optional<Actor> actor = signedIn.authorizedActor();
        if (actor.isEmpty()) {
            return refused();
        }
        access.endOwnSession(signedIn.getUserId(), id, actor.get());
        return done("account.sessionEnded");
    }

    /** Ends every session of the user but this browser's. */
    public String endOtherSessions() {
        Optional<Actor> actor = signedIn.authorizedActor();
        if (actor.isEmpty()) {
            return refused();
        }
        access.endOtherSessionsOf(signedIn.getUserId(), signedIn.getSession().sessionId(), actor.get());
        return done("account.othersEnded");
    }

    public List<Application> getApplications() {
        if (applications == null) {
            Map<String, Instant> lastSignIn = new HashMap<>();
            for (TokenGrant g : grants.liveGrantsOf(signedIn.getUserId())) {
                lastSignIn.merge(g.clientId(), g.authTime(), (a, b) -> a.isAfter(b) ? a : b);
            }
            applications = authorizations.list(signedIn.getUserId()).stream()
                    .map(a -> new Application(a.clientId(), a.clientName(), Scopes.parse(a.scope()).stream()
                            .map(s -> signedIn.getMsg().containsKey("scope." + s) ? signedIn.getMsg().get("scope." + s) : s).collect(Collectors.toList()),
                            WHEN.format(a.grantedAt()), Optional.ofNullable(lastSignIn.get(a.clientId()))
                                    .map(WHEN::format).orElse("—")))
                    .collect(Collectors.toList());
        }
        return applications;
    }

    /** Withdraws the application named by the row's hidden field {@code client}. */
    public String revokeApplication() {
        String clientId = signedIn.parameter("client", 64);
        Optional<Actor> actor = signedIn.authorizedActor();
        if (actor.isEmpty()) {
            return refused();
        }
        if (clientId != null) {
            authorizations.withdrawByUser(signedIn.getUserId(), clientId, actor.get().within(WHERE));
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
        Optional<Actor> actor = signedIn.authorizedActor();
        if (actor.isEmpty()) {
            return refused();
        }
        User user = signedIn.getUser();
        try {
            signIn.changeOwnPassword(user, current, fresh, repeat, OwnPage.ACCOUNT.clientId(),
                    actor.get().within(WHERE));
        } catch (Refusal e) {
            return failed(PASSWORD_MESSAGES.get(((Refusal.PasswordRefused) e.reason()).problem()));
        }
        HttpServletResponse res = signedIn.response();
        // the new session keeps the factors of the one it replaces: the user proved their password just now
        SsoSessionRepository.Started started = sessions.replace(signedIn.getSession(), OwnPage.ACCOUNT.clientId(), ip());
        BrowserCookies.set(res, BrowserCookies.SESSION, started.cookieValue(), sessionSettings.maxTtl(),
                issuer.isHttps());
        BrowserCookies.rotateCsrf(res, issuer.isHttps());
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
        return issuer.endpoint("/oauth/logout");
    }

    public String getAfterLogoutUri() {
        return issuer.endpoint(OwnPage.ACCOUNT.root());
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
