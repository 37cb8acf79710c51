package dev.portcullis.client;

import dev.portcullis.admin.Refusal;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.StringJoiner;

/** The grant types a client may be given: their names, the default, and the check of a registration's list. */
public final class GrantTypes {

    public static final String AUTHORIZATION_CODE = "authorization_code";
    public static final String REFRESH_TOKEN = "refresh_token";
    public static final String CLIENT_CREDENTIALS = "client_credentials";
    public static final String TOKEN_EXCHANGE = "urn:ietf:params:oauth:grant-type:token-exchange";

    /** Catalogue order, which is also the order they are stored and shown in. */
    public static final List<String> ALL = List.of(AUTHORIZATION_CODE, REFRESH_TOKEN, CLIENT_CREDENTIALS,
            TOKEN_EXCHANGE);

    /** What a client has when its registration names none (also every client registered before the column). */
    public static final List<String> DEFAULT = List.of(AUTHORIZATION_CODE, REFRESH_TOKEN);

    /** Grants that authenticate the client alone, so a public client, which cannot authenticate, may not have them. */
    public static final Set<String> CONFIDENTIAL_ONLY = Set.of(CLIENT_CREDENTIALS, TOKEN_EXCHANGE);

    private GrantTypes() {
    }

    /** The stored form of a set: space-separated, in catalogue order. */
    public static String format(Collection<String> grantTypes) {
        StringJoiner joined = new StringJoiner(" ");
        for (String g : ALL) {
            if (grantTypes.contains(g)) {
                joined.add(g);
            }
        }
        return joined.toString();
    }

    /** The stored form's set, in catalogue order. */
    public static Set<String> parse(String column) {
        Set<String> named = Scopes.parse(column);
        Set<String> ordered = new LinkedHashSet<>();
        for (String g : ALL) {
            if (named.contains(g)) {
                ordered.add(g);
            }
        }
        return ordered;
    }

    /**
     * A registration's or patch's list checked against the client's type after the change: at least one, all known,
     * none twice, and the confidential-only ones only for a confidential client.
     *
     * @throws Refusal naming {@code grant_types}
     */
    public static String check(List<String> grantTypes, boolean confidential) {
        if (grantTypes == null || grantTypes.isEmpty()) {
            throw Refusal.invalid("grant_types", "at least one grant type is required");
        }
        Set<String> distinct = new LinkedHashSet<>();
        for (String g : grantTypes) {
            if (!ALL.contains(g)) {
                throw Refusal.invalid("grant_types", "unknown grant type '" + (g != null && g.length() <= 60
                        && Scopes.isWellFormed(g) ? g : "?") + "'; known grant types are " + String.join(" ", ALL));
            }
            if (!distinct.add(g)) {
                throw Refusal.invalid("grant_types", "lists '" + g + "' twice");
            }
            if (!confidential && CONFIDENTIAL_ONLY.contains(g)) {
                throw Refusal.invalid("grant_types", g + " is only for confidential clients");
            }
        }
        return format(distinct);
    }
}
