package dev.portcullis.account;

/**
 * A re-check found a directory user's entry gone, disabled or no longer matching: their sessions, codes and token
 * families end at once ({@link UserAccessEnded}), and they must sign in again (which the directory then refuses).
 */
public final class DirectoryEntryRefused extends UserAccessEnded {

    DirectoryEntryRefused(String userId) {
        super(userId);
    }
}
