package dev.portcullis.account;

/** A user with this username exists already; the admin API answers 409 {@code conflict}. */
public class UsernameTakenException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    UsernameTakenException(String username) {
        super("username '" + username + "' is taken", null, false, false);
    }
}
