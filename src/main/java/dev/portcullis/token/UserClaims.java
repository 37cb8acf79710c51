package dev.portcullis.token;

import dev.portcullis.account.StandardClaims;
import dev.portcullis.account.User;
import dev.portcullis.client.Scopes;
import dev.portcullis.protocol.ClaimsRequest;
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
 * with its other fixed claims. The {@code claims} request parameter (OIDC Core 5.5) adds claims one by one.
 */
public final class UserClaims {

    /** Every claim a scope can release, in release order. */
    public static final List<String> ALL = Scopes.CLAIMS;

    private UserClaims() {
    }

    /**
     * The claims {@code scopes} release. Values are Strings, Booleans, Longs ({@code updated_at}), lists of Strings
     * ({@code groups}) and a map of Strings ({@code address}), in a stable order.
     */
    public static Map<String, Object> of(User user, Set<String> scopes) {
        Map<String, Object> claims = new LinkedHashMap<>();
        for (String scope : Scopes.ALL) { // catalogue order, whatever the order of the request's scopes
            if (!scopes.contains(scope)) {
                continue;
            }
            for (String claim : Scopes.claimsOf(scope)) {
                value(user, claim).ifPresent(v -> claims.put(claim, v));
            }
        }
        return claims;
    }

    /**
     * The claims of the userinfo answer: those {@code scopes} release, and those the {@code claims} parameter asks
     * for there ({@link #withRequested}).
     */
    public static Map<String, Object> atUserinfo(User user, Set<String> scopes, ClaimsRequest request) {
        return withRequested(of(user, scopes), user, request.userinfo());
    }

    /**
     * The user claims of an ID token: those {@code scopes} release when {@code scopeClaims}, and those the
     * {@code claims} parameter asks for in the ID token ({@link #withRequested}).
     */
    public static Map<String, Object> inIdToken(User user, Set<String> scopes, ClaimsRequest request,
                                                boolean scopeClaims) {
        return withRequested(scopeClaims ? of(user, scopes) : new LinkedHashMap<>(), user, request.idToken());
    }

    /**
     * {@code claims} and, added, each claim asked for one by one (OIDC Core 5.5) that the user has, with a value
     * the request allows ({@code value}/{@code values}); a name that is no user claim is ignored.
     */
    static Map<String, Object> withRequested(Map<String, Object> claims, User user,
                                             Map<String, ClaimsRequest.Requested> requested) {
        for (String claim : Scopes.CLAIMS) {
            ClaimsRequest.Requested asked = requested.get(claim);
            if (asked != null && !claims.containsKey(claim)) {
                value(user, claim).filter(asked::allows).ifPresent(v -> claims.put(claim, v));
            }
        }
        return claims;
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
}
