package dev.portcullis.account;

/** A user's password was set: everything the old password opened ends ({@link UserAccessEnded}). */
public final class PasswordChanged extends UserAccessEnded {

    PasswordChanged(String userId) {
        super(userId);
    }
}
