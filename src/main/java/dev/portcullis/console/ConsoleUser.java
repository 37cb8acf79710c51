package dev.portcullis.console;

import dev.portcullis.account.PasswordChanged;
import dev.portcullis.account.User;
import dev.portcullis.account.UserService;
import dev.portcullis.admin.AccessAdministration;
import dev.portcullis.audit.AuditEvent;
import dev.portcullis.audit.AuditLog;
import dev.portcullis.mfa.SecondFactors;
import dev.portcullis.protocol.OAuthException;
import dev.portcullis.resource.UserAuthorizations;
import dev.portcullis.signin.SignedInUser;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.inject.Named;
import jakarta.servlet.http.HttpServletRequest;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Backing bean of {@code /admin/console/user.xhtml?username=}: one user's profile, source and roles; edit name and
 * e-mail; disable or enable (never oneself); their SSO sessions ("end") and authorized applications ("revoke");
 * reset the password; remove their second factors; clear a sign-in lock. Each action goes through the service the
 * admin API uses and is audited with the administrator's id.
 * <p>
 * A password reset generates the new password (120 random bits, shown once on the answer, never stored in clear or
 * logged) rather than taking one typed by the administrator: nobody picks a password they will remember for someone
 * else, and the user is told to change it on their account page. It ends the user's sessions and tokens, like
 * {@code PUT /admin/users/{username}/password}. Directory users' passwords live in the directory and are refused.
 */
@Named("consoleUser")
@RequestScoped
public class ConsoleUser {

    static final int MAX_SESSIONS = 100;
    private static final SecureRandom RANDOM = new SecureRandom();
    static final Set<String> DONE = Set.of("console.saved", "console.users.disabled", "console.users.enabled",
            "console.sessions.ended", "console.user.grantRevoked", "console.user.factorsReset",
            "console.user.unlocked");

    @Inject
    SignedInUser signedIn;

    @Inject
    UserService users;

    @Inject
    AccessAdministration access;

    @Inject
    SecondFactors factors;

    @Inject
    AuditLog audit;

    @Inject
    HttpServletRequest request;

    private Optional<User> shown;
    private String name;
    private String email;
    private String errorKey;
    private String errorText;
    private String newPassword;
    private List<ConsolePage.SessionRow> sessions;
    private List<GrantRow> grants;

    /** The user of the query's (GET) or form's hidden (POST) {@code username}. */
    public Optional<User> getShown() {
        if (shown == null) {
            String username = signedIn.parameter("username", UserService.MAX_USERNAME);
            shown = username == null ? Optional.empty() : users.findByUsername(username);
            shown.ifPresent(u -> {
                if (name == null && email == null) {
                    name = u.name();
                    email = u.email();
                }
            });
            if (shown.isEmpty()) {
                signedIn.status(404);
            }
        }
        return shown;
    }

    public boolean isSelf() {
        return getShown().map(u -> u.userId().equals(signedIn.getUserId())).orElse(false);
    }

    public boolean isHasFactor() {
        return getShown().map(u -> factors.hasTotp(u.userId())).orElse(false);
    }

    public String getCreated() {
        return getShown().map(u -> ConsolePage.when(u.createdAt())).orElse("");
    }

    public String getRoles() {
        return getShown().map(u -> u.roles().isEmpty() ? "—" : String.join(" ", u.roles())).orElse("");
    }

    public List<ConsolePage.SessionRow> getSessions() {
        if (sessions == null) {
            sessions = getShown().flatMap(u -> access.sessions(u.username(), null, MAX_SESSIONS))
                    .map(l -> l.stream().map(ConsolePage::row).toList()).orElse(List.of());
        }
        return sessions;
    }

    /** One authorized application as the page lists it. */
    public record GrantRow(String clientId, String clientName, String scope, String granted) {
    }

    public List<GrantRow> getGrants() {
        if (grants == null) {
            grants = getShown().flatMap(u -> access.grants(u.username())).orElse(List.of()).stream()
                    .map((UserAuthorizations.Authorization a) -> new GrantRow(a.clientId(), a.clientName(), a.scope(),
                            ConsolePage.when(a.grantedAt())))
                    .toList();
        }
        return grants;
    }

