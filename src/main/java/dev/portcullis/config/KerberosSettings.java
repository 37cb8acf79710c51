package dev.portcullis.config;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import com.unboundid.ldap.sdk.Filter;
import com.unboundid.ldap.sdk.LDAPException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import javax.security.auth.kerberos.KerberosKey;
import javax.security.auth.kerberos.KerberosPrincipal;
import javax.security.auth.kerberos.KeyTab;

/**
 * The {@code portcullis.kerberos.*} settings of Windows integrated sign-in (SPNEGO): the service's keytab and
 * principal, the realms whose users may sign in (the first is the home realm), the directory filters that find a
 * principal's entry (the home realm's {@code userFilter}, other realms' {@code realmFilters}), and the client networks
 * that are offered it (empty: every client). Present only when {@code portcullis.kerberos.keytab} is set; start-up
 * refuses a keytab that cannot be read or holds no key of the principal.
 */
public record KerberosSettings(Path keytab, String principal, Optional<Path> krb5Conf, List<String> realms,
                               String userFilter, Map<String, String> realmFilters, List<AddressRange> networks) {

    /** The home realm's filter: the whole principal as a UPN, or the short name as an account name. */
    public static final String DEFAULT_USER_FILTER = "(|(userPrincipalName={0})(sAMAccountName={1})(uid={1}))";
    /**
     * Another realm's filter unless {@code realm-filters} names one: the whole principal, realm included, so a partner's
     * {@code carol@PARTNER} never finds the home realm's {@code carol}.
     */
    public static final String DEFAULT_REALM_FILTER = "(userPrincipalName={0})";
    static final String KEYTAB = "portcullis.kerberos.keytab";
    static final String PRINCIPAL = "portcullis.kerberos.principal";
    static final String KRB5_CONF = "portcullis.kerberos.krb5-conf";
    static final String REALMS = "portcullis.kerberos.realms";
    static final String USER_FILTER = "portcullis.kerberos.user-filter";
    static final String REALM_FILTERS = "portcullis.kerberos.realm-filters";

    public KerberosSettings {
        realms = List.copyOf(realms);
        if (realms.isEmpty()) {
            throw new IllegalArgumentException("at least the home realm");
        }
        realmFilters = Map.copyOf(realmFilters);
        networks = List.copyOf(networks);
    }

    /** The realm of a principal name ({@code name@REALM}), or empty when it has none. */
    public static Optional<String> realmOf(String principal) {
        int at = principal.lastIndexOf('@');
        return at < 0 || at == principal.length() - 1 ? Optional.empty() : Optional.of(principal.substring(at + 1));
    }

    static Optional<KerberosSettings> load(PortcullisConfig.Source c, boolean directory) {
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
        List<String> realms = new ArrayList<>();
        for (String r : text(c, REALMS).orElse(serviceRealm).split("\\s+")) {
            PortcullisConfig.require(!realms.contains(r), REALMS, "names " + r + " twice");
            PortcullisConfig.require(r.chars().noneMatch(ch -> ch <= ' ' || ch == '@' || ch == '/' || ch == '\\'
                    || ch == '=' || ch == '(' || ch == ')' || ch >= 0x7f), REALMS, "must be realm names separated by "
                    + "spaces, got '" + r + "'");
            realms.add(r);
        }
        String userFilter = text(c, USER_FILTER).orElse(DEFAULT_USER_FILTER);
        checkFilter(USER_FILTER, userFilter);
        Map<String, String> realmFilters = realmFilters(text(c, REALM_FILTERS).orElse(""), realms);
        PortcullisConfig.require(realmFilters.isEmpty() || directory, REALM_FILTERS, "needs a directory "
                + "(portcullis.ldap.url): without one, only principals of the home realm " + realms.get(0)
                + " sign in, as local users");
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
        return Optional.of(new KerberosSettings(keytab, principal, krb5Conf, realms, userFilter, realmFilters,
                networks));
    }

    /**
     * {@code REALM=(filter)} entries separated by white space, each filter one parenthesised LDAP filter (its own
     * parentheses balanced, as RFC 4515 escapes any in a value as {@code \28} and {@code \29}), so a filter may hold
     * spaces and commas. Only listed realms other than the home realm, each once.
     */
    static Map<String, String> realmFilters(String value, List<String> realms) {
        Map<String, String> filters = new LinkedHashMap<>();
        int i = 0;
        while (true) {
            while (i < value.length() && Character.isWhitespace(value.charAt(i))) {
                i++;
            }
            if (i == value.length()) {
                return filters;
            }
            int eq = value.indexOf('=', i);
            String realm = eq < 0 ? value.substring(i) : value.substring(i, eq);
            PortcullisConfig.require(eq > i && value.startsWith("(", eq + 1) && realm.chars().noneMatch(
                    Character::isWhitespace), REALM_FILTERS, "must be REALM=(filter) entries separated by spaces, "
                    + "got '" + value.substring(i) + "'");
            int end = eq + 1;
            int depth = 0;
            do {
                char ch = value.charAt(end++);
                depth += ch == '(' ? 1 : ch == ')' ? -1 : 0;
            } while (depth > 0 && end < value.length());
            PortcullisConfig.require(depth == 0 && (end == value.length() || Character.isWhitespace(
                    value.charAt(end))), REALM_FILTERS, "the filter of " + realm + " must be one LDAP filter in "
                    + "balanced parentheses followed by a space or the end, got '" + value.substring(eq + 1) + "'");
            PortcullisConfig.require(realms.contains(realm), REALM_FILTERS, "names " + realm + ", which is not in "
                    + REALMS + " " + realms + " (realm names compare exactly)");
            PortcullisConfig.require(!realm.equals(realms.get(0)), REALM_FILTERS, "names the home realm " + realm
                    + ", whose filter is " + USER_FILTER);
            PortcullisConfig.require(!filters.containsKey(realm), REALM_FILTERS, "names " + realm + " twice");
            String filter = value.substring(eq + 1, end);
            checkFilter(REALM_FILTERS, filter);
            filters.put(realm, filter);
            i = end;
        }
    }

    /** A filter in parentheses holding {0} or {1} that parses with sample values in their place. */
    private static void checkFilter(String key, String filter) {
        boolean parses;
        try {
            Filter.create(filter.replace("{0}", "x@X").replace("{1}", "x"));
            parses = true;
        } catch (LDAPException e) {
            parses = false;
        }
        PortcullisConfig.require(parses && filter.startsWith("(") && filter.endsWith(")")
                && (filter.contains("{0}") || filter.contains("{1}")), key, "must be an LDAP filter in parentheses "
                + "holding {0} (the principal) or {1} (its name before @), got '" + filter + "'");
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

    /** The first realm listed: the only one whose principals are local users, and short names, by default. */
    public String homeRealm() {
        return realms.get(0);
    }

    /**
     * The directory filter of a principal of {@code realm}: the home realm's {@code user-filter}, another listed
     * realm's entry in {@code realm-filters} or {@link #DEFAULT_REALM_FILTER}; empty for a realm not listed.
     */
    public Optional<String> directoryFilter(String realm) {
        if (!acceptsRealm(realm)) {
            return Optional.empty();
        }
        return Optional.of(realm.equals(homeRealm()) ? userFilter
                : realmFilters.getOrDefault(realm, DEFAULT_REALM_FILTER));
    }

    private static Optional<String> text(PortcullisConfig.Source c, String key) {
        return c.getOptionalValue(key).map(String::trim).filter(s -> !s.isEmpty());
    }
}
