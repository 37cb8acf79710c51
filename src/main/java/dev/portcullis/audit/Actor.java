package dev.portcullis.audit;

import java.util.Optional;

/**
 * Who made an administrative change, as the audit trail names it, from which client address, and where: the admin
 * API's shared bearer token ({@link #adminToken}), or a signed-in administrator ({@link #administrator}), in the
 * console when {@link #where} says so ({@link #within}). The services that audit a change add {@code where} to the
 * details of the events that name it.
 */
public record Actor(String id, String ip, String where) {

    /** The name of the admin API's bearer token in the audit trail. */
    public static final String ADMIN_TOKEN = "admin-token";
    private static final String USER = "user:";

    public Actor(String id, String ip) {
        this(id, ip, null);
    }

    public static Actor adminToken(String ip) {
        return new Actor(ADMIN_TOKEN, ip);
    }

    /** A human administrator, by user id (the OIDC sub), so a renamed account keeps its trail. */
    public static Actor administrator(String userId, String ip) {
        return new Actor(USER + userId, ip);
    }

    /** A user acting on their own account through a delegated token ({@code /api/v1/me}), by user id. */
    public static Actor user(String userId, String ip) {
        return new Actor(USER + userId, ip);
    }

    /** The user id of a human administrator or user; empty for the admin API's bearer token (nobody's account). */
    public Optional<String> userId() {
        return id.startsWith(USER) ? Optional.of(id.substring(USER.length())) : Optional.empty();
    }

    /** The same actor acting from {@code where}, e.g. "in the console". */
    public Actor within(String where) {
        return new Actor(id, ip, where);
    }
}
