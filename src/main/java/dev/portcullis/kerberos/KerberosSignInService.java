package dev.portcullis.kerberos;

import dev.portcullis.account.User;
import dev.portcullis.account.DirectorySyncService;
import dev.portcullis.account.UserLookupService;
import dev.portcullis.audit.AuditEvent;
import dev.portcullis.audit.AuditLog;
import dev.portcullis.config.KerberosSettings;
import dev.portcullis.directory.Directory;
import dev.portcullis.directory.DirectoryEntry;
import dev.portcullis.directory.DirectoryUnavailableException;
import dev.portcullis.metrics.Metrics;
import dev.portcullis.protocol.LogText;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.persistence.PersistenceException;
import java.time.Clock;
import java.util.Locale;
import java.util.Optional;

/**
 * Windows integrated sign-in: whether the login page offers Negotiate to a client, and the sign-in with the token a
 * browser answered it with. The token is verified ({@link SpnegoAcceptor}), its authenticator used once across every
 * instance ({@link UsedAuthenticatorRepository}), and the client principal is mapped to the user a password sign-in would give
 * ({@link PrincipalLookup}: the realm is part of the name): with a directory, the entry its realm's filter finds (its
 * account state checked, its row synced), without one, for the home realm only, the local user named by the part
 * before {@code @}. Every outcome is audited; a refused token is audited with the reason, never the token.
 */
@ApplicationScoped
public class KerberosSignInService {

    @Inject
    Optional<KerberosSettings> settings;

    @Inject
    Metrics metrics;

    @Inject
    SpnegoAcceptor acceptor;

    @Inject
    Directory directory;

    @Inject
    UserLookupService users;

    @Inject
    DirectorySyncService directoryUsers;

    @Inject
    AuditLog audit;

    @Inject
    UsedAuthenticatorRepository authenticators;

    @Inject
    Clock clock;

    /**
     * SIGNED_IN carries the user; TICKET_REFUSED: the header held no usable Kerberos token (the form is shown, no
     * new challenge); REPLAYED: a token whose authenticator was used before, on any instance (a fresh challenge: a
     * browser makes a new one); USER_REFUSED: a valid ticket of a principal who may not sign in here (other realm, no
     * such user); DISABLED / LOCKED: the directory refuses the account; UNAVAILABLE: the directory did not answer.
     */
    public enum Outcome { SIGNED_IN, TICKET_REFUSED, REPLAYED, USER_REFUSED, DISABLED, LOCKED, UNAVAILABLE }

    public record Result(Outcome outcome, Optional<User> user, Optional<byte[]> responseToken) {

        static Result refused(Outcome outcome) {
            return new Result(outcome, Optional.empty(), Optional.empty());
        }
    }

    /** Whether the login page challenges this client ({@code portcullis.kerberos.networks}, when set). */
    public boolean offeredTo(String clientAddress) {
        return settings.map(s -> s.offeredTo(clientAddress)).orElse(false);
    }

