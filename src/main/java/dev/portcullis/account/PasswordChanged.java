package dev.portcullis.account;

import java.util.ArrayList;
import java.util.List;

/**
 * Fired when a user's password is set, synchronously inside the transaction that stores the new hash: whatever the
 * old password opened (SSO sessions, token families) ends with it. The observers live in the packages that own
 * those tables and know this one, not the other way round; each reports what it ended, for the audit trail.
 */
public final class PasswordChanged {

    private final String userId;
    private final List<String> consequences = new ArrayList<>();

    PasswordChanged(String userId) {
        this.userId = userId;
    }

    public String userId() {
        return userId;
    }

    /** Records what an observer ended, e.g. "2 SSO sessions ended". */
    public void report(String consequence) {
        consequences.add(consequence);
    }

    /** The observers' reports in the order they ran, e.g. "1 SSO session ended, 1 token grant revoked". */
    public String consequences() {
        return String.join(", ", consequences);
    }
}
