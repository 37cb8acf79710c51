package dev.portcullis.client;

import java.util.Set;

/**
 * The client ids of Portcullis's own pages (the account page and the admin console, registered at start-up). They are
 * listed like any other client but cannot be deleted, disabled or made confidential by an administrator: that would
 * lock every administrator out of the console that could undo it. {@code signin.OwnPage} names its areas' clients by
 * these constants.
 */
public final class BuiltInClients {

    public static final String ACCOUNT = "portcullis-account";
    public static final String CONSOLE = "portcullis-console";

    public static final Set<String> ALL = Set.of(ACCOUNT, CONSOLE);

    private BuiltInClients() {
    }

    public static boolean isBuiltIn(String clientId) {
        return ALL.contains(clientId);
    }
}
