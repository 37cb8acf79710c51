package dev.portcullis.token;

import dev.portcullis.account.StandardClaims;
import dev.portcullis.account.User;
import dev.portcullis.client.Scopes;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The claims about a user that a scope releases (OIDC Core 5.4), those the user has: with {@code profile},
 * {@code preferred_username}, {@code name}, the profile texts of {@link StandardClaims#PROFILE_TEXTS} and
 * {@code updated_at}; with {@code email}, {@code email} and {@code email_verified}; with {@code address}, the
 * structured {@code address}; with {@code phone}, {@code phone_number} and {@code phone_number_verified}; with
 * {@code groups}, {@code groups} ({@link User#groups}: a directory user's as captured at the last sign-in, a local
 * user's as an administrator set them; an empty list for none). {@code sub} is not among them: each caller sets it
 * with its other fixed claims.
 */
public final class UserClaims {

    private static final List<String> PROFILE = profile();

    /** Every claim a scope can release, in release order. */
    public static final List<String> ALL = all();

    private UserClaims() {
    }

    /**
     * Values are Strings, Booleans, Longs ({@code updated_at}), lists of Strings ({@code groups}) and a map of
     * Strings ({@code address}), in a stable order.
     */
    public static Map<String, Object> of(User user, Set<String> scopes) {
        Map<String, Object> claims = new LinkedHashMap<>();
        for (String scope : scopes) {
            for (String claim : released(scope)) {
                value(user, claim).ifPresent(v -> claims.put(claim, v));
            }
        }
        return claims;
    }

    /** The claims {@code scope} releases (none for a scope that releases none). */
    public static List<String> released(String scope) {
        return switch (scope) {
            case Scopes.PROFILE -> PROFILE;
            case Scopes.EMAIL -> List.of("email", "email_verified");
            case Scopes.ADDRESS -> List.of(StandardClaims.ADDRESS);
            case Scopes.PHONE -> List.of(StandardClaims.PHONE_NUMBER, StandardClaims.PHONE_NUMBER_VERIFIED);
            case Scopes.GROUPS -> List.of(Scopes.GROUPS);
            default -> List.of();
        };
    }

    /** The user's value of {@code claim}, empty when they have none or it is not a user claim. */
    public static Optional<Object> value(User user, String claim) {
        Object value = switch (claim) {
            case "preferred_username" -> user.username();
            case "name" -> user.name();
            case "updated_at" -> user.profileUpdatedAt().getEpochSecond();
            case "email" -> user.email();
            // Portcullis does not verify addresses; the operator enters them (OIDC Core 5.1)
            case "email_verified" -> user.email() == null ? null : Boolean.FALSE;
            case StandardClaims.PHONE_NUMBER_VERIFIED -> user.claim(StandardClaims.PHONE_NUMBER) == null ? null
                    : user.phoneNumberVerified();
            case StandardClaims.ADDRESS -> user.address().isEmpty() ? null : user.address();
            case Scopes.GROUPS -> user.groups();
            default -> StandardClaims.TEXTS.contains(claim) ? user.claim(claim) : null;
        };
        return Optional.ofNullable(value);
    }

    private static List<String> profile() {
        List<String> names = new ArrayList<>(List.of("preferred_username", "name"));
        names.addAll(StandardClaims.PROFILE_TEXTS);
        names.add("updated_at");
        return List.copyOf(names);
    }

    private static List<String> all() {
        List<String> names = new ArrayList<>();
        for (String scope : Scopes.ALL) {
            names.addAll(released(scope));
        }
        return List.copyOf(names);
    }
}
