package dev.portcullis.kerberos;

import java.util.Optional;

/**
 * A client principal as the GSS-API names it ({@code carol@CORP.EXAMPLE}): the whole name, the part before the
 * realm (the account name), and the realm. Names with an instance ({@code carol/admin@...}) or escapes are not
 * users and are refused.
 */
public record KerberosPrincipalName(String principal, String account, String realm) {

    static final int MAX_LENGTH = 256;

    public static Optional<KerberosPrincipalName> parse(String principal) {
        if (principal == null || principal.isEmpty() || principal.length() > MAX_LENGTH) {
            return Optional.empty();
        }
        int at = principal.indexOf('@');
        if (at <= 0 || at != principal.lastIndexOf('@') || at == principal.length() - 1) {
            return Optional.empty();
        }
        String account = principal.substring(0, at);
        if (account.contains("/") || account.contains("\\") || principal.chars().anyMatch(ch -> ch < 0x20)) {
            return Optional.empty();
        }
        return Optional.of(new KerberosPrincipalName(principal, account, principal.substring(at + 1)));
    }
}
