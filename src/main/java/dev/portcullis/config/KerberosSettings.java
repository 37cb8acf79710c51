package dev.portcullis.config;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import javax.security.auth.kerberos.KerberosKey;
import javax.security.auth.kerberos.KerberosPrincipal;
import javax.security.auth.kerberos.KeyTab;

/**
 * The {@code portcullis.kerberos.*} settings of Windows integrated sign-in (SPNEGO): the service's keytab and
 * principal, the realms whose users may sign in, the directory filter that finds a principal's entry, and the client
 * networks that are offered it (empty: every client). Present only when {@code portcullis.kerberos.keytab} is set;
 * start-up refuses a keytab that cannot be read or holds no key of the principal.
 */
public record KerberosSettings(Path keytab, String principal, Optional<Path> krb5Conf, Set<String> realms,
                               String userFilter, List<AddressRange> networks) {

    public static final String DEFAULT_USER_FILTER = "(|(userPrincipalName={0})(sAMAccountName={1})(uid={1}))";
    static final String KEYTAB = "portcullis.kerberos.keytab";
    static final String PRINCIPAL = "portcullis.kerberos.principal";
    static final String KRB5_CONF = "portcullis.kerberos.krb5-conf";

    public KerberosSettings {
        realms = Set.copyOf(realms);
        networks = List.copyOf(networks);
    }

    /** The realm of a principal name ({@code name@REALM}), or empty when it has none. */
    public static Optional<String> realmOf(String principal) {
        int at = principal.lastIndexOf('@');
        return at < 0 || at == principal.length() - 1 ? Optional.empty() : Optional.of(principal.substring(at + 1));
    }

    static Optional<KerberosSettings> load(PortcullisConfig.Source c) {
        Optional<String> keytabText = text(c, KEYTAB);
        if (keytabText.isEmpty()) {
            return Optional.empty();
        }
        Path keytab = Path.of(keytabText.get()).toAbsolutePath();
        String principal = text(c, PRINCIPAL).orElseThrow(() -> new ConfigurationException(PRINCIPAL,
                "is required with " + KEYTAB + ": the service principal, e.g. HTTP/sso.corp.example@CORP.EXAMPLE"));
        String serviceRealm = realmOf(principal).orElseThrow(() -> new ConfigurationException(PRINCIPAL,
                "must name its realm (HTTP/host@REALM), got '" + principal + "'"));
        PortcullisConfig.require(principal.indexOf('@') == principal.lastIndexOf('@') && principal.indexOf('@') > 0,
                PRINCIPAL, "must be one principal name (HTTP/host@REALM), got '" + principal + "'");
        Optional<Path> krb5Conf = text(c, KRB5_CONF).map(p -> Path.of(p).toAbsolutePath());
        krb5Conf.ifPresent(p -> {
            PortcullisConfig.require(Files.isReadable(p), KRB5_CONF, "cannot read " + p);
            // JVM-global: the JDK's Kerberos reads this property once; README says so
            System.setProperty("java.security.krb5.conf", p.toString());
        });
        Set<String> realms = new LinkedHashSet<>();
        for (String r : text(c, "portcullis.kerberos.realms").orElse(serviceRealm).split("\\s+")) {
            if (!r.isEmpty()) {
                realms.add(r);
            }
        }
        String userFilter = text(c, "portcullis.kerberos.user-filter").orElse(DEFAULT_USER_FILTER);
        PortcullisConfig.require(userFilter.startsWith("(") && userFilter.endsWith(")")
                        && (userFilter.contains("{0}") || userFilter.contains("{1}")),
                "portcullis.kerberos.user-filter", "must be an LDAP filter in parentheses holding {0} (the principal) "
                        + "or {1} (its name before @), got '" + userFilter + "'");
        List<AddressRange> networks = new ArrayList<>();
        for (String n : text(c, "portcullis.kerberos.networks").orElse("").split("[,\\s]+")) {
            if (!n.isBlank()) {
                try {
                    networks.add(AddressRange.parse(n));
                } catch (IllegalArgumentException e) {
                    throw new ConfigurationException("portcullis.kerberos.networks", "must be IP addresses or CIDR "
                            + "ranges (10.0.0.0/8, 2001:db8::/32), separated by spaces or commas: " + e.getMessage());
                }
            }
        }
        checkKeytab(keytab, principal);
        return Optional.of(new KerberosSettings(keytab, principal, krb5Conf, realms, userFilter, networks));
    }

    /** Refuses a keytab that cannot be read or holds no key of the principal, naming both. */
    static void checkKeytab(Path keytab, String principal) {
        String which = "keytab " + keytab + " for principal " + principal;
        if (!Files.isRegularFile(keytab) || !Files.isReadable(keytab)) {
            throw new ConfigurationException(KEYTAB, "cannot read " + which);
        }
        KerberosKey[] keys;
        try {
            KerberosPrincipal kp = new KerberosPrincipal(principal, KerberosPrincipal.KRB_NT_PRINCIPAL);
            keys = KeyTab.getInstance(kp, new File(keytab.toString())).getKeys(kp);
        } catch (RuntimeException e) {
            throw new ConfigurationException(KEYTAB, "cannot use " + which + ": " + e.getMessage());
        }
        if (keys.length == 0) {
            throw new ConfigurationException(KEYTAB, "has no key of the service principal: " + which
                    + " (make it with ktpass /princ or kadmin ktadd for exactly this principal)");
        }
        for (KerberosKey k : keys) {
            try {
                k.destroy();
            } catch (javax.security.auth.DestroyFailedException ignored) {
                // only a copy made for this check; the acceptor reads the keytab itself
            }
        }
    }

    /** Whether a client address (a literal, after trusted-proxy resolution) is offered Kerberos. */
    public boolean offeredTo(String clientAddress) {
        if (networks.isEmpty()) {
            return true;
        }
        return AddressRange.literal(clientAddress).map(a -> networks.stream().anyMatch(n -> n.contains(a)))
                .orElse(false);
    }

    /** Whether principals of this realm may sign in (realm names compare exactly, as Kerberos does). */
    public boolean acceptsRealm(String realm) {
        return realms.contains(realm);
    }

    private static Optional<String> text(PortcullisConfig.Source c, String key) {
        return c.getOptionalValue(key).map(String::trim).filter(s -> !s.isEmpty());
    }
}
