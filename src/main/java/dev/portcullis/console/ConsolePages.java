package dev.portcullis.console;

import dev.portcullis.access.AccessService;
import dev.portcullis.admin.Refusal;
import dev.portcullis.audit.Actor;
import dev.portcullis.page.PageMessages;
import dev.portcullis.session.SsoSession;
import dev.portcullis.signin.SignedInUser;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * What every console page shares: times in UTC, the row shape of an SSO session, the administrator as the audit
 * trail's actor, and the refusal of a form posted by anyone else or without this browser's CSRF token (403, nothing
 * done).
 */
final class ConsolePages {

    static final DateTimeFormatter WHEN = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss 'UTC'")
            .withZone(ZoneOffset.UTC);

    private ConsolePages() {
    }

    /** One live SSO session as the console lists it. */
    public record SessionRow(String id, String username, String clients, String created, String lastUsed, String ip) {
    }

    static SessionRow row(AccessService.SessionView v) {
        SsoSession s = v.session();
        return new SessionRow(s.sessionId(), v.username() == null ? "—" : v.username(),
                s.clients().stream().map(c -> v.clientNames().getOrDefault(c, c)).sorted()
                        .collect(Collectors.joining(", ")),
                when(s.createdAt()), when(s.lastSeenAt()), s.ip() == null ? "—" : s.ip());
    }

    static String when(Instant t) {
        return t == null ? "—" : WHEN.format(t);
    }

    /**
     * The administrator acting on a posted form ({@link SignedInUser#authorizedActor}) {@link #WHERE}, decided before
     * any change; when there is none the page answers 403 and shows why, and the action does nothing.
     */
    static Optional<Actor> actor(SignedInUser signedIn) {
        Optional<Actor> actor = signedIn.authorizedActor().map(a -> a.within(WHERE));
        if (actor.isEmpty()) {
            signedIn.status(403);
        }
        return actor;
    }

    /** Where the console's changes are made, as the details of some audit events name it. */
    static final String WHERE = "in the console";

    /** A refusal's message in the administrator's language; the page answers with the admin API's status. */
    static String refusal(SignedInUser signedIn, Refusal e) {
        signedIn.status(e.status());
        return message(signedIn.getMsg(), e.reason());
    }

    /** The console's message for each reason: a new reason does not compile until it has one here. */
    static String message(PageMessages msg, Refusal.Reason reason) {
        return reason.match(new Refusal.Cases<>() {
            @Override
            public String invalidField(Refusal.InvalidField f) {
                String label = "change.field." + f.field();
                return msg.format("change.invalid", msg.containsKey(label) ? msg.get(label) : f.field(), f.why());
            }

            @Override
            public String passwordRefused(Refusal.PasswordRefused p) {
                return msg.get(switch (p.problem()) {
                    case LENGTH -> "change.password";
                    case DIRECTORY_USER -> "console.user.directoryPassword";
                    case MISMATCH -> "account.password.mismatch";
                    case CURRENT_WRONG -> "account.password.wrong";
                    case CURRENT_NOT_CHECKED -> "login.wait";
                });
            }

            @Override
            public String builtInClient(Refusal.BuiltInClient b) {
                return msg.format("change.builtIn." + b.change().name(), b.clientId());
            }

            @Override
            public String usernameTaken(Refusal.UsernameTaken u) {
                return msg.format("change.usernameTaken", u.username());
            }

            @Override
            public String noSecret(Refusal.NoSecret r) {
                return msg.get("change.noSecret");
            }

            @Override
            public String keyRotationInProgress(Refusal.KeyRotationInProgress r) {
                return msg.get("console.keys.conflict");
            }

            @Override
            public String ownAccountDisabled(Refusal.OwnAccountDisabled r) {
                return msg.get("change.ownAccountDisabled");
            }

            @Override
            public String apiIdentifierTaken(Refusal.ApiIdentifierTaken t) {
                return msg.format("change.apiIdentifierTaken", t.identifier());
            }

            @Override
            public String apiScopesInUse(Refusal.ApiScopesInUse u) {
                return msg.format("change.apiScopesInUse", String.join(" ", u.scopes()),
                        String.join(", ", u.clientIds()));
            }

            @Override
            public String apiScopesExchanged(Refusal.ApiScopesExchanged x) {
                return msg.format("change.apiScopesExchanged", String.join(" ", x.scopes()),
                        String.join(", ", x.apiIdentifiers()));
            }

            @Override
            public String notFound(Refusal.NotFound n) {
                return msg.get(switch (n.thing()) {
                    case USER -> "console.user.notFound";
                    case CLIENT -> "console.client.notFound";
                    case API -> "console.api.notFound";
                    case SESSION -> "console.sessions.gone";
                });
            }

            @Override
            public String nothingToWithdraw(Refusal.NothingToWithdraw n) {
                return msg.get("change.nothingToWithdraw");
            }

            @Override
            public String notJson(Refusal.NotJson r) {
                return msg.get("change.notJson");
            }
        });
    }

    /** The outcome key of a redirect's {@code done} parameter when it is one of {@code known}, else null. */
    static String done(SignedInUser signedIn, Set<String> known) {
        String done = signedIn.parameter("done", 100);
        return done != null && known.contains(done) ? done : null;
    }

    static String enc(String s) {
        return URLEncoder.encode(s == null ? "" : s, StandardCharsets.UTF_8);
    }
}
