package dev.portcullis.admin;

import java.util.List;
import java.util.Objects;

/**
 * Why the admin API, the console or the account page refused a request, decided before anything was changed or
 * audited. Services and admin resources throw it; {@code app.RefusalMapper} answers the admin API with
 * {@link #status}, {@link #error} and the message as {@code error_description}, and the pages show the message they
 * choose for the {@link #reason} in the user's language. The protocol endpoints keep their {@code OAuthException}.
 *
 * <p>Every answer to a reason goes through {@link Cases}, the exhaustive switch over the reasons (Java 17 has no
 * switch over the types of a sealed hierarchy): one method per reason and no default, so a new reason does not
 * compile until the status, the error code, the description and every page's message say what it answers.
 */
public final class Refusal extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /** Why; {@link #match} hands it to the {@link Cases} method of its kind. */
    public sealed interface Reason permits InvalidField, PasswordRefused, BuiltInClient, UsernameTaken, NoSecret,
            KeyRotationInProgress, OwnAccountDisabled, ApiIdentifierTaken, ApiScopesInUse, ApiScopesExchanged,
            NotFound, NothingToWithdraw, NotJson {

        <T> T match(Cases<T> cases);
    }

    /** One answer per reason. */
    public interface Cases<T> {
        T invalidField(InvalidField r);

        T passwordRefused(PasswordRefused r);

        T builtInClient(BuiltInClient r);

        T usernameTaken(UsernameTaken r);

        T noSecret(NoSecret r);

        T keyRotationInProgress(KeyRotationInProgress r);

        T ownAccountDisabled(OwnAccountDisabled r);

        T apiIdentifierTaken(ApiIdentifierTaken r);

        T apiScopesInUse(ApiScopesInUse r);

        T apiScopesExchanged(ApiScopesExchanged r);

        T notFound(NotFound r);

        T nothingToWithdraw(NothingToWithdraw r);

        T notJson(NotJson r);
    }

    /** A value that fails validation, or a bad query parameter: its API name and why (in the API's words). */
    public record InvalidField(String field, String why) implements Reason {
        @Override
        public <T> T match(Cases<T> cases) {
            return cases.invalidField(this);
        }
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
        @Override
        public <T> T match(Cases<T> cases) {
            return cases.passwordRefused(this);
        }
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
        @Override
        public <T> T match(Cases<T> cases) {
            return cases.builtInClient(this);
        }
    }

    /** Another user has the username. */
    public record UsernameTaken(String username) implements Reason {
        @Override
        public <T> T match(Cases<T> cases) {
            return cases.usernameTaken(this);
        }
    }

    /** A public client has no secret to rotate. */
    public record NoSecret(String clientId) implements Reason {
        @Override
        public <T> T match(Cases<T> cases) {
            return cases.noSecret(this);
        }
    }

    /** An administrator tried to disable their own account, which could lock the last one out by a slip. */
    public record OwnAccountDisabled(String username) implements Reason {
        @Override
        public <T> T match(Cases<T> cases) {
            return cases.ownAccountDisabled(this);
        }
    }

    /** Another registered API has the identifier. */
    public record ApiIdentifierTaken(String identifier) implements Reason {
        @Override
        public <T> T match(Cases<T> cases) {
            return cases.apiIdentifierTaken(this);
        }
    }

    /**
     * Clients hold scopes that deleting an API, or removing them from it, would take away: the administrator removes
     * them from the clients first, so that no client silently loses what it was registered for.
     */
    public record ApiScopesInUse(String identifier, List<String> scopes, List<String> clientIds) implements Reason {
        @Override
        public <T> T match(Cases<T> cases) {
            return cases.apiScopesInUse(this);
        }
    }

    /**
     * Other APIs' {@code exchange_scopes} name scopes that deleting an API, or removing them from it, would take
     * away: the administrator withdraws them there first, so that a scope registered later under the same name is
     * never obtainable by exchange without being granted anew.
     */
    public record ApiScopesExchanged(String identifier, List<String> scopes, List<String> apiIdentifiers)
            implements Reason {
        @Override
        public <T> T match(Cases<T> cases) {
            return cases.apiScopesExchanged(this);
        }
    }

    /** Another rotation of the signing keys inserted the same key id first. */
    public record KeyRotationInProgress() implements Reason {
        @Override
        public <T> T match(Cases<T> cases) {
            return cases.keyRotationInProgress(this);
        }
    }

    /** What an admin request names and does not exist. */
    public enum Thing {
        USER("user"), CLIENT("client"), API("API"), SESSION("session");

        private final String words;

        Thing(String words) {
            this.words = words;
        }

        public String words() {
            return words;
        }
    }

    /** The user, client, API or session the request names does not exist. */
    public record NotFound(Thing thing) implements Reason {
        @Override
        public <T> T match(Cases<T> cases) {
            return cases.notFound(this);
        }
    }

    /**
     * A withdrawal of an application the user has not authorized: {@code byTheUser} when the user asked for it
     * themself ({@code /api/v1}), else an administrator.
     */
    public record NothingToWithdraw(String clientId, boolean byTheUser) implements Reason {
        @Override
        public <T> T match(Cases<T> cases) {
            return cases.nothingToWithdraw(this);
        }
    }

    /** A body that is not {@code application/json} where the admin API takes JSON. */
    public record NotJson() implements Reason {
        @Override
        public <T> T match(Cases<T> cases) {
            return cases.notJson(this);
        }
    }

    /** The admin API's status and {@code error} of each reason. */
    private record Shape(int status, String error) {
        static final Shape INVALID = new Shape(400, "invalid_request");
        static final Shape CONFLICT = new Shape(409, "conflict");
    }

    private static final Cases<Shape> SHAPE = new Cases<>() {
        @Override
        public Shape invalidField(InvalidField r) {
            return Shape.INVALID;
        }

        @Override
        public Shape passwordRefused(PasswordRefused r) {
            return Shape.INVALID;
        }

        @Override
        public Shape builtInClient(BuiltInClient r) {
            return new Shape(409, "invalid_request");
        }

        @Override
        public Shape usernameTaken(UsernameTaken r) {
            return Shape.CONFLICT;
        }

        @Override
        public Shape noSecret(NoSecret r) {
            return Shape.INVALID;
        }

        @Override
        public Shape keyRotationInProgress(KeyRotationInProgress r) {
            return Shape.CONFLICT;
        }

        @Override
        public Shape ownAccountDisabled(OwnAccountDisabled r) {
            return Shape.INVALID;
        }

        @Override
        public Shape apiIdentifierTaken(ApiIdentifierTaken r) {
            return Shape.CONFLICT;
        }

        @Override
        public Shape apiScopesInUse(ApiScopesInUse r) {
            return Shape.CONFLICT;
        }

        @Override
        public Shape apiScopesExchanged(ApiScopesExchanged r) {
            return Shape.CONFLICT;
        }

        @Override
        public Shape notFound(NotFound r) {
            return new Shape(404, "not_found");
        }

        @Override
        public Shape nothingToWithdraw(NothingToWithdraw r) {
            return new Shape(404, "not_found");
        }

        @Override
        public Shape notJson(NotJson r) {
            return new Shape(415, "invalid_request");
        }
    };

    /** The admin API's {@code error_description} of each reason. */
    private static final Cases<String> DESCRIPTION = new Cases<>() {
        @Override
        public String invalidField(InvalidField f) {
            return f.field() + ": " + f.why();
        }

        @Override
        public String passwordRefused(PasswordRefused p) {
            return "password: " + p.why();
        }

        @Override
        public String builtInClient(BuiltInClient b) {
            return b.clientId() + " is a built-in client of Portcullis's own pages; it cannot be " + b.change().words();
        }

        @Override
        public String usernameTaken(UsernameTaken u) {
            return "username '" + u.username() + "' is taken";
        }

        @Override
        public String noSecret(NoSecret r) {
            return "Public clients have no secret";
        }

        @Override
        public String keyRotationInProgress(KeyRotationInProgress r) {
            return "Another rotation is in progress; list the keys and retry";
        }

        @Override
        public String ownAccountDisabled(OwnAccountDisabled o) {
            return "enabled: " + o.username() + " is your own account; an administrator cannot disable themself";
        }

        @Override
        public String apiIdentifierTaken(ApiIdentifierTaken t) {
            return "identifier: another API has the identifier " + t.identifier();
        }

        @Override
        public String apiScopesInUse(ApiScopesInUse u) {
            return "scopes " + String.join(" ", u.scopes()) + " of " + u.identifier() + " are held by client(s) "
                    + String.join(", ", u.clientIds()) + "; remove them from those clients first";
        }

        @Override
        public String apiScopesExchanged(ApiScopesExchanged x) {
            return "scopes " + String.join(" ", x.scopes()) + " of " + x.identifier() + " are in the exchange_scopes "
                    + "of API(s) " + String.join(", ", x.apiIdentifiers()) + "; remove them there first";
        }

        @Override
        public String notFound(NotFound n) {
            return "No such " + n.thing().words();
        }

        @Override
        public String nothingToWithdraw(NothingToWithdraw n) {
            return n.byTheUser() ? "You have not authorized this client" : "The user has not authorized this client";
        }

        @Override
        public String notJson(NotJson r) {
            return "The body must be application/json";
        }
    };

    private final Reason reason;

    public Refusal(Reason reason) {
        super(Objects.requireNonNull(reason).match(DESCRIPTION), null, false, false);
        this.reason = reason;
    }

    public static Refusal invalid(String field, String why) {
        return new Refusal(new InvalidField(field, why));
    }

    public static Refusal notFound(Thing thing) {
        return new Refusal(new NotFound(thing));
    }

    public Reason reason() {
        return reason;
    }

    /** The admin API's HTTP status: 404 for what does not exist, 409 for a conflict with what exists, else 400. */
    public int status() {
        return reason.match(SHAPE).status();
    }

    /** The admin API's {@code error}. */
    public String error() {
        return reason.match(SHAPE).error();
    }
}
