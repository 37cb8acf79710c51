package dev.portcullis.console;

import dev.portcullis.admin.AccessAdministration;
import dev.portcullis.audit.Actor;
import dev.portcullis.session.SsoSession;
import dev.portcullis.signin.SignedInUser;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * What every console page shares: times in UTC, the row shape of an SSO session, the administrator as the audit
 * trail's actor, and the refusal of a form posted without this browser's CSRF token (403, nothing done).
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

    static Actor actor(SignedInUser signedIn) {
        return Actor.administrator(signedIn.getUserId(), signedIn.ip());
    }

    /** True when the form carried this browser's token; otherwise the page answers 403 and shows why. */
    static boolean csrfValid(SignedInUser signedIn) {
        if (signedIn.csrfValid()) {
            return true;
        }
        signedIn.status(403);
        return false;
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
