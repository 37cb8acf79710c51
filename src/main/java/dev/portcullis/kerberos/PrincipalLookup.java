package dev.portcullis.kerberos;

import dev.portcullis.config.KerberosSettings;
import java.util.Locale;
import java.util.Optional;

/**
 * Where the user of a client principal is looked up. The realm is part of the name: {@code carol@PARTNER.EXAMPLE}
 * and {@code carol@CORP.EXAMPLE} are different people. Without a directory only the home realm (the first of
 * {@code portcullis.kerberos.realms}) has users, the local ones, by the name before {@code @}; with one, each listed
 * realm has its own filter ({@link KerberosSettings#directoryFilter}), and only the home realm's default finds an
 * entry by the short name. A name that is not a plain user principal (an instance such as {@code carol/admin}, an
 * enterprise name {@code carol\@corp.example@REALM}) and a realm not listed find nobody.
 */
sealed interface PrincipalLookup {

    /** The local user with this username. */
    record LocalUser(String username) implements PrincipalLookup {
    }

    /** The one directory entry {@code filter} finds, {@code {0}} the whole principal and {@code {1}} the account. */
    record DirectoryEntry(String filter, KerberosPrincipalName name) implements PrincipalLookup {
    }

    /** Nobody: why, for the audit trail (after the principal). */
    record Nobody(String reason) implements PrincipalLookup {
    }

    static PrincipalLookup of(String principal, KerberosSettings settings, boolean directory) {
        Optional<KerberosPrincipalName> parsed = KerberosPrincipalName.parse(principal);
        if (parsed.isEmpty()) {
            return new Nobody("is not a user principal (an instance, an enterprise name or an escape)");
        }
        KerberosPrincipalName name = parsed.get();
        Optional<String> filter = settings.directoryFilter(name.realm());
        if (filter.isEmpty()) {
            return new Nobody("is not of an accepted realm");
        }
        if (directory) {
            return new DirectoryEntry(filter.get(), name);
        }
        if (!name.realm().equals(settings.homeRealm())) {
            return new Nobody("is not of the home realm " + settings.homeRealm() + ", the only realm of local users");
        }
        return new LocalUser(name.account().toLowerCase(Locale.ROOT));
    }
}