    /** Saves name and e-mail (empty removes them). */
    public String save() {
        User u = target();
        if (u == null) {
            return null;
        }
        try {
            users.update(u.username(), new UserService.UserPatch(Optional.ofNullable(blankToNull(email)),
                    Optional.ofNullable(blankToNull(name)), null, null), ConsolePage.actor(signedIn));
            done(u, "console.saved");
        } catch (OAuthException e) {
            errorText = e.description();
            signedIn.status(400);
        }
        return null;
    }

    /** Disables or enables the user by the form's hidden {@code enable}; an administrator never disables themself. */
    public String setEnabled() {
        User u = target();
        if (u == null) {
            return null;
        }
        boolean enable = "true".equals(signedIn.parameter("enable", 5));
        if (!enable && u.userId().equals(signedIn.getUserId())) {
            errorKey = "console.users.self";
            signedIn.status(400);
            return null;
        }
        users.update(u.username(), new UserService.UserPatch(null, null, enable, null), ConsolePage.actor(signedIn));
        done(u, enable ? "console.users.enabled" : "console.users.disabled");
        return null;
    }

    /** Ends the session of the row's hidden {@code session}, if it is one of this user's. */
    public String endSession() {
        User u = target();
        if (u == null) {
            return null;
        }
        String id = signedIn.parameter("session", 64);
        if (id != null && getSessions().stream().anyMatch(s -> s.id().equals(id))) {
            access.endSession(id, ConsolePage.actor(signedIn));
        }
        done(u, "console.sessions.ended");
        return null;
    }

    /** Withdraws the application of the row's hidden {@code client}: consent deleted, its tokens revoked at once. */
    public String revokeGrant() {
        User u = target();
        if (u == null) {
            return null;
        }
        String clientId = signedIn.parameter("client", 64);
        if (clientId != null) {
            access.withdrawGrant(u.username(), clientId, ConsolePage.actor(signedIn));
        }
        done(u, "console.user.grantRevoked");
        return null;
    }

    /** Sets a generated password, shown once on this answer (no redirect: nothing keeps it for a later page). */
    public String resetPassword() {
        User u = target();
        if (u == null) {
            return null;
        }
        String password = generatedPassword();
        try {
            Optional<PasswordChanged> changed = users.changePassword(u.username(), password);
            if (changed.isPresent()) {
                audit.change(AuditEvent.Type.USER_PASSWORD_CHANGED, ConsolePage.actor(signedIn), null, u.username(),
                        "generated in the console; " + changed.get().consequences());
                newPassword = password;
            }
        } catch (OAuthException e) {
            errorKey = "console.user.directoryPassword";
            signedIn.status(400);
        }
        return null;
    }

    /** Removes the user's authenticator app, recovery codes and passkeys (a lost phone or key). */
    public String resetFactors() {
        User u = target();
        if (u == null) {
            return null;
        }
        factors.reset(u, ConsolePage.actor(signedIn));
        done(u, "console.user.factorsReset");
        return null;
    }

    /** Clears the account's sign-in throttle; a lock ends at once. */
    public String unlock() {
        User u = target();
        if (u == null) {
            return null;
        }
        users.unlock(u.username(), ConsolePage.actor(signedIn));
        done(u, "console.user.unlocked");
        return null;
    }

    /** The user an action applies to, once the form's token is checked; null (nothing done) otherwise. */
    private User target() {
        User u = getShown().orElse(null);
        if (u == null) {
            return null;
        }
        if (!ConsolePage.csrfValid(signedIn)) {
            errorKey = "page.csrf";
            return null;
        }
        return u;
    }

    private void done(User u, String key) {
        signedIn.redirect("/admin/console/user.xhtml?username=" + ConsolePage.enc(u.username()) + "&done=" + key);
    }

    static String generatedPassword() {
        byte[] bytes = new byte[15];
        RANDOM.nextBytes(bytes);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }

    private static String blankToNull(String s) {
        return s == null || s.isBlank() ? null : s.strip();
    }

    public String getDoneKey() {
        return ConsolePage.done(signedIn, DONE);
    }

    public String getErrorKey() {
        return errorKey;
    }

    public String getErrorText() {
        return errorText;
    }

    public String getNewPassword() {
        return newPassword;
    }

    public String getName() {
        return name;
    }

    public void setName(String name) {
        this.name = name;
    }

    public String getEmail() {
        return email;
    }

    public void setEmail(String email) {
        this.email = email;
    }
}
