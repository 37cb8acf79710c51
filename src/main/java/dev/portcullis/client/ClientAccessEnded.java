package dev.portcullis.client;

import java.util.ArrayList;
import java.util.List;

/**
 * Fired synchronously inside the transaction that disables a client or makes a confidential client public: every
 * token family issued to it ends, since it can no longer be used as issued. The token store, which sits above this
 * package, observes it and reports what it revoked, for the audit trail.
 */
public final class ClientAccessEnded {

    private final String clientId;
    private final List<String> consequences = new ArrayList<>();

    ClientAccessEnded(String clientId) {
        this.clientId = clientId;
    }

    public String clientId() {
        return clientId;
    }

    /** Records what an observer ended, e.g. "3 token grants revoked". */
    public void report(String consequence) {
        consequences.add(consequence);
    }

    public String consequences() {
        return String.join(", ", consequences);
    }
}
