package dev.portcullis.token;

import dev.portcullis.account.User;
import dev.portcullis.client.Scopes;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * The claims about a user that a scope releases (OIDC Core 5.4), the same in the ID token and at the userinfo
 * endpoint: {@code preferred_username}, {@code name}, {@code given_name} and {@code family_name} with
 * {@code profile}; {@code email} and {@code email_verified} with {@code email}; {@code groups} ({@link User#groups}:
 * a directory user's as captured at the last sign-in, a local user's as an administrator set them; an empty list for
 * none) with {@code groups}. {@code sub} is not among them: each caller sets it with its other fixed claims.
 */
public final class UserClaims {

    private UserClaims() {
    }

    /** Values are Strings, Booleans and (for {@code groups}) lists of Strings, in a stable order. */
    public static Map<String, Object> of(User user, Set<String> scopes) {
        Map<String, Object> claims = new LinkedHashMap<>();
        if (scopes.contains(Scopes.PROFILE)) {
            claims.put("preferred_username", user.username());
            if (user.name() != null) {
                claims.put("name", user.name());
            }
            if (user.givenName() != null) {
                claims.put("given_name", user.givenName());
            }
            if (user.familyName() != null) {
                claims.put("family_name", user.familyName());
            }
        }
        if (scopes.contains(Scopes.EMAIL) && user.email() != null) {
            claims.put("email", user.email());
            // Portcullis does not verify addresses; the operator enters them (OIDC Core 5.1)
            claims.put("email_verified", false);
        }
        if (scopes.contains(Scopes.GROUPS)) {
            claims.put("groups", user.groups());
        }
        return claims;
    }
}
