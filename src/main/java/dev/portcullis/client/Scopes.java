package dev.portcullis.client;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.StringJoiner;
import java.util.regex.Pattern;

/**
 * The scope catalogue: every scope Portcullis knows, in one place. A client's {@code scopes} is the subset it may
 * request; a token's scope is the subset the user granted. Descriptions shown on the consent page live in the
 * message bundle under {@code scope.<name>}.
 */
public final class Scopes {

    public static final String OPENID = "openid";
    public static final String PROFILE = "profile";
    public static final String EMAIL = "email";
    /** The {@code address} claim (OIDC Core 5.4). */
    public static final String ADDRESS = "address";
    /** The {@code phone_number} and {@code phone_number_verified} claims (OIDC Core 5.4). */
    public static final String PHONE = "phone";
    /** The {@code groups} claim: the user's groups (the directory's, or those an administrator gave a local user). */
    public static final String GROUPS = "groups";
    /** Read the signed-in user's own profile and authorizations through /api/v1 (delegable). */
    public static final String READ_USER = "read_user";
    /** Act on the user's behalf on the writable /api/v1 surface, e.g. revoke an authorization (delegable). */
    public static final String API = "api";

    /** Asks for refresh tokens (OIDC Core 11); not a scope of the catalogue, and never any API's. */
    public static final String OFFLINE_ACCESS = "offline_access";

    /** Catalogue order, which is also the order scopes are shown and returned in. */
    public static final List<String> ALL = List.of(OPENID, PROFILE, EMAIL, ADDRESS, PHONE, GROUPS, READ_USER, API);

    /**
     * The user claims {@code scope} releases (OIDC Core 5.4; {@code groups} its own), in release order; none for a
     * scope that releases none.
     */
    public static List<String> claimsOf(String scope) {
        return switch (scope) {
            case PROFILE -> List.of("preferred_username", "name", "given_name", "family_name", "middle_name",
                    "nickname", "picture", "website", "gender", "birthdate", "zoneinfo", "locale", "updated_at");
            case EMAIL -> List.of("email", "email_verified");
            case ADDRESS -> List.of("address");
            case PHONE -> List.of("phone_number", "phone_number_verified");
            case GROUPS -> List.of("groups");
            default -> List.of();
        };
    }

    /** Every user claim a scope releases, in catalogue order. */
    public static final List<String> CLAIMS = ALL.stream().flatMap(s -> claimsOf(s).stream()).toList();

    /** The user claims among {@code names} that none of {@code scopes} releases (unknown names are no claims). */
    public static Set<String> claimsBeyond(Set<String> names, Set<String> scopes) {
        Set<String> beyond = new LinkedHashSet<>();
        for (String name : names) {
            if (CLAIMS.contains(name) && scopes.stream().noneMatch(s -> claimsOf(s).contains(name))) {
                beyond.add(name);
            }
        }
        return beyond;
    }

    private static final Pattern SCOPE_TOKEN = Pattern.compile("[\\x21\\x23-\\x5B\\x5D-\\x7E]+"); // RFC 6749 3.3

    private Scopes() {
    }

    public static boolean isKnown(String scope) {
        return ALL.contains(scope);
    }

    /** Whether a single scope token has RFC 6749 3.3 syntax. */
    public static boolean isWellFormed(String scope) {
        return SCOPE_TOKEN.matcher(scope).matches();
    }

    /** Splits a space-separated scope string into its distinct tokens, in order; blanks are dropped. */
    public static Set<String> parse(String scope) {
        if (scope == null || scope.isBlank()) {
            return new LinkedHashSet<>();
        }
        // a plain scan, not split(" +"): this runs several times per token request, and a regex split compiles
        // its pattern on every call
        String s = scope.trim();
        Set<String> names = new LinkedHashSet<>();
        int start = -1;
        for (int i = 0; i <= s.length(); i++) {
            boolean space = i == s.length() || s.charAt(i) == ' ';
            if (space && start >= 0) {
                names.add(s.substring(start, i));
                start = -1;
            } else if (!space && start < 0) {
                start = i;
            }
        }
        return names;
    }

    /** A scope set as a string in catalogue order (unknown names last, in their order). */
    public static String format(Set<String> scopes) {
        StringJoiner joined = new StringJoiner(" "); // loops, not streams: this runs on every authorization request
        for (String s : ALL) {
            if (scopes.contains(s)) {
                joined.add(s);
            }
        }
        for (String s : scopes) {
            if (!ALL.contains(s)) {
                joined.add(s);
            }
        }
        return joined.toString();
    }
}
