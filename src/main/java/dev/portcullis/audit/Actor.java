package dev.portcullis.audit;

/**
 * Who made an administrative change, as the audit trail names it, and from which client address: the admin API's
 * shared bearer token ({@link #adminToken}), or a signed-in administrator ({@link #administrator}, the console).
 */
public record Actor(String id, String ip) {

    /** The name of the admin API's bearer token in the audit trail. */
    public static final String ADMIN_TOKEN = "admin-token";

    public static Actor adminToken(String ip) {
        return new Actor(ADMIN_TOKEN, ip);
    }

    /** A human administrator, by user id (the OIDC sub), so a renamed account keeps its trail. */
    public static Actor administrator(String userId, String ip) {
        return new Actor("user:" + userId, ip);
    }
}
