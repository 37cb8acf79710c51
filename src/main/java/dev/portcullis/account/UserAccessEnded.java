package dev.portcullis.account;

import java.util.ArrayList;
import java.util.List;

/**
 * Fired synchronously inside the transaction that changes a user's standing (a new password, the account disabled):
 * whatever the user's earlier sign-ins opened — SSO sessions, unredeemed codes, token families — ends with it. The
 * observers live in the packages that own those tables and know this one, not the other way round; each reports
 * what it ended, for the audit trail. Observe this type to react to every subtype.
 */
public abstract class UserAccessEnded {

    private final String userId;
    private final List<String> consequences = new ArrayList<>();

    UserAccessEnded(String userId) {
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
