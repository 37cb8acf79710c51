package dev.portcullis.account;

/**
 * A user is being deleted: their sessions end as every other way (so their clients are told of the logout) before the
 * rows that the delete cascades to go ({@link UserAccessEnded}).
 */
public final class UserDeleted extends UserAccessEnded {

    UserDeleted(String userId) {
        super(userId);
    }
}