    /** Signs in with the browser's {@code Authorization: Negotiate} header, from {@code ip} for {@code clientId}. */
    public Result signIn(NegotiateHeader header, String clientId, String ip) {
        KerberosSettings s = settings.orElseThrow();
        if (header.kind() != NegotiateHeader.Kind.TOKEN) {
            audit.failure(AuditEvent.Type.SIGN_IN_FAILURE, clientId, null, ip, "kerberos: "
                    + header.kind().name().toLowerCase(Locale.ROOT).replace('_', ' ') + " token refused");
            refusedTicket(Metrics.Reason.TICKET_REFUSED);
            return Result.refused(Outcome.TICKET_REFUSED);
        }
        SpnegoAcceptor.Accepted accepted;
        try {
            accepted = acceptor.accept(header.token());
        } catch (SpnegoAcceptor.Refused e) {
            // this JVM's replay cache refuses a replay before the database sees it; the database says it is one
            if (KerberosAuthenticator.replayKey(header.token()).map(authenticators::used).orElse(false)) {
                return replayed(clientId, ip);
            }
            audit.failure(AuditEvent.Type.SIGN_IN_FAILURE, clientId, null, ip, "kerberos: ticket refused: "
                    + LogText.escape(e.getMessage()));
            refusedTicket(Metrics.Reason.TICKET_REFUSED);
            return Result.refused(Outcome.TICKET_REFUSED);
        }
        if (!authenticators.use(accepted.replayKey(), clock.instant())) {
            return replayed(clientId, ip);
        }
        metrics.kerberosTicket(true);
        String principal = accepted.clientPrincipal();
        PrincipalLookup lookup = PrincipalLookup.of(principal, s, directory.configured());
        if (lookup instanceof PrincipalLookup.Nobody nobody) {
            audit.failure(AuditEvent.Type.SIGN_IN_FAILURE, clientId, null, ip, "kerberos: principal "
                    + LogText.escape(principal) + " " + nobody.reason());
            metrics.signIn(Metrics.Method.WIA, Metrics.Reason.UNKNOWN_PRINCIPAL);
            return Result.refused(Outcome.USER_REFUSED);
        }
        Result found;
        try {
            found = userOf(lookup);
        } catch (DirectoryUnavailableException down) {
            metrics.signIn(Metrics.Method.WIA, Metrics.Reason.DIRECTORY_DOWN);
            return Result.refused(Outcome.UNAVAILABLE);
        }
        if (found.outcome() != Outcome.SIGNED_IN) {
            audit.failure(AuditEvent.Type.SIGN_IN_FAILURE, clientId, null, ip, "kerberos: principal "
                    + LogText.escape(principal) + ": " + found.outcome().name().toLowerCase(Locale.ROOT)
                    .replace('_', ' '));
            metrics.signIn(Metrics.Method.WIA, Metrics.Reason.UNKNOWN_PRINCIPAL);
            return found;
        }
        User user = found.user().orElseThrow();
        audit.success(AuditEvent.Type.SIGN_IN_SUCCESS, clientId, user.userId(), ip, "kerberos: "
                + LogText.escape(principal));
        metrics.signIn(Metrics.Method.WIA, Metrics.Reason.NONE);
        return new Result(Outcome.SIGNED_IN, found.user(), accepted.responseToken());
    }

    private void refusedTicket(Metrics.Reason reason) {
        metrics.kerberosTicket(false);
        metrics.signIn(Metrics.Method.WIA, reason);
    }

    private Result replayed(String clientId, String ip) {
        audit.failure(AuditEvent.Type.SIGN_IN_FAILURE, clientId, null, ip,
                "kerberos: ticket refused: its authenticator was used before (a replay)");
        refusedTicket(Metrics.Reason.REPLAYED);
        return Result.refused(Outcome.REPLAYED);
    }

    private Result userOf(PrincipalLookup lookup) {
        if (lookup instanceof PrincipalLookup.LocalUser local) {
            return users.findByUsername(local.username())
                    .map(u -> u.enabled() ? signedIn(u) : Result.refused(Outcome.DISABLED))
                    .orElseGet(() -> Result.refused(Outcome.USER_REFUSED));
        }
        PrincipalLookup.DirectoryEntry search = (PrincipalLookup.DirectoryEntry) lookup;
        KerberosPrincipalName name = search.name();
        Directory.Authentication a = directory.findPrincipal(search.filter(), name.principal(), name.account());
        return switch (a.outcome()) {
            case AUTHENTICATED -> directoryRow(a.entry().orElseThrow())
                    .map(u -> u.enabled() ? signedIn(u) : Result.refused(Outcome.DISABLED))
                    .orElseGet(() -> Result.refused(Outcome.USER_REFUSED));
            case DISABLED -> Result.refused(Outcome.DISABLED);
            case LOCKED, PASSWORD_EXPIRED -> Result.refused(Outcome.LOCKED);
            case INVALID -> Result.refused(Outcome.USER_REFUSED);
        };
    }

    private static Result signedIn(User u) {
        return new Result(Outcome.SIGNED_IN, Optional.of(u), Optional.empty());
    }

    /** The user's row; a second try finds the row that a parallel first sign-in of the same user inserted. */
    private Optional<User> directoryRow(DirectoryEntry entry) {
        try {
            return directoryUsers.syncDirectoryUser(entry);
        } catch (PersistenceException raced) {
            return directoryUsers.syncDirectoryUser(entry);
        }
    }
}
