package dev.portcullis.audit;

import java.util.Objects;

/**
 * Why a service refused a change, decided before anything was changed or audited. The services of the admin API, the
 * console and the account page throw it; each caller translates the {@link #reason}: the admin API into its JSON error
 * ({@link #status}, {@link #error} and the message as {@code error_description}), the pages into their own message.
 * The protocol endpoints keep their {@code OAuthException}.
 */
public final class ChangeRefused extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /** Why. */
    public sealed interface Reason permits InvalidField, PasswordRefused, BuiltInClient, UsernameTaken, NoSecret,
            KeyRotationInProgress, OwnAccountDisabled, ApiIdentifierTaken, ApiScopesInUse, ApiScopesExchanged {
    }

    /** A value that fails validation: its field's API name and why (in the API's words). */
    public record InvalidField(String field, String why) implements Reason {
    }

    /** What is wrong with a new password, or with the current one a user's change proves. */
    public enum PasswordProblem {
        /** Fewer than the minimum or more than the maximum characters. */
        LENGTH,
        /** A directory user's password is the directory's. */
        DIRECTORY_USER,
        /** The new password and its repetition differ. */
        MISMATCH,
        /** The current password a user typed is not right. */
        CURRENT_WRONG,
        /** The current password could not be checked now (throttled, locked, busy). */
        CURRENT_NOT_CHECKED
    }

    /** A refused password; {@code why} in the API's words. */
    public record PasswordRefused(PasswordProblem problem, String why) implements Reason {
    }

    /** What cannot be done to a built-in client. */
    public enum BuiltInChange {
        DELETE("deleted"), DISABLE("disabled"), MAKE_CONFIDENTIAL("made confidential"),
        CHANGE_GRANT_TYPES("given other grant types");

        private final String words;

        BuiltInChange(String words) {
            this.words = words;
        }

        public String words() {
            return words;
        }
    }

    /** A change that would lock administrators out of Portcullis's own pages. */
    public record BuiltInClient(String clientId, BuiltInChange change) implements Reason {
    }

    /** Another user has the username. */
    public record UsernameTaken(String username) implements Reason {
    }

    /** A public client has no secret to rotate. */
    public record NoSecret(String clientId) implements Reason {
    }

    /** An administrator tried to disable their own account, which could lock the last one out by a slip. */
    public record OwnAccountDisabled(String username) implements Reason {
    }

    /** Another registered API has the identifier. */
    public record ApiIdentifierTaken(String identifier) implements Reason {
    }

    /**
     * Clients hold scopes that deleting an API, or removing them from it, would take away: the administrator removes
     * them from the clients first, so that no client silently loses what it was registered for.
     */
    public record ApiScopesInUse(String identifier, java.util.List<String> scopes, java.util.List<String> clientIds)
            implements Reason {
    }

    /**
     * Other APIs' {@code exchange_scopes} name scopes that deleting an API, or removing them from it, would take
     * away: the administrator withdraws them there first, so that a scope registered later under the same name is
     * never obtainable by exchange without being granted anew.
     */
    public record ApiScopesExchanged(String identifier, java.util.List<String> scopes,
                                     java.util.List<String> apiIdentifiers) implements Reason {
    }

    /** Another rotation of the signing keys inserted the same key id first. */
    public record KeyRotationInProgress() implements Reason {
    }

    private final Reason reason;

    public ChangeRefused(Reason reason) {
        super(describe(Objects.requireNonNull(reason)), null, false, false);
        this.reason = reason;
    }

    public static ChangeRefused invalid(String field, String why) {
        return new ChangeRefused(new InvalidField(field, why));
    }

    public Reason reason() {
        return reason;
    }

    /** The admin API's HTTP status: 409 for a conflict with what exists, else 400. */
    public int status() {
        return reason instanceof BuiltInClient || reason instanceof UsernameTaken
                || reason instanceof KeyRotationInProgress || reason instanceof ApiIdentifierTaken
                || reason instanceof ApiScopesInUse || reason instanceof ApiScopesExchanged ? 409 : 400;
    }

    /** The admin API's {@code error}. */
    public String error() {
        return reason instanceof UsernameTaken || reason instanceof KeyRotationInProgress
                || reason instanceof ApiIdentifierTaken || reason instanceof ApiScopesInUse
                || reason instanceof ApiScopesExchanged ? "conflict"
                : "invalid_request";
    }

    private static String describe(Reason reason) {
        if (reason instanceof InvalidField f) {
            return f.field() + ": " + f.why();
        }
        if (reason instanceof PasswordRefused p) {
            return "password: " + p.why();
        }
        if (reason instanceof BuiltInClient b) {
            return b.clientId() + " is a built-in client of Portcullis's own pages; it cannot be "
                    + b.change().words();
        }
        if (reason instanceof UsernameTaken u) {
            return "username '" + u.username() + "' is taken";
        }
        if (reason instanceof NoSecret) {
            return "Public clients have no secret";
        }
        if (reason instanceof OwnAccountDisabled o) {
            return "enabled: " + o.username() + " is your own account; an administrator cannot disable themself";
        }
        if (reason instanceof ApiIdentifierTaken t) {
            return "identifier: another API has the identifier " + t.identifier();
        }
        if (reason instanceof ApiScopesInUse u) {
            return "scopes " + String.join(" ", u.scopes()) + " of " + u.identifier() + " are held by client(s) "
                    + String.join(", ", u.clientIds()) + "; remove them from those clients first";
        }
        if (reason instanceof ApiScopesExchanged x) {
            return "scopes " + String.join(" ", x.scopes()) + " of " + x.identifier() + " are in the exchange_scopes "
                    + "of API(s) " + String.join(", ", x.apiIdentifiers()) + "; remove them there first";
        }
        return "Another rotation is in progress; list the keys and retry";
    }
}
