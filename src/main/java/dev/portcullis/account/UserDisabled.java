package dev.portcullis.account;

/** A user's account was disabled: their sessions, codes and token families end at once ({@link UserAccessEnded}). */
public final class UserDisabled extends UserAccessEnded {

    UserDisabled(String userId) {
        super(userId);
    }
}
