package dev.portcullis.console;

import dev.portcullis.access.AccessService;
import dev.portcullis.access.AuthorizedApplicationService;
import dev.portcullis.account.CredentialService;
import dev.portcullis.account.User;
import dev.portcullis.account.UserAdminService;
import dev.portcullis.account.UserLookupService;
import dev.portcullis.audit.Actor;
import dev.portcullis.mfa.SecondFactorService;
import dev.portcullis.protocol.Username;
import dev.portcullis.signin.SignedInUser;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.inject.Named;
import jakarta.servlet.http.HttpServletRequest;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Backing bean of {@code /admin/console/user.xhtml?username=}: one user's profile, source, roles and groups; edit
 * name and e-mail, and a local user's groups (one a line); disable or enable (never oneself); their SSO sessions
 * ("end") and authorized applications ("revoke"); reset the password; remove their second factors; clear a sign-in
 * lock. Each action goes through the service the admin API uses, which audits it with the administrator's id; a
 * refused change shows its reason.
 * <p>
 * A password reset generates the new password (120 random bits, shown once on the answer, never stored in clear or
 * logged) rather than taking one typed by the administrator: nobody picks a password they will remember for someone
 * else, and the user is told to change it on their account page. It ends the user's sessions and tokens, like
 * {@code PUT /admin/users/{username}/password}. Directory users' passwords live in the directory and are refused.
 */
@Named("consoleUser")
@RequestScoped
public class ConsoleUserPage {

    static final int MAX_SESSIONS = 100;
    static final Set<String> DONE = Set.of("console.saved", "console.users.disabled", "console.users.enabled",
            "console.sessions.ended", "console.user.grantRevoked", "console.user.factorsReset",
            "console.user.unlocked");

    @Inject
    SignedInUser signedIn;

    @Inject
    ConsoleForm form;

    @Inject
    UserLookupService users;

    @Inject
    UserAdminService userAdmin;

    @Inject
    CredentialService credentials;

    @Inject
    AccessService access;

    @Inject
    SecondFactorService factors;

    @Inject
    HttpServletRequest request;

    private Optional<User> shown;
    private String name;
    private String email;
    private String groups;
    private String newPassword;
    private List<ConsolePages.SessionRow> sessions;
    private List<GrantRow> grants;

    /** The user of the query's (GET) or form's hidden (POST) {@code username}. */
    public Optional<User> getShown() {
        if (shown == null) {
            String username = signedIn.parameter("username", Username.MAX_LENGTH);
            shown = username == null ? Optional.empty() : users.findByUsername(username);
            shown.ifPresent(u -> {
                if (name == null && email == null) {
                    name = u.name();
                    email = u.email();
                }
                if (groups == null) {
                    groups = String.join("\n", u.groups());
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
        return getShown().map(u -> ConsolePages.when(u.createdAt())).orElse("");
    }

    public String getRoles() {
        return getShown().map(u -> u.roles().isEmpty() ? "—" : String.join(" ", u.roles())).orElse("");
    }

    /** The groups the user's tokens carry under scope {@code groups}, for either source. */
    public String getGroupNames() {
        return getShown().map(u -> u.groups().isEmpty() ? "—" : String.join(", ", u.groups())).orElse("");
    }

    public List<ConsolePages.SessionRow> getSessions() {
        if (sessions == null) {
            sessions = getShown().flatMap(u -> access.sessions(u.username(), null, MAX_SESSIONS))
                    .map(l -> l.stream().map(ConsolePages::row).toList()).orElse(List.of());
        }
        return sessions;
    }

    /** One authorized application as the page lists it. */
    public record GrantRow(String clientId, String clientName, String scope, String granted) {
    }

    public List<GrantRow> getGrants() {
        if (grants == null) {
            grants = getShown().flatMap(u -> access.grants(u.username())).orElse(List.of()).stream()
                    .map((AuthorizedApplicationService.Authorization a) -> new GrantRow(a.clientId(), a.clientName(), a.scope(),
                            ConsolePages.when(a.grantedAt())))
                    .toList();
        }
        return grants;
    }

    /** Saves name and e-mail (empty removes them) and a local user's groups (the directory owns the others'). */
    public String save() {
        return act((u, actor) -> {
            userAdmin.update(u.username(), UserAdminService.UserPatch.patch()
                    .email(Optional.ofNullable(blankToNull(email))).name(Optional.ofNullable(blankToNull(name)))
                    .groups(u.fromDirectory() ? null : ConsoleClientsPage.lines(groups)).build(), actor);
            done(u, "console.saved");
        });
    }

    /** Disables or enables the user by the form's hidden {@code enable}; the service refuses disabling oneself. */
    public String setEnabled() {
        return act((u, actor) -> {
            boolean enable = "true".equals(signedIn.parameter("enable", 5));
            userAdmin.update(u.username(), UserAdminService.UserPatch.patch().enabled(enable).build(), actor);
            done(u, enable ? "console.users.enabled" : "console.users.disabled");
        });
    }

    /** Ends the session of the row's hidden {@code session}, if it is one of this user's. */
    public String endSession() {
        return act((u, actor) -> {
            String id = signedIn.parameter("session", 64);
            if (id != null && getSessions().stream().anyMatch(s -> s.id().equals(id))) {
                access.endSession(id, actor);
            }
            done(u, "console.sessions.ended");
        });
    }

    /** Withdraws the application of the row's hidden {@code client}: consent deleted, its tokens revoked at once. */
    public String revokeGrant() {
        return act((u, actor) -> {
            String clientId = signedIn.parameter("client", 64);
            if (clientId != null) {
                access.withdrawGrant(u.username(), clientId, actor);
            }
            done(u, "console.user.grantRevoked");
        });
    }

    /** Sets a generated password, shown once on this answer (no redirect: nothing keeps it for a later page). */
    public String resetPassword() {
        return act((u, actor) -> newPassword = credentials.resetPassword(u.username(), actor).orElse(null));
    }

    /** Removes the user's authenticator app, recovery codes and passkeys (a lost phone or key). */
    public String resetFactors() {
        return act((u, actor) -> {
            factors.reset(u, actor);
            done(u, "console.user.factorsReset");
        });
    }

    /** Clears the account's sign-in throttle; a lock ends at once. */
    public String unlock() {
        return act((u, actor) -> {
            userAdmin.unlock(u.username(), actor);
            done(u, "console.user.unlocked");
        });
    }

    /** A change to the shown user, made as the administrator who posted the form. */
    @FunctionalInterface
    private interface UserChange {
        void make(User user, Actor actor);
    }

    /** Makes {@code change} to the shown user through the form; nothing when there is no such user. */
    private String act(UserChange change) {
        getShown().ifPresent(u -> form.submit(actor -> change.make(u, actor)));
        return null;
    }

    private void done(User u, String key) {
        signedIn.redirect("/admin/console/user.xhtml?username=" + ConsolePages.enc(u.username()) + "&done=" + key);
    }

    private static String blankToNull(String s) {
        return s == null || s.isBlank() ? null : s.strip();
    }

    public String getDoneKey() {
        return ConsolePages.done(signedIn, DONE);
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

    /** The shown user's groups, one a line. */
    public String getGroups() {
        return groups;
    }

    public void setGroups(String groups) {
        this.groups = groups;
    }

    public String getEmail() {
        return email;
    }

    public void setEmail(String email) {
        this.email = email;
    }
}
