package dev.portcullis.console;

import dev.portcullis.access.AccessAdministration;
import dev.portcullis.audit.Actor;
import dev.portcullis.audit.ChangeRefused;
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
final class ConsolePage {

    static final DateTimeFormatter WHEN = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss 'UTC'")
            .withZone(ZoneOffset.UTC);

    private ConsolePage() {
    }

    /** One live SSO session as the console lists it. */
    public record SessionRow(String id, String username, String clients, String created, String lastUsed, String ip) {
    }

    static SessionRow row(AccessAdministration.SessionView v) {
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

    /** A refused change in the administrator's language; the page answers 400. */
    static String refusal(SignedInUser signedIn, ChangeRefused e) {
        signedIn.status(400);
        PageMessages msg = signedIn.getMsg();
        ChangeRefused.Reason reason = e.reason();
        if (reason instanceof ChangeRefused.InvalidField f) {
            String label = "change.field." + f.field();
            return msg.format("change.invalid", msg.containsKey(label) ? msg.get(label) : f.field(), f.why());
        }
        if (reason instanceof ChangeRefused.PasswordRefused p) {
            return msg.get(p.problem() == ChangeRefused.PasswordProblem.DIRECTORY_USER
                    ? "console.user.directoryPassword" : "change.password");
        }
        if (reason instanceof ChangeRefused.BuiltInClient b) {
            return msg.format("change.builtIn." + b.change().name(), b.clientId());
        }
        if (reason instanceof ChangeRefused.UsernameTaken u) {
            return msg.format("change.usernameTaken", u.username());
        }
        if (reason instanceof ChangeRefused.NoSecret) {
            return msg.get("change.noSecret");
        }
        if (reason instanceof ChangeRefused.OwnAccountDisabled) {
            return msg.get("change.ownAccountDisabled");
        }
        if (reason instanceof ChangeRefused.ApiIdentifierTaken t) {
            return msg.format("change.apiIdentifierTaken", t.identifier());
        }
        if (reason instanceof ChangeRefused.ApiScopesInUse u) {
            return msg.format("change.apiScopesInUse", String.join(" ", u.scopes()), String.join(", ", u.clientIds()));
        }
        if (reason instanceof ChangeRefused.ApiScopesExchanged x) {
            return msg.format("change.apiScopesExchanged", String.join(" ", x.scopes()),
                    String.join(", ", x.apiIdentifiers()));
        }
        return msg.get("console.keys.conflict");
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
